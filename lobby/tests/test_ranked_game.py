"""End to end over websockets, through the real ASGI application (origin
check, session cookies, auth): two members queue in the same mode, are
matched, play the ranked game to the end on their table sockets while a
spectator watches, and both ratings change."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from accounts import ratings
from accounts.models import Rating, RatingChange
from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.LOBBY_TICK_IN_PROCESS = False
    settings.GAMES_DISPATCH = "queue"
    settings.GAMES_SWEEP_SECONDS = 0


def login_session(username: str) -> str:
    user = get_user_model().objects.create_user(username=username, password="secret-pass-123")
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


class Socket:
    def __init__(self, path: str, session_key: str | None = None) -> None:
        headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
        if session_key:
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_key}".encode()))
        self.communicator = WebsocketCommunicator(application, path, headers=headers)
        self.frames: list[dict[str, Any]] = []

    async def connect(self) -> None:
        connected, _ = await self.communicator.connect(timeout=5)
        assert connected

    async def receive(self, timeout: float = 10) -> dict[str, Any]:
        frame = await self.communicator.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def until(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            frame = await self.receive(timeout=max(0.01, deadline - loop.time()))
            if frame["type"] == kind:
                return frame

    async def drain(self, quiet: float = 0.2) -> None:
        while not await self.communicator.receive_nothing(timeout=quiet):
            await self.receive()

    async def send(self, frame: dict[str, Any]) -> None:
        await self.communicator.send_json_to(frame)

    async def close(self) -> None:
        await self.communicator.disconnect()


async def play_to_the_end(players: dict[int, Socket], last: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Each player sends the first of its legal actions when it has any, until
    game over; ``last`` holds each seat's last state frame."""
    for _ in range(2000):
        for seat, socket in players.items():
            state = last[seat]
            if state["view"] and state["view"]["game_over"]:
                over = next((f for f in reversed(socket.frames) if f["type"] == "game_over"), None)
                if over is None:
                    over = await socket.until("game_over")
                return over
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
            # Take every frame sent meanwhile (the other players' moves).
            while not await socket.communicator.receive_nothing(timeout=0.05):
                frame = await socket.receive()
                if frame["type"] == "state":
                    last[seat] = frame
    raise AssertionError("the game did not end")


def hidden_tiles_in(frame: dict[str, Any]) -> list[list[int]]:
    """Tiles a spectator's frame shows that are not public."""
    if frame["type"] == "state" and frame["view"]:
        return list(frame["view"]["hand"])
    if frame["type"] == "event" and frame["action"] == "draw":
        return [frame["tile"]] if "tile" in frame else []
    return []


async def test_two_members_are_matched_play_a_ranked_game_and_both_ratings_change() -> None:
    keys = [await database_sync_to_async(login_session)(name) for name in ("alice", "bob")]
    lobbies = [Socket("/ws/lobby/", key) for key in keys]
    for lobby in lobbies:
        await lobby.connect()
        await lobby.until("counts")
    for lobby in lobbies:
        await lobby.send({"type": "queue", "mode": "duel-draw"})
    matched = [await lobby.until("matched") for lobby in lobbies]
    table_id = matched[0]["table"]
    assert matched[1]["table"] == table_id
    assert matched[0]["url"] == f"/table/{table_id}/"

    spectator = Socket(f"/ws/table/{table_id}/")
    await spectator.connect()
    players: dict[int, Socket] = {}
    last: dict[int, dict[str, Any]] = {}
    for key in keys:
        socket = Socket(f"/ws/table/{table_id}/", key)
        await socket.connect()
        state = await socket.until("state")
        seat = state["view"]["seat"]
        assert seat in (0, 1)
        players[seat], last[seat] = socket, state
    assert sorted(players) == [0, 1]

    # Both play to the end; rounds after the first are asked for by a player.
    for _round in range(40):
        over = await play_to_the_end(players, last)
        if over["type"] == "game_over":
            break
    assert over["type"] == "game_over"

    def changes() -> dict[str, tuple[float, float, int]]:
        return {r.user.username: (r.mu, r.sigma, r.games) for r in Rating.objects.select_related("user")}

    for _ in range(50):  # the rating runs just after the commit
        after = await database_sync_to_async(changes)()
        if len(after) == 2:
            break
        await asyncio.sleep(0.1)
    assert set(after) == {"alice", "bob"}
    for mu, sigma, games in after.values():
        assert games == 1
        assert (mu, sigma) != (ratings.MU, ratings.SIGMA)
    assert await database_sync_to_async(RatingChange.objects.count)() == 2
    # The players are told their new ratings on the table socket.
    for socket in players.values():
        notice = next((f for f in socket.frames if f["type"] == "ratings"), None) or await socket.until(
            "ratings"
        )
        assert {change["user"] for change in notice["changes"]} == {"alice", "bob"}

    # The spectator saw the game but never a hidden tile.
    await spectator.drain()
    assert any(frame["type"] == "game_over" for frame in spectator.frames)
    assert all(not hidden_tiles_in(frame) for frame in spectator.frames), (
        "a spectator frame showed a hidden tile"
    )
    assert all(frame["view"]["seat"] is None for frame in spectator.frames if frame["type"] == "state")
    for socket in (*players.values(), spectator, *lobbies):
        await socket.close()


async def test_a_player_in_another_tab_is_their_seat_not_a_spectator() -> None:
    keys = [await database_sync_to_async(login_session)(name) for name in ("carol", "dave")]
    lobbies = [Socket("/ws/lobby/", key) for key in keys]
    for lobby in lobbies:
        await lobby.connect()
        await lobby.send({"type": "queue", "mode": "duel-block"})
    table_id = (await lobbies[0].until("matched"))["table"]
    first, second = Socket(f"/ws/table/{table_id}/", keys[0]), Socket(f"/ws/table/{table_id}/", keys[0])
    await first.connect()
    await second.connect()
    one, two = await first.until("state"), await second.until("state")
    assert one["view"]["seat"] == two["view"]["seat"] is not None
    assert one["view"]["hand"] == two["view"]["hand"]
    watcher = Socket(f"/ws/table/{table_id}/")
    await watcher.connect()
    watched = await watcher.until("state")
    assert watched["view"]["seat"] is None
    assert watched["view"]["hand"] == []
    for socket in (first, second, watcher, *lobbies):
        await socket.close()
