"""Websocket routes of the accounts app."""

from django.urls import path

from accounts.consumers import LobbyConsumer

websocket_urlpatterns = [path("ws/lobby/", LobbyConsumer.as_asgi())]
