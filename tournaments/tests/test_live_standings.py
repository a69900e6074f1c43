"""The live standings of a tournament page: the ``standings`` frame on
``/ws/tournament/<id>/`` on connect and after each scored game (stored before
announced), the viewer's own rank and the ranks around it, under 4 KB."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.models import Table
from games.tests.helpers import play_out
from games.verifier import arena
from lobby import broadcast
from tournaments import selectors, services
from tournaments.models import Player, Tournament
from tournaments.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_lobby(monkeypatch):
    monkeypatch.setattr(broadcast, "send_to_users", lambda user_ids, frame: None)


def make_players(names):
    users = [
        get_user_model().objects.create_user(username=name, email=f"{index}@example.com", password="secret-pass-123")
        for index, name in enumerate(names)
    ]
    tournament = services.create_tournament(user=users[0], format="arena", mode="duel-block", minutes=30, starts_in=0)
    for user in users:
        services.join(tournament=tournament, user=user)
    return tournament, users


async def connect(path, user=None):
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user or AnonymousUser()
    connected, code = await communicator.connect()
    return communicator, connected, code


async def last_standings(communicator):
    """The last standings frame sent so far (a re-paired deal over at its automatic
    opening is scored at once too, and announced after the game the test played)."""
    frame = await next_standings(communicator)
    while not await communicator.receive_nothing(timeout=0.5):
        frame = await next_standings(communicator)
    return frame


async def next_standings(communicator, timeout=10):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await communicator.receive_json_from(timeout=max(0.01, deadline - loop.time()))
        if frame["type"] == "standings":
            return frame


@pytest.mark.asyncio
async def test_the_page_socket_gets_the_standings_after_each_scored_game():
    tournament, users = await database_sync_to_async(make_players)(["ana", "ben", "cyd", "dan"])
    await database_sync_to_async(services.tick)(now=timezone.now() + timedelta(seconds=1))
    ana, connected, _code = await connect(f"/ws/tournament/{tournament.pk}/", users[0])
    assert connected
    guest, connected, _code = await connect(f"/ws/tournament/{tournament.pk}/")
    assert connected
    first = await next_standings(ana)
    assert first["tournament"] == tournament.pk
    assert first["players"] == 4
    assert first["status"] == "started"
    assert [row["rank"] for row in first["top"]] == [1, 2, 3, 4]
    assert first["me"] == next(row["rank"] for row in first["top"] if row["player"] == "ana")
    assert (await next_standings(guest))["me"] is None

    def play_anas_table():
        table = Table.objects.filter(
            tournament_game__tournament=tournament, status__in=selectors.LIVE, seats__user=users[0]
        ).first()
        if table is not None:  # else a deal over at its opening: ana's game is already scored
            play_out(table, seed=3)

    await database_sync_to_async(play_anas_table)()
    frame = await last_standings(ana)
    # Stored before announced: the frame is what the database holds.
    scores = await database_sync_to_async(
        lambda: {player.user.username: player.score for player in Player.objects.select_related("user")}
    )()
    assert {row["player"]: row["score"] for row in frame["top"]} == scores
    assert sum(row["games"] for row in frame["top"]) >= 2
    ranks = {row["player"]: row["rank"] for row in frame["top"]}
    assert frame["me"] == ranks["ana"]
    assert (await last_standings(guest))["top"] == frame["top"]
    await ana.disconnect()
    await guest.disconnect()


@pytest.mark.asyncio
async def test_a_private_tournament_socket_needs_its_key():
    def private():
        owner = get_user_model().objects.create_user(username="owner", email="o@example.com", password="x-pass-123")
        return services.create_tournament(
            user=owner, format="arena", mode="duel-block", minutes=5, starts_in=5, private=True
        )

    tournament = await database_sync_to_async(private)()
    communicator, connected, code = await connect(f"/ws/tournament/{tournament.pk}/")
    assert not connected
    assert code == 4404
    communicator, connected, _code = await connect(f"/ws/tournament/{tournament.pk}/?key={tournament.token}")
    assert connected
    assert (await next_standings(communicator))["players"] == 0
    await communicator.disconnect()


def test_the_frame_carries_the_top_ten_and_the_ranks_around_mine_under_4_kb():
    # Forty players with the longest names (150 characters of three bytes each).
    names = [f"{index:02d}" + "語" * 148 for index in range(40)]
    tournament, users = make_players(names)
    for index, user in enumerate(users):
        Player.objects.filter(tournament=tournament, user=user).update(score=400 - index, wins=99, games=999, streak=3)
    viewer = users[24]  # rank 25
    frame = selectors.standings_frame(tournament, viewer.pk, streak_after=arena.STREAK_AFTER)
    assert [row["rank"] for row in frame["top"]] == list(range(1, 11))
    assert frame["me"] == 25
    assert [row["rank"] for row in frame["around"]] == [23, 24, 25, 26, 27]
    assert frame["around"][2]["player"].startswith("24")
    assert frame["around"][2]["fire"] is True
    assert all(len(row["player"]) <= selectors.NAME_CHARS for row in frame["top"] + frame["around"])
    # As the socket sends it (json.dumps, non-ASCII escaped) and as UTF-8.
    assert len(json.dumps(frame).encode()) < 4096
    assert len(json.dumps(frame, ensure_ascii=False).encode()) < 4096
    # Near the top, the rows around are those below the top only.
    near = selectors.standings_frame(tournament, users[9].pk, streak_after=arena.STREAK_AFTER)
    assert near["me"] == 10
    assert [row["rank"] for row in near["around"]] == [11, 12]


def test_only_viewers_whose_rows_moved_read_them_again():
    assert selectors.touches(None, 5, 6)
    assert selectors.touches(10, 12, 40)
    assert selectors.touches(10, 1, 8)
    assert not selectors.touches(10, 13, 40)
    assert not selectors.touches(10, 1, 7)


def test_the_end_of_the_tournament_is_announced(monkeypatch):
    sent = []
    monkeypatch.setattr(services, "announce_standings", lambda **kwargs: sent.append(kwargs))
    tournament, _users = make_players(["ana", "ben"])
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.STARTED, ends_at=timezone.now() - timedelta(seconds=1)
    )
    assert services.finish(tournament=tournament)
    assert sent == [{"tournament_id": tournament.pk, "ranks": (1, 2)}]


def test_a_rank_counted_in_the_index_is_the_rank_of_the_ordered_standings():
    tournament, users = make_players([f"p{index}" for index in range(30)])
    for index, user in enumerate(users):
        # Many ties on points and on wins: the order of joining decides.
        Player.objects.filter(tournament=tournament, user=user).update(score=index % 4, wins=index % 3)
    ordered = list(selectors.ranked_players(tournament))
    keys = [selectors.standing_key(player) for player in ordered]
    assert selectors.ranks_of(tournament.pk, keys) == list(range(1, 31))
    assert [selectors.rank_of(player) for player in ordered[:3]] == [1, 2, 3]
    assert selectors.ranks_of(tournament.pk, []) == []
