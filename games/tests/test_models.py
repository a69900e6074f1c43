"""The game tables' invariants that the database keeps."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.models import Game, Move, Seat
from games.tests.factories import ComputerSeatFactory, GuestSeatFactory, MemberSeatFactory, make_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def test_a_move_number_is_used_once_per_game() -> None:
    game = Game.objects.get(table=make_table())
    Move.objects.create(game=game, seq=1, seat=0, kind=Move.Kind.PASS)
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(game=game, seq=1, seat=1, kind=Move.Kind.PASS)
    other = Game.objects.get(table=make_table())
    Move.objects.create(game=other, seq=1, seat=0, kind=Move.Kind.PASS)  # another game: fine


def test_a_seat_number_is_used_once_per_table() -> None:
    table = make_table()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, number=0, level="easy")


def test_seat_kinds() -> None:
    table = make_table(
        players=4,
        seats=[MemberSeatFactory.build(), GuestSeatFactory.build(), ComputerSeatFactory.build(), GuestSeatFactory.build()],
        start=False,
    )
    Seat.objects.filter(table=table, number=3).update(guest_key="")
    kinds = [(s.kind, s.is_human, s.is_computer) for s in table.seats.order_by("number")]
    assert kinds == [
        ("human", True, False),
        ("human", True, False),
        ("computer", False, True),
        ("open", False, False),
    ]


def test_the_seed_is_not_in_the_commitment_and_the_state_is_cached() -> None:
    game = Game.objects.get(table=make_table())
    assert game.seed not in game.commitment
    assert game.state["format"] == 1
    assert game.seq == 0
    assert not game.finished
    assert game.table.ranked is False
    assert game.table.live
