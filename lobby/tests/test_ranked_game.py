"""End to end over websockets, through the real ASGI application (origin
check, session cookies, auth): two members queue in the same mode, are
matched, play the ranked game to the end on their table sockets while a
spectator watches, and both ratings change."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts import ratings
from accounts.models import Rating, RatingChange
from games.tests.sockets import PathSocket as Socket
from games.tests.sockets import login_session, play_first_legal

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.LOBBY_TICK_IN_PROCESS = False
    settings.GAMES_DISPATCH = "queue"
    settings.GAMES_SWEEP_SECONDS = 0


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
        over = await play_first_legal(players, last)
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
