"""A player is never seated at two tournament tables at once: the one who
plays the computer in a duplicate round (one person at the table) is held
by that game, so an arena's wave does not seat them at a second table
(regression: such a seat was not marked as their game)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Seat, Table
from games.play.modes import RANKED_MODES
from games.play.services import InGame, SeatSpec, create_table
from games.tests.helpers import play_out
from tournaments import selectors, services
from tournaments.models import GameSeat, Player, TournamentGame

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_lobby_frames(lobby_frames):
    """No lobby socket listens here: the frames are kept (tournaments/tests/conftest.py)."""


def test_the_player_against_the_computer_is_not_paired_in_an_arena(make_member):
    members = [make_member(f"single{index}") for index in range(3)]
    other = make_member("arenaonly")
    duplicate = services.create_tournament(
        user=members[0], format="duplicate", mode="duel-draw", minutes=10, rounds=1, starts_in=0, rated=True
    )
    for member in members:
        services.join(tournament=duplicate, user=member)
    services.tick(now=duplicate.starts_at + timedelta(seconds=1))
    computer_game = TournamentGame.objects.get(tournament=duplicate, computer="medium")
    alone = GameSeat.objects.get(game=computer_game).player.user
    table = computer_game.table
    table.refresh_from_db()
    assert table.live
    # The same member joins an arena with one other player: not free, so not paired.
    arena = services.create_tournament(
        user=other, format="arena", mode="duel-block", minutes=30, starts_in=0, rated=False
    )
    services.join(tournament=arena, user=alone)
    services.join(tournament=arena, user=other)
    assert [player.user for player in selectors.free_players(arena)] == [other]
    services.tick(now=arena.starts_at + timedelta(seconds=1))
    assert not TournamentGame.objects.filter(tournament=arena).exists()

    # The person's seat at the computer's table is their game.
    assert Seat.objects.get(table=table, user=alone).engaged
    spec = RANKED_MODES["duel-block"]
    with pytest.raises(InGame):
        create_table(
            kind=Table.Kind.PRIVATE,
            rules=spec.rules,
            preset=spec.preset,
            seats=[SeatSpec(user=alone), SeatSpec(user=other)],
            public=False,
        )

    # Their duplicate game over, they are free and paired in the arena.
    if table.status != Table.Status.FINISHED:
        play_out(table, seed=3)
    assert not Seat.objects.get(table=table, user=alone).engaged
    services.tick(now=arena.starts_at + timedelta(seconds=2))
    arena_game = TournamentGame.objects.get(tournament=arena)
    assert {seat.player.user for seat in GameSeat.objects.filter(game=arena_game)} == {alone, other}
    assert Player.objects.get(tournament=arena, user=alone).games == 0  # playing, not yet scored


def test_a_held_seat_against_the_computer_needs_a_game_kind_and_a_start(make_member):
    member = make_member("practice")
    spec = RANKED_MODES["duel-block"]
    rules = spec.rules
    # A computer table never holds its player, even when asked to.
    table = create_table(
        kind=Table.Kind.COMPUTER,
        rules=rules,
        preset=spec.preset,
        seats=[SeatSpec(user=member), SeatSpec(level="medium")],
        public=False,
        hold_seats=True,
    )
    assert not Seat.objects.get(table=table, user=member).engaged
    # Without the flag a private table against the computer is practice (not held).
    table = create_table(
        kind=Table.Kind.PRIVATE,
        rules=rules,
        preset=spec.preset,
        seats=[SeatSpec(user=member), SeatSpec(level="medium")],
        public=False,
    )
    assert not Seat.objects.get(table=table, user=member).engaged
    with pytest.raises(ValueError):
        create_table(
            kind=Table.Kind.PRIVATE,
            rules=rules,
            preset=spec.preset,
            seats=[SeatSpec(user=member), SeatSpec(level="medium")],
            public=False,
            start=False,
            hold_seats=True,
        )
