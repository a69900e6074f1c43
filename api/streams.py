"""The API's streams (docs/api.md): newline-delimited JSON, one object a
line, a blank keep-alive line every few seconds, served by Django's async
``StreamingHttpResponse`` under ASGI.

How a game stream learns of new events: it joins the channel layer group the
table websocket of its seat joins (games.live.broadcast), only as a wake-up,
and reads the move log by ``seq`` (api.selectors.game_lines) on each wake-up
and at least every ``API_STREAM_POLL_SECONDS``. The log is the truth: a move
is stored before it is streamed, a lost broadcast costs at most one poll, and
a stream resumed from a ``seq`` misses nothing.
"""

from __future__ import annotations

import asyncio
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
from games.models import Game, Table

logger = logging.getLogger(__name__)

NDJSON = "application/x-ndjson"


def keepalive_seconds() -> float:
    return float(getattr(settings, "API_KEEPALIVE_SECONDS", 5.0))


def poll_seconds() -> float:
    return float(getattr(settings, "API_STREAM_POLL_SECONDS", 2.0))


def event_poll_seconds() -> float:
    return float(getattr(settings, "API_EVENT_POLL_SECONDS", 1.0))


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

    async def lines() -> AsyncIterator[bytes]:
        last_sent = time.monotonic()
        try:
            yield encode(first)
            while not selectors.stream_ended(cursor):
                await _wake_up(layer, channel, poll_seconds())
                new = await sync_to_async(selectors.game_lines)(cursor)
                if new:
                    yield encode(new)
                    last_sent = time.monotonic()
                elif time.monotonic() - last_sent >= keepalive_seconds():
                    yield b"\n"
                    last_sent = time.monotonic()
        finally:
            if layer is not None:
                await layer.group_discard(group, channel)

    return response(lines())


async def _wake_up(layer: Any, channel: str, timeout: float) -> None:
    """Wait for the table's next broadcast, at most ``timeout`` seconds; then
    take whatever else is already waiting (one read of the log for them all)."""
    if layer is None:
        await asyncio.sleep(timeout)
        return
    try:
        await asyncio.wait_for(layer.receive(channel), timeout)
    except TimeoutError:
        return
    while True:
        try:
            await asyncio.wait_for(layer.receive(channel), 0.005)
        except TimeoutError:
            return


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
        """What changed since the last call: new or answered challenges, games started and finished."""
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
        live = (Table.Status.WAITING, Table.Status.PLAYING)
        for seat in selectors.seats_of(self.user_id, live_only=False, after_table=self.after_table, tables=self.tables):
            table = seat.table
            if seat.table_id not in self.tables:
                lines.append({"type": "gameStart", "game": selectors.game_object(table, seat)})
            if table.status in live:
                self.tables[seat.table_id] = table.status
            else:
                lines.append({"type": "gameFinish", "game": selectors.game_object(table, seat)})
                self.tables.pop(seat.table_id, None)
            self.after_table = max(self.after_table, seat.table_id)
        return lines


async def event_stream(user: User) -> StreamingHttpResponse:
    watch = EventWatch(user.pk)
    first = await sync_to_async(watch.first_lines)()

    async def lines() -> AsyncIterator[bytes]:
        yield encode(first) if first else b"\n"
        last_sent = time.monotonic()
        while True:
            await asyncio.sleep(event_poll_seconds())
            new = await sync_to_async(watch.next_lines)()
            if new:
                yield encode(new)
                last_sent = time.monotonic()
            elif time.monotonic() - last_sent >= keepalive_seconds():
                yield b"\n"
                last_sent = time.monotonic()

    return response(lines())


__all__ = ["ApiError", "event_stream", "game_stream"]
