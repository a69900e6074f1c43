"""Websocket routes of every app."""

from games.socket.routing import websocket_urlpatterns as games_websockets
from lobby.routing import websocket_urlpatterns as lobby_websockets
from tournaments.routing import websocket_urlpatterns as tournament_websockets

websocket_urlpatterns = [*games_websockets, *lobby_websockets, *tournament_websockets]
