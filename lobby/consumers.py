"""The lobby websocket ``/ws/lobby/`` (docs/protocol.md).

Client -> server: ``{"type": "queue", "mode": ...}`` (with ``"room": slug``:
a room's queue, docs/rooms.md), ``{"type": "leave"}``, ``{"type": "ping"}``.
Server -> client: ``counts`` every few seconds, ``queued`` / ``left``,
``matched`` (also on connect while the member has a ranked or room game
running, with ``"resume": true``),
``invited``, ``chips`` (a room game settled), ``error`` (``login_required``
for guests, ``bad_mode``, ``bad_room``, ``cannot_sit``, ``in_game``,
``queue_ban`` with ``until``: kept out for leaving games, docs/moderation.md,
``bad_frame``, ``rate_limited``, ``server_error``).
Frame parsing, the rate limit and failures: games.socket.base.JsonSocket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC
from functools import partial
from typing import Any

from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from games.live import presence
from games.live import services as live_services
from games.models import Table
from games.play.modes import RANKED_MODES
from games.socket.base import JsonSocket, socket_language
from lobby import broadcast, periodic, room_tables, rooms, selectors, services
from lobby.models import QueueEntry

logger = logging.getLogger(__name__)


class LobbyConsumer(JsonSocket):
    # A person's pace: a burst of 10 frames, then two a second.
    rate_per_second = 2.0
    rate_burst = 10.0
    user_id: int | None = None
    _presence_task: asyncio.Task[None] | None = None
    _groups: tuple[str, ...] = ()

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.language = socket_language(self.scope)
        await self.accept()
        groups = [broadcast.LOBBY_GROUP]
        if self.user_id is not None:
            groups.append(broadcast.user_group(self.user_id))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self._groups = tuple(groups)
        await self._presence_start()
        periodic.start_in_process_loop()
        await self.send_json(await database_sync_to_async(selectors.counts)())
        if self.user_id is not None:
            frame = await database_sync_to_async(selectors.resume_frame)(self.user_id)
            if frame is not None:
                await self.send_json(frame)

    async def cleanup(self) -> None:
        """Leave the groups, the queue (if this socket queued) and the
        presence rows, each step even if another failed."""
        steps: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
            (group, partial(self.channel_layer.group_discard, group, self.channel_name)) for group in self._groups
        ]
        if self.user_id is not None:
            user_id = self.user_id
            steps.append(
                (
                    "queue",
                    lambda: database_sync_to_async(services.leave_queue)(
                        user_id=user_id, channel_name=self.channel_name
                    ),
                )
            )
        steps.append(("presence", self._presence_stop))
        for name, step in steps:
            try:
                await step()
            except Exception:
                logger.exception("closing a lobby socket: %s failed", name)

    # -- presence: the "online" counter ---------------------------------------------

    def _presence_fields(self) -> dict[str, Any]:
        session = self.scope.get("session")
        return {
            "channel_name": self.channel_name,
            "user_id": self.user_id,
            "session_key": getattr(session, "session_key", None) or "",
        }

    async def _presence_start(self) -> None:
        fields = self._presence_fields()
        await database_sync_to_async(live_services.touch_presence)(**fields)
        self._presence_task = asyncio.ensure_future(self._presence_beat(fields))

    async def _presence_beat(self, fields: dict[str, Any]) -> None:
        while True:
            await asyncio.sleep(presence.PRESENCE_REFRESH)
            with contextlib.suppress(Exception):
                await database_sync_to_async(live_services.touch_presence)(**fields)

    async def _presence_stop(self) -> None:
        if self._presence_task is not None:
            self._presence_task.cancel()
            self._presence_task = None
        await database_sync_to_async(live_services.drop_presence)(channel_name=self.channel_name)

    # -- frames in ------------------------------------------------------------------

    async def handle_queue(self, content: dict[str, Any]) -> None:
        mode = content.get("mode")
        if self.user_id is None:
            await self.send_error("login_required", _("Log in to play ranked games."))
            return
        if "room" in content:
            if not await self._in_game():
                await self._queue_room(content.get("room"), mode)
            return
        if not isinstance(mode, str) or mode not in RANKED_MODES:
            await self.send_error("bad_mode", _("Unknown ranked mode."))
            return
        if await self._in_game():
            return
        try:
            entry = await database_sync_to_async(self._join)(mode)
        except services.QueueRefused as error:
            await self.send_error("bot_not_allowed", str(error))
            return
        except room_tables.QueueBanned as error:
            await self._send_queue_ban(error)
            return
        await self.send_json({"type": "queued", "mode": mode, "rating": round(entry.rating)})
        # Match at once when possible; the periodic tick widens the windows later.
        await database_sync_to_async(services.run_matcher)()
        await database_sync_to_async(services.broadcast_counts)()

    async def _in_game(self) -> bool:
        """Refuse a queue (``in_game``, with the table's address) to a member
        who holds a seat at a live table with other people (a ranked, room or
        private game, or such a table waiting for players): one game at a time."""
        table, url = await database_sync_to_async(self._game_in_progress)()
        if table is None:
            return False
        await self.send_error("in_game", _("Finish your game first."), url=url)
        return True

    async def _send_queue_ban(self, error: room_tables.QueueBanned) -> None:
        """Fair conduct: why and until when (``until``, ISO 8601 in UTC)."""
        await self.send_error("queue_ban", error.message, until=error.until.astimezone(UTC).isoformat())

    def _game_in_progress(self) -> tuple[Table | None, str]:
        table = selectors.game_in_progress(self.user_id or 0)
        return table, "" if table is None else selectors.table_address(table)

    async def _queue_room(self, room: Any, mode: Any) -> None:
        """``{"type": "queue", "room": slug, "mode": key}``: the room's queue
        of that mode (docs/rooms.md); refused with the reason when the
        member lacks the level or the chips."""
        if not isinstance(room, str) or room not in rooms.ROOMS:
            await self.send_error("bad_room", _("This room does not exist."))
            return
        if not isinstance(mode, str) or mode not in RANKED_MODES:
            await self.send_error("bad_mode", _("Unknown ranked mode."))
            return
        try:
            entry = await database_sync_to_async(self._join_room)(room, mode)
        except room_tables.QueueBanned as error:
            await self._send_queue_ban(error)
            return
        except room_tables.RoomError as error:
            await self.send_error("cannot_sit", error.message)
            return
        await self.send_json({"type": "queued", "room": room, "mode": mode, "rating": round(entry.rating)})
        await database_sync_to_async(room_tables.run_room_matcher)()

    def _join_room(self, room: str, mode: str) -> QueueEntry:
        assert self.user_id is not None  # a guest was refused before (handle_queue)
        user = get_user_model().objects.get(pk=self.user_id)
        return room_tables.join_room_queue(user=user, room=room, mode=mode, channel_name=self.channel_name)

    def _join(self, mode: str) -> QueueEntry:
        assert self.user_id is not None  # a guest was refused before (handle_queue)
        user = get_user_model().objects.get(pk=self.user_id)
        return services.join_queue(user=user, mode=mode, channel_name=self.channel_name)

    async def handle_leave(self, content: dict[str, Any]) -> None:
        if self.user_id is not None:
            await database_sync_to_async(services.leave_queue)(user_id=self.user_id)
        await self.send_json({"type": "left"})
        await database_sync_to_async(services.broadcast_counts)()

    async def handle_ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})

    handlers: Mapping[str, Callable[[LobbyConsumer, dict[str, Any]], Awaitable[None]]] = {
        "queue": handle_queue,
        "leave": handle_leave,
        "ping": handle_ping,
    }

    # -- group messages (lobby.broadcast) ---------------------------------------------

    async def lobby_frame(self, event: dict[str, Any]) -> None:
        """A frame for the lobby (counts) or for this member (matched, invited)."""
        await self.send_json(event["frame"])
