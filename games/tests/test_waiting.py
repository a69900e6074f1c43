"""Waiting tables (games.play.services.waiting) and one game at a time
(games.play.services.seats): the one way every app seats people at a table that
fills before it starts, and the rule of the data that a member holds one game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from games.engine import rules_for
from games.models import Game, Seat, Table
from games.play import selectors, services
from games.play.services import waiting
from games.signals import waiting_seat_left, waiting_seat_taking, waiting_table_closed
from games.tests.factories import UserFactory
from games.tests.helpers import ranked_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]

PRIVATE = (Table.Kind.PRIVATE,)


def open_private(owner: Any, players: int = 3) -> Table:
    return waiting.open_table(
        kind=Table.Kind.PRIVATE,
        rules=rules_for("classic-draw", players=players, teams=False, target=50),
        preset="classic-draw",
        owner=owner,
        public=True,
    )


@pytest.fixture
def heard() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """What the waiting tables' signals told the apps above."""
    events: list[tuple[str, dict[str, Any]]] = []

    def listener(name: str) -> Any:
        def receive(sender: Any, **kwargs: Any) -> None:
            events.append((name, kwargs))

        return receive

    receivers = {signal: listener(name) for name, signal in (
        ("taking", waiting_seat_taking), ("left", waiting_seat_left), ("closed", waiting_table_closed)
    )}
    for signal, receive in receivers.items():
        signal.connect(receive, weak=False)
    yield events
    for signal, receive in receivers.items():
        signal.disconnect(receive)


def test_a_waiting_table_fills_seat_by_seat_and_starts_with_its_last_seat(heard) -> None:
    alice, bob = UserFactory(), UserFactory()
    table = open_private(alice)
    assert [seat.kind for seat in table.seats.order_by("number")] == ["human", "open", "open"]
    seat = waiting.take_seat(table_id=table.pk, user=bob, kinds=PRIVATE)
    assert (seat.number, seat.user) == (1, bob)
    assert waiting.take_seat(table_id=table.pk, user=bob, kinds=PRIVATE).number == 1  # twice: one seat
    assert [name for name, _kwargs in heard] == ["taking"]
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING
    waiting.seat_computer(table_id=table.pk, owner=alice, number=2, level="easy", kinds=PRIVATE)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert Game.objects.get(table=table).state is not None
    with pytest.raises(services.SeatRefused) as started:
        waiting.take_seat(table_id=table.pk, user=UserFactory(), kinds=PRIVATE)
    assert started.value.reason == "started"


def test_a_seat_is_refused_at_another_kind_of_table_and_to_anyone_but_the_owner() -> None:
    alice, bob = UserFactory(), UserFactory()
    table = open_private(alice, players=2)
    with pytest.raises(services.SeatRefused) as other_kind:
        waiting.take_seat(table_id=table.pk, user=bob, kinds=(Table.Kind.ROOM,))
    assert other_kind.value.reason == "no_table"
    with pytest.raises(services.SeatRefused) as not_owner:
        waiting.seat_computer(table_id=table.pk, owner=bob, number=1, level="easy", kinds=PRIVATE)
    assert not_owner.value.reason == "not_owner"
    with pytest.raises(services.SeatRefused):
        waiting.free_seat(table_id=table.pk, owner=alice, number=0, kinds=PRIVATE)  # the owner's own seat
    assert Seat.objects.get(table=table, number=1).kind == "open"


def test_a_receiver_refuses_a_seat_and_nothing_is_written() -> None:
    alice, bob = UserFactory(), UserFactory()
    table = open_private(alice)

    def refuse(sender: Any, **kwargs: Any) -> None:
        raise services.NotAllowed("no chips", reason="no_chips")

    waiting_seat_taking.connect(refuse, weak=False)
    try:
        with pytest.raises(services.NotAllowed):
            waiting.take_seat(table_id=table.pk, user=bob, kinds=PRIVATE)
    finally:
        waiting_seat_taking.disconnect(refuse)
    assert not Seat.objects.filter(user=bob).exists()
    assert selectors.current_table(bob.pk) is None


