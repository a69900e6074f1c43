"""Clients that play the real site like a browser would: a guest over HTTP
(session cookie, CSRF token, the home form) and a table websocket speaking
the protocol of docs/protocol.md (websockets 15).

    guest = Guest(base_url)
    table_id = guest.start_computer_game(preset="duel-block", players=2, target=0, level="easy")
    async with TableClient(base_url, table_id, guest.cookie) as client:
        await client.play_until(lambda c: c.game_over)
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken"\s+value="([^"]+)"')
TABLE_PATH = re.compile(r"/table/(\d+)/")
# After a "rate_limited" error: the server warns at most once a second and
# refills 20 tokens a second (games.socket.table).
RATE_LIMITED_PAUSE = 1.0


class Guest:
    """A browser without JavaScript: a cookie jar and urllib."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[int, str, str]:
        with self.opener.open(self.base_url + path, timeout=30) as response:
            return response.status, response.geturl(), response.read().decode()

    def post_form(self, path: str, fields: dict[str, str], *, form_page: str = "/") -> tuple[int, str, str]:
        """POST ``fields`` to ``path`` with the CSRF token of ``form_page``."""
        _status, _url, page = self.get(form_page)
        match = CSRF_INPUT.search(page)
        if match is None:
            raise AssertionError(f"no CSRF token on {form_page}")
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": match.group(1), **fields}).encode()
        request = urllib.request.Request(
            self.base_url + path, data=data, headers={"Referer": self.base_url + form_page}
        )
        with self.opener.open(request, timeout=30) as response:
            return response.status, response.geturl(), response.read().decode()

    def start_computer_game(
        self, *, preset: str = "duel-block", players: int = 2, target: int = 0, level: str = "easy", teams: bool = False
    ) -> int:
        """The home form "play the computer": returns the new table's id."""
        fields = {"preset": preset, "players": str(players), "target": str(target), "level": level}
        if teams:
            fields["teams"] = "on"
        _status, url, _page = self.post_form("/play/computer/", fields)
        match = TABLE_PATH.search(urllib.parse.urlparse(url).path)
        if match is None:
            raise AssertionError(f"/play/computer/ did not lead to a table: {url}")
        return int(match.group(1))

    @property
    def cookie(self) -> str:
        """The Cookie header of this guest (session and CSRF cookies)."""
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)

    @property
    def session_key(self) -> str:
        for cookie in self.jar:
            if cookie.name == "sessionid":
                return cookie.value
        raise AssertionError("no session cookie")


