"""Websocket routes of every app."""

from accounts.routing import websocket_urlpatterns as accounts_websockets
from games.routing import websocket_urlpatterns as games_websockets

websocket_urlpatterns = [*games_websockets, *accounts_websockets]
