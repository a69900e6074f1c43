"""The lobby websocket ``/ws/lobby/`` (INTERFACES.md section 6), and the
presence heartbeat shared with the table sockets.

Client -> server: ``{"type": "queue", "mode": ...}``, ``{"type": "leave"}``.
Server -> client: ``counts`` every few seconds, ``queued`` / ``left``,
``matched`` (also on connect while the member has a ranked game running),
``error`` (``login_required`` for guests, ``bad_mode``, ``in_game``,
``bad_frame``, ``rate_limited``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import periodic
from games import matchmaking
from games.consumers import socket_language
from games.modes import RANKED_MODES

MAX_FRAME_BYTES = 4096
# Frames per socket: a burst of RATE_BURST, then one per RATE_EVERY seconds.
RATE_BURST = 10
RATE_EVERY = 0.5


class PresenceMixin:
    """Keeps an ``accounts.Presence`` row alive while the socket is open (the
    "online" counter; at tables, whether a player is there)."""

    _presence_task: asyncio.Task | None = None

    def _visitor(self) -> tuple[int | None, str]:
        user = self.scope.get("user")
        session = self.scope.get("session")
        user_id = user.pk if user is not None and user.is_authenticated else None
        return user_id, getattr(session, "session_key", None) or ""

    async def presence_start(self, *, table_id: int | None = None, seat: int | None = None) -> None:
        user_id, session_key = self._visitor()
        fields = {
            "channel_name": self.channel_name,
            "user_id": user_id,
            "session_key": session_key,
            "table_id": table_id,
            "seat": seat,
        }
        await database_sync_to_async(periodic.touch_presence)(**fields)
        self._presence_task = asyncio.ensure_future(self._presence_beat(fields))

    async def _presence_beat(self, fields: dict[str, Any]) -> None:
        while True:
            await asyncio.sleep(periodic.PRESENCE_REFRESH)
            with contextlib.suppress(Exception):
                await database_sync_to_async(periodic.touch_presence)(**fields)

    async def presence_stop(self) -> None:
        if self._presence_task is not None:
            self._presence_task.cancel()
            self._presence_task = None
        await database_sync_to_async(periodic.drop_presence)(channel_name=self.channel_name)


class LobbyConsumer(PresenceMixin, AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.language = socket_language(self.scope)
        self.tokens = float(RATE_BURST)
        self.refilled = time.monotonic()
        await self.accept()
        await self.channel_layer.group_add(periodic.LOBBY_GROUP, self.channel_name)
        if self.user_id is not None:
            await self.channel_layer.group_add(matchmaking.user_group(self.user_id), self.channel_name)
        await self.presence_start()
        periodic.start_in_process_loop()
        await self.send_json(await database_sync_to_async(periodic.counts)())
        if self.user_id is not None:
            table = await database_sync_to_async(matchmaking.live_ranked_table)(self.user_id)
            if table is not None:
                await self.send_json({**matchmaking.matched_frame(table), "resume": True})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(periodic.LOBBY_GROUP, self.channel_name)
        if self.user_id is not None:
            await self.channel_layer.group_discard(matchmaking.user_group(self.user_id), self.channel_name)
            await database_sync_to_async(matchmaking.leave_queue)(
                user_id=self.user_id, channel_name=self.channel_name
            )
        await self.presence_stop()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._allow():
            await self.error("rate_limited", _("Too many messages: slow down."))
            return
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            await self.error("bad_frame", _("Send one JSON object per text frame."))
            return
        try:
            content = await self.decode_json(text_data)
        except ValueError:
            await self.error("bad_frame", _("Send one JSON object per text frame."))
            return
        if not isinstance(content, dict):
            await self.error("bad_frame", _("Send one JSON object per text frame."))
            return
        await self.receive_json(content)

    def _allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.refilled) / RATE_EVERY)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("type")
        if kind == "queue":
            await self.join(content.get("mode"))
        elif kind == "leave":
            await self.leave()
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.error("bad_frame", _("Unknown message type."))

    async def join(self, mode: Any) -> None:
        if self.user_id is None:
            await self.error("login_required", _("Log in to play ranked games."))
            return
        if not isinstance(mode, str) or mode not in RANKED_MODES:
            await self.error("bad_mode", _("Unknown ranked mode."))
            return
        table = await database_sync_to_async(matchmaking.live_ranked_table)(self.user_id)
        if table is not None:
            await self.error("in_game", _("Finish your ranked game first."), url=f"/table/{table.pk}/")
            return
        entry = await database_sync_to_async(self._join)(mode)
        await self.send_json({"type": "queued", "mode": mode, "rating": round(entry.rating)})
        # Match at once when possible; the periodic tick widens the windows later.
        await database_sync_to_async(matchmaking.run_matcher)()
        await database_sync_to_async(periodic.broadcast_counts)()

    def _join(self, mode: str) -> Any:
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.get(pk=self.user_id)
        return matchmaking.join_queue(user=user, mode=mode, channel_name=self.channel_name)

    async def leave(self) -> None:
        if self.user_id is not None:
            await database_sync_to_async(matchmaking.leave_queue)(user_id=self.user_id)
        await self.send_json({"type": "left"})
        await database_sync_to_async(periodic.broadcast_counts)()

    async def error(self, code: str, message: Any, **extra: Any) -> None:
        with translation.override(self.language):
            text = str(message)
        await self.send_json({"type": "error", "code": code, "message": text, **extra})

    async def lobby_frame(self, event: dict[str, Any]) -> None:
        """A frame for the lobby (counts) or for this member (matched)."""
        await self.send_json(event["frame"])
