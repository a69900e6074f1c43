"""The table sockets share one cache handle (games.live.cache).

Django makes a cache handle per async context, and every websocket is one:
used from the sockets, ``django.core.cache.cache`` built a handle (with Redis,
a connection pool and an open connection) per socket."""

from __future__ import annotations

import pytest
from django.core.cache import caches

from games.live import cache as shared_cache
from games.tests.sockets import Socket, new_session
from games.tests.test_consumers import seated_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_queue")]


async def test_sockets_coming_and_going_make_one_cache_handle(monkeypatch) -> None:
    made = []
    create = caches.create_connection

    def counting(alias: str):
        handle = create(alias)
        made.append(handle)
        return handle

    monkeypatch.setattr(caches, "create_connection", counting)
    monkeypatch.setattr(shared_cache, "_handle", None)
    table_id, _game_id, (p0, p1), _ = await seated_pair()
    watchers = [Socket(table_id, session_key=await new_session()) for _ in range(3)]
    for count, watcher in enumerate(watchers, start=1):
        await watcher.connect()
        assert (await p0.until("spectators", count=count))["count"] == count
    for watcher in watchers:
        await watcher.close()
    assert (await p1.until("spectators", count=0))["count"] == 0
    for sock in (p0, p1):
        await sock.close()
    # Five sockets opened and closed (spectator counts, presence, the clock's
    # marks): one handle for all of them.
    assert len(made) == 1
