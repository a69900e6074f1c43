"""The lobby socket shares the table socket's guards (games.socket.base): a frame
built to crash the parser is refused and the socket lives on; closing it
leaves no presence behind."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.live import presence
from games.models import Presence
from games.tests.test_socket_failures import DEEP
from lobby.consumers import LobbyConsumer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_the_lobby_socket_refuses_a_deep_frame_and_cleans_up() -> None:
    communicator = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    communicator.scope["user"] = AnonymousUser()
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["type"] == "counts"
    await communicator.send_to(text_data=DEEP)
    error = await communicator.receive_json_from()
    assert (error["code"], error["reason"]) == ("bad_frame", "json")
    await communicator.send_json_to({"type": "ping"})
    assert (await communicator.receive_json_from())["type"] == "pong"
    assert await database_sync_to_async(presence.live_presence().count)() == 1
    await communicator.disconnect()
    assert await database_sync_to_async(Presence.objects.count)() == 0