class TableClient:
    """One table socket. Keeps every frame, the last ``state``, and the events
    by ``seq``; reconnects to any base URL and catches up with ``sync``."""

    def __init__(self, base_url: str, table_id: int, cookie: str = "") -> None:
        self.base_url = base_url.rstrip("/")
        self.table_id = table_id
        self.cookie = cookie
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self.events: dict[int, dict[str, Any]] = {}
        self.state: dict[str, Any] | None = None
        self.game_over: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.close_codes: list[int | None] = []
        # The seq of the first state received: events before it were never sent here.
        self.joined_at: int | None = None

    # --- connection -----------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.state["seq"] if self.state else 0

    @property
    def seat(self) -> int | None:
        return self.state["view"]["seat"] if self.state else None

    async def connect(self, base_url: str | None = None, *, timeout: float = 15) -> None:
        """Open the socket (to ``base_url`` if given) and wait for a ``state``."""
        if base_url:
            self.base_url = base_url.rstrip("/")
        url = self.base_url.replace("http://", "ws://") + f"/ws/table/{self.table_id}/"
        self.ws = await connect(
            url,
            origin=self.base_url,
            additional_headers={"Cookie": self.cookie} if self.cookie else {},
            open_timeout=timeout,
            close_timeout=2,
            max_size=2**22,
        )
        had = self.seq
        await self.wait_for(lambda frame: frame["type"] == "state", timeout=timeout)
        if self.joined_at is None:
            self.joined_at = self.seq
        if had and self.seq < had:
            raise AssertionError(f"the server went back in time: seq {self.seq} < {had}")

    async def reconnect(self, base_url: str, *, timeout: float = 20) -> None:
        """Connect again (maybe to another process) and ``sync`` from the last seen seq."""
        await self.close()
        seen = self.seq
        deadline = time.monotonic() + timeout
        while True:
            try:
                await self.connect(base_url, timeout=max(1.0, deadline - time.monotonic()))
                break
            except (OSError, ConnectionClosed, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.3)
        await self.sync(seen)

    async def sync(self, after: int | None = None, *, timeout: float = 15) -> None:
        """Ask for everything after event ``after`` and wait for the ``state``."""
        marker = len(self.frames)
        await self.send({"type": "sync", "seq": self.seq if after is None else after})
        await self.wait_for(lambda frame: frame["type"] == "state", timeout=timeout, since=marker)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            self.ws = None

    async def __aenter__(self) -> TableClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- frames ----------------------------------------------------------------

    async def send(self, frame: dict[str, Any]) -> None:
        assert self.ws is not None, "not connected"
        await self.ws.send(json.dumps(frame))

    def _record(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        kind = frame.get("type")
        if kind == "state":
            if self.state is None or frame["seq"] >= self.state["seq"]:
                self.state = frame
        elif kind == "event":
            self.events[frame["seq"]] = frame
        elif kind == "game_over":
            self.game_over = frame
        elif kind == "error":
            self.errors.append(frame)

    async def receive(self, *, timeout: float) -> dict[str, Any]:
        assert self.ws is not None, "not connected"
        try:
            message = await asyncio.wait_for(self.ws.recv(), timeout)
        except ConnectionClosed:
            self.close_codes.append(self.ws.close_code)
            self.ws = None
            raise
        frame = json.loads(message)
        self._record(frame)
        return frame

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], *, timeout: float = 15, since: int | None = None
    ) -> dict[str, Any]:
        """The first frame (received after index ``since``, default: from now)
        that satisfies ``predicate``."""
        start = len(self.frames) if since is None else since
        for frame in self.frames[start:]:
            if predicate(frame):
                return frame
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no matching frame within {timeout} s; last: {self.frames[-3:]}")
            frame = await self.receive(timeout=remaining)
            if predicate(frame):
                return frame

    async def wait_seq(self, seq: int, *, timeout: float = 20) -> None:
        """Wait until the last ``state`` is at event ``seq`` or later."""
        if self.seq >= seq:
            return
        await self.wait_for(lambda frame: frame["type"] == "state" and frame["seq"] >= seq, timeout=timeout, since=0)

    # --- playing ---------------------------------------------------------------

    def my_turn(self) -> bool:
        return bool(self.state and self.state.get("legal"))

    async def act(self, choose: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None) -> int:
        """Send one legal action from the last state (the first one by default;
        a move before ``next_round``); returns the seq it was sent at."""
        assert self.state is not None, "no state yet"
        assert self.state["legal"], "not my turn"
        legal = self.state["legal"]
        moves = [action for action in legal if action.get("type") != "next_round"] or legal
        action = (choose or (lambda actions: actions[0]))(moves)
        seq = self.state["seq"]
        frame = dict(action) if action.get("type") == "next_round" else dict(action, seq=seq)
        await self.send(frame)
        return seq

    async def play_until(
        self, done: Callable[[TableClient], bool], *, timeout: float = 60, turn_timeout: float = 45
    ) -> None:
        """Play every turn of this seat (first legal action) until ``done``."""
        deadline = time.monotonic() + timeout
        while not done(self) and self.game_over is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"not done after {timeout} s at seq {self.seq}")
            if self.my_turn():
                sent_at = await self.act()
                answer = await self.wait_for(
                    lambda frame, sent_at=sent_at: (frame["type"] == "state" and frame["seq"] > sent_at)
                    or (frame["type"] == "error"),
                    timeout=turn_timeout,
                    since=0 if self.seq > sent_at else None,
                )
                if answer["type"] == "error" and answer.get("code") == "rate_limited":
                    # A computer-speed player outruns the socket's rate limit
                    # (20 frames/s): the move was dropped; wait for tokens, resend.
                    await asyncio.sleep(RATE_LIMITED_PAUSE)
            else:
                await self.wait_for(lambda frame: frame["type"] in {"state", "game_over"}, timeout=turn_timeout)
