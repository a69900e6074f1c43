"""Test helpers: table websockets through the real ASGI application (origin
check, sessions, auth), as a browser opens them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from config.asgi import application


def new_session_key() -> str:
    """A saved guest session (what a browser gets from its first page)."""
    session = SessionStore()
    session.create()
    return session.session_key


def login_session(username: str) -> str:
    """A new member signed in: their session key (what their browser's cookie holds)."""
    user = get_user_model().objects.create_user(username=username, password="secret-pass-123")
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


class PathSocket:
    """A websocket client of any path of the site (``/ws/lobby/``,
    ``/ws/tournament/<id>/``...) with every frame it received in ``frames``.

    ``receive``, ``until`` and ``drain`` pass over the frame types in
    ``NOISE`` (none here), which stay in ``frames``."""

    NOISE: frozenset[str] = frozenset()

    def __init__(self, path: str, session_key: str | None = None, *, language: str | None = None) -> None:
        headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
        cookies = []
        if session_key:
            cookies.append(f"{settings.SESSION_COOKIE_NAME}={session_key}")
        if language:
            cookies.append(f"{settings.LANGUAGE_COOKIE_NAME}={language}")
        if cookies:
            headers.append((b"cookie", "; ".join(cookies).encode()))
        self.communicator = WebsocketCommunicator(application, path, headers=headers)
        self.frames: list[dict[str, Any]] = []

    async def connect(self) -> None:
        connected, _subprotocol = await self.communicator.connect(timeout=5)
        assert connected

    async def receive(self, timeout: float = 10) -> dict[str, Any]:
        while True:
            frame = await self.communicator.receive_json_from(timeout=timeout)
            self.frames.append(frame)
            if frame.get("type") not in self.NOISE:
                return frame

    async def until(self, kind: str, *, timeout: float = 10, **match: Any) -> dict[str, Any]:
        """Receive until a frame of type ``kind`` (with the given fields)."""
        return (await self.through(kind, timeout=timeout, **match))[-1]

    async def through(self, kind: str, *, timeout: float = 10, **match: Any) -> list[dict[str, Any]]:
        """Every frame (but ``NOISE``) up to and including the first of type ``kind``
        with the given fields: what a fixed ``drain`` window would miss on a slow machine."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        got = []
        while True:
            frame = await self.receive(timeout=max(0.01, deadline - loop.time()))
            got.append(frame)
            if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return got

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


class Socket(PathSocket):
    """A websocket client of ``/ws/table/<id>/``; ``connect`` returns its first
    frame. The notices other apps add (``NOISE``, e.g. the turn clock) are
    passed over."""

    NOISE = frozenset({"clock"})

    def __init__(self, table_id: int, *, session_key: str | None = None, language: str | None = None) -> None:
        super().__init__(f"/ws/table/{table_id}/", session_key, language=language)

    async def connect(self) -> dict[str, Any]:  # type: ignore[override]
        await super().connect()
        return await self.receive(timeout=5)

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        return await super().receive(timeout)


async def play_first_legal(
    players: dict[int, PathSocket], last: dict[int, dict[str, Any]], *, turns: int = 3000
) -> dict[str, Any]:
    """The players at one table (seat -> their table socket) each send the
    first of their legal actions whenever they have any (a round after the
    first asked for by a player), until the game is over: returns the
    ``game_over`` frame. ``last`` holds each seat's last ``state`` frame and is
    kept up to date."""
    for _ in range(turns):
        for seat, socket in players.items():
            over = next((frame for frame in reversed(socket.frames) if frame["type"] == "game_over"), None)
            if over is not None:
                return over
            state = last[seat]
            if state["view"] and state["view"]["game_over"]:
                return await socket.until("game_over")
            if state["legal"]:
                action = state["legal"][0]
                await socket.send({**action, "seq": state["seq"]})
                while True:
                    frame = await socket.receive()
                    if frame["type"] == "state":
                        last[seat] = frame
                        break
                    if frame["type"] == "error":
                        # Both players may ask for the next round: the second
                        # is late (stale). Anything else is a bug.
                        assert frame["code"] == "stale", frame
                        assert action["type"] == "next_round", frame
                        await socket.send({"type": "sync", "seq": state["seq"]})
        for seat, socket in players.items():
            # Every frame sent meanwhile (the other players' moves, the end).
            while not await socket.communicator.receive_nothing(timeout=0.02):
                frame = await socket.receive()
                if frame["type"] == "state":
                    last[seat] = frame
    raise AssertionError("the game did not end")


def dumps(frame: dict[str, Any]) -> str:
    return json.dumps(frame)


new_session = database_sync_to_async(new_session_key)
