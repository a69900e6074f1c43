"""A move posted through the API wakes the game streams at once (docs/api.md, "How a
stream learns of new events"). A POST runs in a thread of its own; its broadcast must
go through the server's event loop, the one whose in-memory channel layer queues the
streams wait on. It went through a loop of its own in another thread when no table
websocket had yet told the broadcast module the server's loop (every POST of the API
benchmark's API phase): ``asyncio.Queue`` is not thread-safe, the put did not wake the
server loop, and the stream waited for its safety poll."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import TimeoutError as FutureTimeout

import pytest
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer
from django.db import close_old_connections

from api import streams
from games.engine import view_for
from games.live import broadcast
from games.models import Game
from games.play import selectors as game_selectors
from games.play import services as game_services
from games.tests.factories import UserFactory
from games.tests.helpers import ranked_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server_loop(monkeypatch):
    """An event loop in a thread of its own, as Daphne's; no table socket has run on it."""
    monkeypatch.setattr(broadcast, "_server_loop", None)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def test_a_move_made_in_another_thread_wakes_the_stream_through_the_server_loop(server_loop, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # Only a broadcast can wake the stream: its safety poll would come after an hour.
    settings.API_STREAM_POLL_SECONDS = 3600
    settings.API_KEEPALIVE_SECONDS = 3600
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    table = ranked_table([alice, bob])
    game = Game.objects.get(table=table)
    state = game_selectors.game_state(game)
    reader = 1 - state.to_move

    async def open_stream():
        response = await streams.game_stream([alice, bob][reader], table.pk, None)
        body = aiter(response.streaming_content)
        first = await anext(body)
        return body, first

    body, first = asyncio.run_coroutine_threadsafe(open_stream(), server_loop).result(timeout=60)
    assert b'"gameFull"' in first
    assert broadcast._server_loop is server_loop  # the stream told the broadcast module
    waiting = asyncio.run_coroutine_threadsafe(anext(body), server_loop)

    # The move, from this thread (as a POST's), broadcast after its commit.
    game_services.play_move(game_id=game.pk, seat=state.to_move, action=view_for(state, state.to_move).legal[0],
                            expected_seq=game.seq)
    try:
        # A guard, not a timing: before the fix nothing woke the loop for an hour.
        line = waiting.result(timeout=60)
    except FutureTimeout:
        pytest.fail("the move's broadcast did not wake the stream")
    finally:
        if waiting.cancel():  # the stream still waits: stop it before closing it
            asyncio.run_coroutine_threadsafe(asyncio.sleep(0), server_loop).result(timeout=60)
        asyncio.run_coroutine_threadsafe(body.aclose(), server_loop).result(timeout=60)
        close_old_connections()
    assert b'"gameState"' in line
    assert f'"seq":{game.seq + 1}'.encode() in line


class CountingLayer(InMemoryChannelLayer):
    """The in-memory layer, counting the receives begun and those cancelled."""

    def __init__(self) -> None:
        super().__init__()
        self.receives = 0
        self.cancelled = 0

    async def receive(self, channel):
        self.receives += 1
        try:
            return await super().receive(channel)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise


def test_a_stream_keeps_one_receive_for_its_whole_life(monkeypatch, settings):
    """Its polls wait on a flag, never on a receive they would cancel: on Redis a
    cancelled receive drops its connection (one new connection every poll), on the
    pub/sub layer it unsubscribes the channel. Before, this stream began (and
    cancelled) a receive at each of its dozens of polls."""
    layer = CountingLayer()
    monkeypatch.setattr(streams, "get_channel_layer", lambda: layer)
    settings.API_STREAM_POLL_SECONDS = 0.01
    settings.API_STREAM_MAX_SECONDS = 0.5
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    table = ranked_table([alice, bob])

    async def read() -> bytes:
        response = await streams.game_stream(alice, table.pk, None)
        # Not a timing: without the cap the body never ends.
        return b"".join([chunk async for chunk in response.streaming_content])

    body = async_to_sync(read)()
    assert b'"gameFull"' in body
    assert (layer.receives, layer.cancelled) == (1, 1)
