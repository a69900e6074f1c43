"""games.live.broadcast: how a server process sends a table's news.

From a thread of a server process (the database thread of a move made
through a socket) a batch is handed to the server's event loop without
waiting; each table's batches still leave in the order they were
committed, and a send that fails is tried once more."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from games.live import broadcast


class SlowLayer:
    """A channel layer whose sends take a random few milliseconds."""

    def __init__(self, *, fail_first: int = 0) -> None:
        self.sent: list[tuple[str, int]] = []
        self.failures_left = fail_first
        self.rng = random.Random(4)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await asyncio.sleep(self.rng.uniform(0, 0.004))
        if self.failures_left:
            self.failures_left -= 1
            raise ConnectionError("the connection died")
        self.sent.append((group, message["seq"]))


@pytest.fixture
def server_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in its own thread, as the server's."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    broadcast.remember_server_loop(loop)
    try:
        yield loop
    finally:
        broadcast.remember_server_loop(None)  # type: ignore[arg-type]
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def batch(table_id: int, seq: int) -> list[tuple[str, dict[str, Any]]]:
    return [(broadcast.viewer_group(table_id, viewer), {"seq": seq}) for viewer in (None, 0, 1)]


def wait_for(check, timeout: float = 5) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_each_tables_events_leave_in_order_without_the_thread_waiting(server_loop, monkeypatch) -> None:
    layer = SlowLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    for seq in range(1, 21):
        for table_id in (7, 8):
            broadcast._send(batch(table_id, seq))
    assert len(layer.sent) < 120  # _send returned before the loop could send everything
    wait_for(lambda: len(layer.sent) == 120)
    for table_id in (7, 8):
        for viewer in (None, 0, 1):
            group = broadcast.viewer_group(table_id, viewer)
            assert [seq for g, seq in layer.sent if g == group] == list(range(1, 21))
    wait_for(lambda: not broadcast._outbox)  # nothing left behind


def test_a_failed_send_is_tried_once_more(server_loop, monkeypatch) -> None:
    layer = SlowLayer(fail_first=1)
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    broadcast._send(batch(3, 1))
    wait_for(lambda: {g for g, _seq in layer.sent} == {g for g, _m in batch(3, 1)})


def test_without_a_server_loop_the_batch_is_sent_before_returning(monkeypatch) -> None:
    layer = SlowLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(broadcast, "_server_loop", None)
    broadcast._send(batch(5, 1))
    assert sorted(layer.sent) == sorted((g, 1) for g, _m in batch(5, 1))
