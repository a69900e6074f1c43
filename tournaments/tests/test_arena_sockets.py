"""Eight members play a short arena to its end over the websockets, as their
browsers would (docs/tournaments.md, "Tests"): each lobby socket (``/ws/lobby/``)
hears of its member's table (``matched``), the member plays it on the table
socket (``/ws/table/<id>/``) and is sent on to the next one as soon as the
game ends; the tournament page's socket (``/ws/tournament/<id>/``) follows the
standings to the end, and the podium and the ratings are right."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts.models import RatedGame, Rating
from games.tests.sockets import PathSocket as Socket
from games.tests.sockets import login_session, play_first_legal
from tournaments import services
from tournaments.models import GameSeat, Player, Score, Tournament, TournamentGame

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.slow]

MEMBERS = 8
WAVES = 2


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.LOBBY_TICK_IN_PROCESS = False
    settings.GAMES_DISPATCH = "queue"
    settings.GAMES_SWEEP_SECONDS = 0


def arena() -> Tournament:
    users = list(get_user_model().objects.order_by("pk"))
    tournament = services.create_tournament(
        user=users[0], format="arena", mode="duel-block", minutes=30, starts_in=0, rated=True
    )
    for user in users:
        services.join(tournament=tournament, user=user)
    return tournament


async def current_tables(lobbies: list[Socket]) -> dict[int, list[int]]:
    """The table each member was last sent to (their lobby socket's last
    ``matched``), by table: the members seated at it."""
    for lobby in lobbies:
        await lobby.drain()
    tables: dict[int, list[int]] = {}
    for member, lobby in enumerate(lobbies):
        last = [frame for frame in lobby.frames if frame["type"] == "matched"]
        if last:
            tables.setdefault(last[-1]["table"], []).append(member)
    return tables


async def play_table(table_id: int, keys: list[str]) -> dict[str, Any]:
    """The table's members connect to it and play to its end (the first legal
    action each turn; a round after the first is asked for by a player);
    returns the ``game_over`` frame."""
    players: dict[int, Socket] = {}
    last: dict[int, dict[str, Any]] = {}
    for key in keys:
        socket = Socket(f"/ws/table/{table_id}/", key)
        await socket.connect()
        state = await socket.until("state")
        players[state["view"]["seat"]] = socket
        last[state["view"]["seat"]] = state
    assert sorted(players) == [0, 1]
    try:
        return await play_first_legal(players, last)
    finally:
        for socket in players.values():
            await socket.close()


async def last_standings(socket: Socket) -> dict[str, Any]:
    await socket.drain(quiet=0.3)
    return next(frame for frame in reversed(socket.frames) if frame["type"] == "standings")


def database_standings(tournament: Tournament) -> dict[str, Any]:
    tournament.refresh_from_db()
    players = Player.objects.filter(tournament=tournament).select_related("user")
    return {
        "status": tournament.status,
        "final": tournament.final_standings,
        "totals": {player.user.username: (player.score, player.games) for player in players},
        "order": [player.user.username for player in players.order_by("-score", "-wins", "joined_at", "pk")],
        "games": {
            player.user.username: GameSeat.objects.filter(player=player, game__scores__player=player).count()
            for player in players
        },
        "scored": {
            game.table_id: game.scores.count()
            for game in TournamentGame.objects.filter(tournament=tournament).prefetch_related("scores")
        },
        "finished": TournamentGame.objects.filter(tournament=tournament, table__status="finished").count(),
        "rated": RatedGame.objects.filter(game__table__tournament_game__tournament=tournament).count(),
        "ratings": {
            rating.user.username: rating.games
            for rating in Rating.objects.filter(mode="duel-block").select_related("user")
        },
        "points": sum(Score.objects.filter(game__tournament=tournament).values_list("points", flat=True)),
    }


async def test_eight_members_play_a_short_arena_to_its_end_over_the_sockets() -> None:
    names = [f"player{index}" for index in range(MEMBERS)]
    keys = [await database_sync_to_async(login_session)(name) for name in names]
    tournament = await database_sync_to_async(arena)()
    lobbies = [Socket("/ws/lobby/", key) for key in keys]
    for lobby in lobbies:
        await lobby.connect()
        await lobby.until("counts")
    page = Socket(f"/ws/tournament/{tournament.pk}/", keys[0])
    await page.connect()
    opening = await page.until("standings")
    assert opening["status"] == "created"
    assert opening["players"] == MEMBERS

    # The tick starts the arena and pairs everyone: each lobby socket is sent to its table.
    report = await database_sync_to_async(services.tick)(now=timezone.now() + timedelta(seconds=1))
    assert report["started"] == 1
    assert report["paired"] == MEMBERS // 2
    for lobby in lobbies:
        matched = await lobby.until("matched")
        assert matched["tournament"] == tournament.pk
        assert matched["url"] == f"/table/{matched['table']}/"
    tables = await current_tables(lobbies)
    assert sorted(member for members in tables.values() for member in members) == list(range(MEMBERS))

    # A couple of waves: each table played to its end over the table sockets;
    # its players are sent on to their next table at once.
    played: set[int] = set()
    for _wave in range(WAVES):
        for table_id, members in (await current_tables(lobbies)).items():
            if table_id in played:
                continue  # a deal over at its opening: already over and scored
            over = await play_table(table_id, [keys[member] for member in members])
            assert over["type"] == "game_over"
            played.add(table_id)
        standings = await last_standings(page)
        facts = await database_sync_to_async(database_standings)(tournament)
        # Stored before announced: the last frame is what the database holds.
        assert {row["player"]: row["score"] for row in standings["top"]} == {
            name: score for name, (score, _games) in facts["totals"].items()
        }
        assert [row["player"] for row in standings["top"]] == facts["order"]
        assert standings["me"] == facts["order"].index("player0") + 1
    tables = await current_tables(lobbies)
    assert len(tables) == MEMBERS // 2
    assert not set(tables) & played  # everyone is at a new table

    # Time is up: the games still playing finish within the grace and count.
    await database_sync_to_async(
        lambda: Tournament.objects.filter(pk=tournament.pk).update(
            ends_at=timezone.now() - timedelta(seconds=1)
        )
    )()
    assert (await database_sync_to_async(services.tick)())["finished"] == 0
    for table_id, members in tables.items():
        await play_table(table_id, [keys[member] for member in members])
        played.add(table_id)
    assert (await database_sync_to_async(services.tick)())["finished"] == 1
    assert (await database_sync_to_async(services.tick)())["finished"] == 0  # the end is computed once
    for lobby in lobbies:
        await lobby.drain()
    assert await current_tables(lobbies) == tables  # nobody paired after the end

    facts = await database_sync_to_async(database_standings)(tournament)
    assert facts["status"] == "finished"
    # Every game entered the standings once.
    assert facts["finished"] == len(facts["scored"]) >= len(played)
    assert set(facts["scored"].values()) == {2}
    # The page's socket got the final standings: the frozen rows, in order.
    final = await last_standings(page)
    assert final["status"] == "finished"
    assert [(row["rank"], row["player"], row["score"], row["games"]) for row in final["top"]] == [
        (row["rank"], row["player"], row["score"], row["games"]) for row in facts["final"]
    ]
    assert [row["player"] for row in facts["final"]] == facts["order"]
    assert {row["player"]: (row["score"], row["games"]) for row in facts["final"]} == facts["totals"]
    assert sum(row["score"] for row in facts["final"]) == facts["points"]
    assert all(row["games"] == facts["games"][row["player"]] >= WAVES + 1 for row in facts["final"])
    # The podium: the top three of the frozen standings, on the page.
    html = await database_sync_to_async(
        lambda: Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    )()
    shown = re.findall(r'data-podium-place="(\d)"><strong>([^<]+)</strong>', html)
    assert shown == [(str(row["rank"]), row["player"]) for row in facts["final"][:3]]
    # Rated like any ranked game of the mode: each member's rating counts their games.
    assert facts["rated"] == facts["finished"]
    assert facts["ratings"] == {row["player"]: row["games"] for row in facts["final"]}

    for socket in (page, *lobbies):
        await socket.close()


async def test_a_deal_over_at_its_opening_sends_its_players_to_their_next_table_only(monkeypatch) -> None:
    """About one duel-block deal in 110 blocks at its automatic opening: the game
    ends as its table is created, its end is scored and its players paired again
    (and told) before that table's own ``matched`` frame would go out. Each
    member's last ``matched`` frame must be the table they play next, never the
    one already over (the pages follow the last frame: docs/tournaments.md)."""
    import itertools

    from games.engine import new_game
    from games.fairplay.fairness import new_seed
    from games.play.modes import RANKED_MODES
    from games.play.services import tables as table_services

    rules = RANKED_MODES["duel-block"].rules
    instant = next(
        seed for seed in (f"opening-{n}" for n in itertools.count()) if new_game(rules, seed).round_over
    )
    dealt = itertools.count()
    monkeypatch.setattr(table_services, "new_seed", lambda: instant if next(dealt) == 0 else new_seed())
    keys = [await database_sync_to_async(login_session)(f"member{index}") for index in range(4)]
    tournament = await database_sync_to_async(arena)()
    lobbies = [Socket("/ws/lobby/", key) for key in keys]
    for lobby in lobbies:
        await lobby.connect()
        await lobby.until("counts")
    assert (await database_sync_to_async(services.tick)(now=timezone.now() + timedelta(seconds=1)))[
        "paired"
    ] == 2
    tables = await current_tables(lobbies)

    def live_tables() -> dict[int, list[str]]:
        return {
            game.table_id: sorted(game.table.seats.values_list("user__username", flat=True))
            for game in TournamentGame.objects.filter(
                tournament=tournament, table__status__in=["waiting", "playing"]
            ).select_related("table")
        }

    live = await database_sync_to_async(live_tables)()
    assert len(live) == 2
    assert {
        table: sorted(f"member{member}" for member in members) for table, members in tables.items()
    } == live
    for socket in lobbies:
        await socket.close()
