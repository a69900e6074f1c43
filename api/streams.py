"""The API's streams (docs/api.md): newline-delimited JSON, one object a
line, a blank keep-alive line every few seconds, served by Django's async
``StreamingHttpResponse`` under ASGI.

How a game stream learns of new events: it joins the channel layer group the
table websocket of its seat joins (games.live.broadcast), only as a wake-up,
and tells the broadcast module the server's event loop (as a table socket
does): a move posted in a request's thread is then broadcast on that loop,
whose in-memory layer queues the streams wait on (``asyncio.Queue`` is not
thread-safe: a put from another thread's loop does not wake the stream). It
reads the move log by ``seq`` (api.selectors.game_lines) on each wake-up
and at least every ``API_STREAM_POLL_SECONDS``. The log is the truth: a move
is stored before it is streamed, a lost broadcast costs at most one poll, and
a stream resumed from a ``seq`` misses nothing.

One receive per stream (``Wakeups``), cancelled once when the stream ends: the
stream waits on an ``asyncio.Event`` the receive sets, never on the receive
itself. A receive cancelled at every poll cost, on the Redis layer, a new
connection each time (redis-py drops a connection whose blocking read is
cancelled), on the pub/sub layer an unsubscription (messages in between were
missed); and they are the suspect (not proven) of a stream that once outlived its
``API_STREAM_MAX_SECONDS`` by a minute (CI, Redis, the machine loaded).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Iterable
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse

from api import selectors
from api.services import ApiError, seated
from games.live import broadcast
from games.models import Game

logger = logging.getLogger(__name__)

NDJSON = "application/x-ndjson"


def keepalive_seconds() -> float:
    return float(getattr(settings, "API_KEEPALIVE_SECONDS", 5.0))


def poll_seconds() -> float:
    return float(getattr(settings, "API_STREAM_POLL_SECONDS", 2.0))


def event_poll_seconds() -> float:
    return float(getattr(settings, "API_EVENT_POLL_SECONDS", 1.0))


def max_seconds() -> float:
    """How long a stream lasts at most (``API_STREAM_MAX_SECONDS``; 0, the default: no
    limit). A game stream cut so ends before its game: the client resumes it from the
    last ``seq`` it read, and opens the event stream again (it starts with what is in
    progress)."""
    return float(getattr(settings, "API_STREAM_MAX_SECONDS", 0) or 0)


class Lifetime:
    """A stream's deadline (``max_seconds``): ``wait`` is how long it may wait now."""

    def __init__(self) -> None:
        cap = max_seconds()
        self.deadline = time.monotonic() + cap if cap > 0 else None

    def over(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def wait(self, seconds: float) -> float:
        if self.deadline is None:
            return seconds
        return max(0.0, min(seconds, self.deadline - time.monotonic()))


def encode(lines: Iterable[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(line, separators=(",", ":")).encode() + b"\n" for line in lines)


def response(body: AsyncIterator[bytes]) -> StreamingHttpResponse:
    answer = StreamingHttpResponse(body, content_type=NDJSON)
    answer["Cache-Control"] = "no-cache"
    answer["X-Accel-Buffering"] = "no"  # a proxy in front must not hold the lines back
    return answer


# -- a game ----------------------------------------------------------------------------


def _open_game(user: User, table_id: int) -> tuple[int, int]:
    where = seated(user=user, table_id=table_id)
    return where.game_id, where.seat


def _start(game_id: int, seat: int, seq: int | None) -> tuple[list[dict[str, Any]], selectors.GameCursor]:
    game = Game.objects.select_related("table").get(pk=game_id)
    if seq is None:
        line, cursor = selectors.game_full(game, seat=seat)
        return [line], cursor
    cursor = selectors.cursor_at(game, seat=seat, seq=seq)
    return selectors.game_lines(cursor), cursor


async def game_stream(user: User, table_id: int, seq: int | None) -> StreamingHttpResponse:
    """``gameFull`` (or, resumed from ``seq``, the events after it), then a
    ``gameState`` line after every event, until the game is over."""
    broadcast.remember_server_loop(asyncio.get_running_loop())
    game_id, seat = await sync_to_async(_open_game)(user, table_id)  # ApiError before the stream starts
    layer = get_channel_layer()
    channel = await layer.new_channel() if layer is not None else ""
    group = broadcast.viewer_group(table_id, seat)
    if layer is not None:
        # Joined before the first read: nothing falls between the two.
        await layer.group_add(group, channel)
    try:
        first, cursor = await sync_to_async(_start)(game_id, seat, seq)
    except BaseException:
        if layer is not None:
            await layer.group_discard(group, channel)
        raise

    lifetime = Lifetime()

    async def lines() -> AsyncIterator[bytes]:
        last_sent = time.monotonic()
        wakeups = Wakeups(layer, channel)
        try:
            yield encode(first)
            while not selectors.stream_ended(cursor) and not lifetime.over():
                await wakeups.wait(lifetime.wait(poll_seconds()))
                new = await sync_to_async(selectors.game_lines)(cursor)
                if new:
                    yield encode(new)
                    last_sent = time.monotonic()
                elif time.monotonic() - last_sent >= keepalive_seconds():
                    yield b"\n"
                    last_sent = time.monotonic()
        finally:
            await wakeups.close()
            if layer is not None:
                await layer.group_discard(group, channel)

    return response(lines())


class Wakeups:
    """The table's broadcasts on a stream's channel, as a flag: one receive runs
    for the whole stream and sets ``event``; the stream waits on the event (a wait
    given up at its timeout costs nothing) and clears it before each read of the
    log, so a broadcast that comes during the read wakes the next wait at once."""

    CLOSE_SECONDS = 1.0
    """How long ``close`` waits for the cancelled receive to end (it is left to end on its own after)."""

    def __init__(self, layer: Any, channel: str) -> None:
        self.event = asyncio.Event()
        self.task = asyncio.ensure_future(self._listen(layer, channel)) if layer is not None else None

    async def _listen(self, layer: Any, channel: str) -> None:
        try:
            while True:
                await layer.receive(channel)
                self.event.set()
        except asyncio.CancelledError:
            raise
        except Exception:
            # The stream goes on with its polls (the log is the truth).
            logger.warning("a game stream stopped hearing its table's broadcasts", exc_info=True)

    async def wait(self, timeout: float) -> None:
        """Until a broadcast comes, at most ``timeout`` seconds (a sleep without a layer)."""
        if self.task is None:
            await asyncio.sleep(timeout)
            return
        if timeout > 0 and not self.event.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.event.wait(), timeout)
        self.event.clear()

    async def close(self) -> None:
        if self.task is None:
            return
        self.task.cancel()
        await asyncio.wait({self.task}, timeout=self.CLOSE_SECONDS)


# -- a member's events -----------------------------------------------------------------


class EventWatch:
    """What an event stream has announced: the tables and challenges it knows."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.tables: dict[int, str] = {}
        self.challenges: dict[int, str] = {}
        self.after_table = 0
        self.after_challenge = 0

    def first_lines(self) -> list[dict[str, Any]]:
        """The games and challenges in progress."""
        self.after_table = selectors.last_table_id()
        lines: list[dict[str, Any]] = []
        for seat in selectors.seats_of(self.user_id, live_only=True):
            self.tables[seat.table_id] = seat.table.status
            lines.append({"type": "gameStart", "game": selectors.game_object(seat.table, seat)})
        for challenge in selectors.challenges_of(self.user_id, open_only=False):
            self.after_challenge = max(self.after_challenge, challenge.pk)
            if challenge.status == challenge.Status.CREATED:
                self.challenges[challenge.pk] = challenge.status
                lines.append({"type": "challenge", "challenge": selectors.challenge_object(challenge)})
        return lines

    def next_lines(self) -> list[dict[str, Any]]:
        """What changed since the last call: new or answered challenges, games started and finished
        (a seat at any live table not yet announced, whatever the table's age)."""
        lines: list[dict[str, Any]] = []
        for challenge in selectors.challenges_of(self.user_id, open_only=False):
            known = self.challenges.get(challenge.pk)
            if challenge.pk <= self.after_challenge and known is None:
                continue
            if known != challenge.status:
                lines.append({"type": "challenge", "challenge": selectors.challenge_object(challenge)})
            if challenge.status == challenge.Status.CREATED:
                self.challenges[challenge.pk] = challenge.status
            else:
                self.challenges.pop(challenge.pk, None)
            self.after_challenge = max(self.after_challenge, challenge.pk)
        for seat in selectors.seats_of(self.user_id, live_only=False, after_table=self.after_table, tables=self.tables):
            table = seat.table
            if seat.table_id not in self.tables:
                lines.append({"type": "gameStart", "game": selectors.game_object(table, seat)})
            if table.status in selectors.LIVE:
                self.tables[seat.table_id] = table.status
            else:
                lines.append({"type": "gameFinish", "game": selectors.game_object(table, seat)})
                self.tables.pop(seat.table_id, None)
            self.after_table = max(self.after_table, seat.table_id)
        return lines


async def event_stream(user: User) -> StreamingHttpResponse:
    broadcast.remember_server_loop(asyncio.get_running_loop())
    watch = EventWatch(user.pk)
    first = await sync_to_async(watch.first_lines)()

    lifetime = Lifetime()

    async def lines() -> AsyncIterator[bytes]:
        yield encode(first) if first else b"\n"
        last_sent = time.monotonic()
        while not lifetime.over():
            await asyncio.sleep(lifetime.wait(event_poll_seconds()))
            new = await sync_to_async(watch.next_lines)()
            if new:
                yield encode(new)
                last_sent = time.monotonic()
            elif time.monotonic() - last_sent >= keepalive_seconds():
                yield b"\n"
                last_sent = time.monotonic()

    return response(lines())


__all__ = ["ApiError", "event_stream", "game_stream"]