def test_leaving_gives_the_seat_back_and_the_owner_leaving_aborts_through_the_core(heard) -> None:
    alice, bob = UserFactory(), UserFactory()
    table = open_private(alice)
    waiting.take_seat(table_id=table.pk, user=bob, kinds=PRIVATE)
    left = waiting.leave_seat(table_id=table.pk, user=bob, kinds=PRIVATE)
    assert (left.closed, left.seat) == (False, 1)
    assert Seat.objects.get(table=table, number=1).kind == "open"
    assert selectors.current_table(bob.pk) is None
    assert waiting.leave_seat(table_id=table.pk, user=alice, kinds=PRIVATE).closed
    table.refresh_from_db()
    game = Game.objects.get(table=table)
    # Aborted as abort_game does: the table and its game finished now, no winner.
    assert table.status == Table.Status.ABORTED
    assert table.finished_at is not None
    assert game.finished_at == table.finished_at
    assert game.result == {
        "scores": None, "winner": None, "reason": "owner_left", "resigned": None, "rounds": None,
        "rounds_played": 0, "aborted": True,
    }
    assert [name for name, _kwargs in heard] == ["taking", "left", "closed"]
    assert selectors.current_table(alice.pk) is None
    assert not waiting.close_table(table_id=table.pk, reason="stale", kinds=PRIVATE)  # closed already


# --- One game at a time --------------------------------------------------------------


def test_a_member_at_a_table_is_refused_a_seat_at_another_with_its_address() -> None:
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    first = open_private(alice)
    waiting.take_seat(table_id=first.pk, user=bob, kinds=PRIVATE)
    second = open_private(carol)
    with pytest.raises(services.InGame) as refused:
        waiting.take_seat(table_id=second.pk, user=bob, kinds=PRIVATE)
    assert refused.value.code == "in_game"
    assert refused.value.table_id == first.pk
    assert refused.value.url == f"/table/{first.pk}/"
    assert f"table {first.pk}" in refused.value.message
    assert not Seat.objects.filter(table=second, user=bob).exists()  # nothing changed
    with pytest.raises(services.InGame):
        open_private(bob)  # nor may they open one
    assert Table.objects.count() == 2
    # Another's refusal names them, not their table.
    with pytest.raises(services.InGame) as named:
        ranked_table([carol, bob])
    assert named.value.table_id is None
    assert bob.username in named.value.message
    assert Table.objects.count() == 2


def test_the_database_refuses_a_second_game_whatever_the_code() -> None:
    alice, bob = UserFactory(), UserFactory()
    ranked_table([alice, bob])
    other = open_private(UserFactory())
    Seat.objects.filter(table=other, number=1).update(user=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(table=other, number=1).update(engaged=True)


def test_a_finished_game_a_computer_table_and_watching_hold_nobody() -> None:
    alice, bob = UserFactory(), UserFactory()
    table = ranked_table([alice, bob])
    assert selectors.current_table(alice.pk) == table
    services.create_computer_table(user=alice, preset="duel-block", players=2, teams=False, target=0, level="easy")
    services.resign(game_id=table.game.pk, seat=0)
    assert selectors.current_table(alice.pk) is None
    assert selectors.current_table(bob.pk) is None
    ranked_table([alice, bob])  # the next game


def test_a_private_table_that_started_with_one_person_and_computers_is_practice() -> None:
    alice = UserFactory()
    table = open_private(alice, players=2)
    assert selectors.current_table(alice.pk) == table  # waiting for a friend: held
    waiting.seat_computer(table_id=table.pk, owner=alice, number=1, level="easy", kinds=PRIVATE)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert selectors.current_table(alice.pk) is None  # like a computer table
    open_private(alice)


def test_a_stale_mark_of_a_table_no_longer_live_holds_nobody() -> None:
    alice, bob = UserFactory(), UserFactory()
    table = ranked_table([alice, bob])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ABORTED)  # by hand: the seat stays marked
    assert Seat.objects.filter(user=alice, engaged=True).exists()
    ranked_table([alice, bob])
    assert Seat.objects.filter(user=alice, engaged=True).count() == 1
