"""The lobby socket resends a member's table on connect (the ``matched``
frame with ``"resume": true``); for a tournament's table it names the
tournament (``lobby.hooks.matched_frame_parts``, answered by the
tournaments), so that the tournament page and its tables' pages follow it
(follow.js ignores a ``matched`` frame of another tournament or of none).
An unrated tournament's table, a private table that the lobby itself does
not resend, is resent too (``lobby.hooks.resumable_table``, answered by the
tournaments), until it is over; another private table is not."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games.models import Table
from games.play.modes import RANKED_MODES
from games.play.services import SeatSpec, create_table
from lobby import broadcast
from lobby import selectors as lobby_selectors
from lobby.routing import websocket_urlpatterns
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_lobby(monkeypatch):
    monkeypatch.setattr(broadcast, "send_to_users", lambda user_ids, frame: None)


def rated_arena_table(make_member, *, rated=True):
    members = [make_member(f"resume{index}") for index in range(2)]
    tournament = services.create_tournament(
        user=members[0], format="arena", mode="duel-draw", minutes=30, starts_in=0, rated=rated
    )
    for member in members:
        services.join(tournament=tournament, user=member)
    services.tick(now=timezone.now() + timedelta(seconds=1))
    table = Table.objects.get(tournament_game__tournament=tournament)
    return tournament, table, members


def test_the_matched_frame_of_a_tournament_table_names_the_tournament(make_member):
    tournament, table, _members = rated_arena_table(make_member)
    frame = lobby_selectors.matched_frame(table)
    assert frame["tournament"] == tournament.pk
    assert (frame["type"], frame["table"], frame["url"]) == ("matched", table.pk, f"/table/{table.pk}/")
    other = make_member("ranked")
    lone = make_member("ranked2")
    spec = RANKED_MODES["duel-draw"]
    ranked = create_table(
        kind=Table.Kind.RANKED,
        rules=spec.rules,
        preset=spec.preset,
        seats=[SeatSpec(user=other), SeatSpec(user=lone)],
        public=True,
        mode=spec.key,
    )
    assert "tournament" not in lobby_selectors.matched_frame(ranked)


@pytest.mark.asyncio
async def test_the_lobby_socket_resends_the_table_with_its_tournament(make_member):
    tournament, table, members = await database_sync_to_async(rated_arena_table)(make_member)
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    communicator.scope["user"] = members[1]
    connected, _code = await communicator.connect()
    assert connected
    try:
        frames = []
        while not await communicator.receive_nothing(timeout=1):
            frames.append(await communicator.receive_json_from())
        resumed = [frame for frame in frames if frame.get("type") == "matched"]
        assert resumed == [
            {
                "type": "matched",
                "table": table.pk,
                "url": f"/table/{table.pk}/",
                "mode": "duel-draw",
                "tournament": tournament.pk,
                "resume": True,
            }
        ]
    finally:
        await communicator.disconnect()


def test_an_unrated_tournament_table_is_resent_with_its_tournament_until_it_is_over(make_member):
    tournament, table, members = rated_arena_table(make_member, rated=False)
    assert table.kind == Table.Kind.PRIVATE
    for member in members:
        assert lobby_selectors.resume_frame(member.pk) == {
            "type": "matched",
            "table": table.pk,
            "url": f"/table/{table.pk}/",
            "mode": "",
            "tournament": tournament.pk,
            "resume": True,
        }
    # (so is it the game that keeps them from queueing elsewhere)
    assert lobby_selectors.game_in_progress(members[0].pk) == table
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert lobby_selectors.resume_frame(members[0].pk) is None


def test_a_duplicate_table_against_the_computer_is_resent(make_member):
    members = [make_member(f"solo{index}") for index in range(3)]
    tournament = services.create_tournament(
        user=members[0], format="duplicate", mode="duel-block", minutes=5, rounds=1, starts_in=0, rated=True
    )
    for member in members:
        services.join(tournament=tournament, user=member)
    services.tick(now=tournament.starts_at + timedelta(seconds=1))
    alone = Table.objects.get(tournament_game__tournament=tournament, tournament_game__computer="medium")
    assert alone.kind == Table.Kind.PRIVATE
    player = alone.seats.exclude(user=None).get().user_id
    frame = lobby_selectors.resume_frame(player)
    assert frame is not None
    assert (frame["table"], frame["tournament"], frame["resume"]) == (alone.pk, tournament.pk, True)


def test_another_private_table_is_still_not_resent(make_member):
    ana, ben = make_member("privana"), make_member("privben")
    spec = RANKED_MODES["duel-draw"]
    create_table(
        kind=Table.Kind.PRIVATE,
        rules=spec.rules,
        preset=spec.preset,
        seats=[SeatSpec(user=ana), SeatSpec(user=ben)],
        public=False,
    )
    assert lobby_selectors.resume_frame(ana.pk) is None
