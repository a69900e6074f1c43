"""Websocket routes of the games app."""

from django.urls import path

from games.socket.table import TableConsumer

websocket_urlpatterns = [path("ws/table/<int:table_id>/", TableConsumer.as_asgi())]
