"""Websocket routes of every app."""

from games.routing import websocket_urlpatterns as games_websockets

websocket_urlpatterns = [*games_websockets]
