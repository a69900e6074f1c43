"""Test helpers: table websockets through the real ASGI application (origin
check, sessions, auth), as a browser opens them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore

from config.asgi import application


def new_session_key() -> str:
    """A saved guest session (what a browser gets from its first page)."""
    session = SessionStore()
    session.create()
    return session.session_key


class Socket:
    """A websocket client of ``/ws/table/<id>/`` with the frames it received.

    ``receive`` and ``drain`` pass over the notices other apps add (``NOISE``,
    e.g. the turn clock), which stay in ``frames``."""

    NOISE = frozenset({"clock"})

    def __init__(self, table_id: int, *, session_key: str | None = None, language: str | None = None) -> None:
        headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
        cookies = []
        if session_key:
            cookies.append(f"{settings.SESSION_COOKIE_NAME}={session_key}")
        if language:
            cookies.append(f"{settings.LANGUAGE_COOKIE_NAME}={language}")
        if cookies:
            headers.append((b"cookie", "; ".join(cookies).encode()))
        self.communicator = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)
        self.frames: list[dict[str, Any]] = []

    async def connect(self) -> dict[str, Any]:
        connected, _subprotocol = await self.communicator.connect(timeout=5)
        assert connected
        return await self.receive()

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        while True:
            frame = await self.communicator.receive_json_from(timeout=timeout)
            self.frames.append(frame)
            if frame.get("type") not in self.NOISE:
                return frame

    async def until(self, kind: str, *, timeout: float = 10, **match: Any) -> dict[str, Any]:
        """Receive until a frame of type ``kind`` (with the given fields)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            frame = await self.receive(timeout=max(0.01, deadline - loop.time()))
            if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def drain(self, quiet: float = 0.3) -> list[dict[str, Any]]:
        """Every frame until none comes for ``quiet`` seconds. (A timed-out
        ``receive`` would cancel the application: wait with ``receive_nothing``.)"""
        got = []
        while not await self.communicator.receive_nothing(timeout=quiet):
            frame = await self.communicator.receive_json_from()
            self.frames.append(frame)
            if frame.get("type") not in self.NOISE:
                got.append(frame)
        return got

    async def send(self, frame: dict[str, Any]) -> None:
        await self.communicator.send_json_to(frame)

    async def send_text(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)

    async def send_bytes(self, data: bytes) -> None:
        await self.communicator.send_to(bytes_data=data)

    async def nothing_more(self, wait: float = 0.3) -> bool:
        return not await self.drain(wait)

    async def close(self) -> None:
        await self.communicator.disconnect()


def dumps(frame: dict[str, Any]) -> str:
    return json.dumps(frame)


new_session = database_sync_to_async(new_session_key)
