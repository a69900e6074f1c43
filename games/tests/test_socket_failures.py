"""Frames built to crash the parser, and failures inside a handler: the socket
answers with an error and lives on, and when it closes nothing is left behind
(presence rows, spectator counts). Both sockets share this (games.socket.base)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Presence
from games.socket import table as consumers
from games.socket.base import parse_frame
from games.tests.sockets import Socket, new_session
from games.tests.test_consumers import seated_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_queue")]

# About 2,000 characters: far under the size limit, deeper than the parser's stack.
DEEP = '{"type":"sync","x":' + "[" * 1000 + "]" * 1000 + "}"


@database_sync_to_async
def presence_rows(table_id: int) -> list[tuple[int | None, str]]:
    return list(Presence.objects.filter(table_id=table_id).values_list("seat", "channel_name"))


def test_the_parser_refuses_a_deep_frame_as_bad_json() -> None:
    from games.socket.base import FrameError

    assert len(DEEP) < 4096
    with pytest.raises(FrameError) as refused:
        parse_frame(DEEP, max_chars=4096)
    assert refused.value.reason == "json"


async def test_a_deeply_nested_frame_is_refused_and_the_socket_lives_on() -> None:
    table_id, _game_id, (p0, p1), _ = await seated_pair()
    watcher = Socket(table_id, session_key=await new_session())
    await watcher.connect()
    assert (await p0.until("spectators"))["count"] == 1
    for sock in (watcher, p0):
        await sock.send_text(DEEP)
        error = await sock.until("error")
        assert (error["code"], error["reason"]) == ("bad_frame", "json")
        await sock.send({"type": "ping"})
        assert (await sock.until("pong"))["type"] == "pong"
    assert len(await presence_rows(table_id)) == 3
    await watcher.close()
    assert (await p1.until("spectators", count=0))["count"] == 0
    await p0.close()
    # The closed sockets left no presence behind: the abandonment rules can run.
    assert [seat for seat, _name in await presence_rows(table_id)] == [1]
    await p1.close()


async def test_a_failing_handler_answers_an_error_and_closing_still_cleans_up(monkeypatch) -> None:
    table_id, _game_id, (p0, p1), _ = await seated_pair()
    watcher = Socket(table_id, session_key=await new_session())
    await watcher.connect()

    async def broken(self, content):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setitem(consumers.TableConsumer.handlers, "ping", broken)
    await watcher.send({"type": "ping"})
    error = await watcher.until("error")
    assert error["code"] == "server_error"
    await watcher.send({"type": "sync"})  # still served
    assert (await watcher.until("state"))["view"]["seat"] is None
    await watcher.close()
    assert (await p0.until("spectators", count=0))["count"] == 0
    assert sorted(seat for seat, _name in await presence_rows(table_id)) == [0, 1]
    for sock in (p0, p1):
        await sock.close()


async def test_a_failure_while_closing_still_runs_every_cleanup_step(monkeypatch) -> None:
    table_id, _game_id, (p0, p1), _ = await seated_pair()

    def failing(*args, **kwargs):
        raise RuntimeError("the cache is away")

    # The spectator count fails: the presence row must still go.
    watcher = Socket(table_id, session_key=await new_session())
    await watcher.connect()
    monkeypatch.setattr(consumers.TableConsumer, "_count_spectator", failing)
    await watcher.close()
    rows = await presence_rows(table_id)
    assert sorted(seat for seat, _name in rows) == [0, 1]
    for sock in (p0, p1):
        await sock.close()
