"""Chips under concurrency, on PostgreSQL (real row locks): one member
joining two tables at once cannot stake the same chips twice; a settlement
delivered twice at the same moment pays once; two settlements of one winner
at the same moment cannot both fit under the cap on new accounts."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Seat
from games.play import services as game_services
from games.signals import game_finished
from games.tests.helpers import play_past_the_opening
from lobby import chips, receivers, room_tables, rooms
from lobby.models import ChipEntry, ChipWallet, RoomTable

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql_only(settings) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises writers; threads share its test database badly)")
    settings.LOBBY_TICK_IN_PROCESS = False
    settings.GAMES_DISPATCH = "queue"


def at_once(*calls: Callable[[], Any]) -> tuple[list[Any], list[BaseException]]:
    """Run the calls in threads released together; their results and errors."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = []
    errors: list[BaseException] = []

    def run(call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results.append(call())
        except BaseException as error:  # reported to the test
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors


def test_one_member_joining_two_tables_at_once_cannot_stake_the_same_chips_twice() -> None:
    User = get_user_model()
    staff = User.objects.create_user(username="staff", password="x")
    for attempt in range(5):
        owners = [User.objects.create_user(username=f"owner{attempt}-{n}", password="x") for n in range(2)]
        player = User.objects.create_user(username=f"player{attempt}", password="x")
        # Enough for one stake of the passport room (20), not for two.
        chips.admin_entry(user_id=player.pk, amount=-970, note="test", created_by=staff)
        tables = [room_tables.open_table(owner=owner, room="passport", kind="duel", target=0) for owner in owners]
        results, errors = at_once(
            *(lambda table=table: room_tables.join_table(table_id=table.pk, user=player) for table in tables)
        )
        assert len(results) == 1, errors
        assert len(errors) == 1
        assert isinstance(errors[0], room_tables.RoomError)
        assert errors[0].reason == "no_chips"
        assert Seat.objects.filter(user=player).count() == 1
        assert ChipWallet.objects.get(user=player).balance == 10
        assert ChipEntry.objects.filter(user=player, reason=ChipEntry.Reason.STAKE).count() == 1
    assert chips.check_wallets() == []
    assert chips.totals().balanced


def test_a_settlement_delivered_twice_at_once_pays_once() -> None:
    User = get_user_model()
    for attempt in range(5):
        alice = User.objects.create_user(username=f"alice{attempt}", password="x")
        bob = User.objects.create_user(username=f"bob{attempt}", password="x")
        table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
        room_tables.join_table(table_id=table.pk, user=bob)
        play_past_the_opening(table)  # a game played (an instant resignation is an abort)
        # The end-of-game signal is not heard here: the two deliveries below are.
        game_finished.disconnect(dispatch_uid="lobby.settle_room")
        try:
            game_services.resign(game_id=table.game.pk, seat=1)
        finally:
            game_finished.connect(receivers.settle_room_game, dispatch_uid="lobby.settle_room")
        assert RoomTable.objects.get(pk=table.pk).settled_at is None
        # The end of the game delivered twice at the same moment (a redelivered task, the tick).
        results, errors = at_once(
            lambda table=table: room_tables.settle(table_id=table.pk),
            lambda table=table: room_tables.settle(table_id=table.pk),
        )
        assert errors == []
        assert sorted(results) == [False, True]
        assert ChipWallet.objects.get(user=alice).balance == 1018
        assert ChipWallet.objects.get(user=bob).balance == 980
        assert ChipEntry.objects.filter(game=table.game, reason="payout").count() == 2
        assert ChipEntry.objects.filter(game=table.game, reason="fee").count() == 1
    assert chips.check_wallets() == []
    assert chips.totals().balanced


def test_two_settlements_of_one_winner_at_once_cannot_both_pass_the_cap(monkeypatch) -> None:
    """The cap on what is won from new accounts is read and written under the
    winner's wallet lock, in the settlement's transaction: settled at the same
    moment, two wins of 18 from two new accounts under a cap of 20 pay 20."""
    import datetime

    from django.utils import timezone

    monkeypatch.setattr(rooms, "NEWCOMER_DAILY_CAP", 20)
    User = get_user_model()
    for attempt in range(3):
        winner = User.objects.create_user(username=f"winner{attempt}", password="x")
        User.objects.filter(pk=winner.pk).update(date_joined=timezone.now() - datetime.timedelta(days=30))
        ChipWallet.objects.filter(user=winner).update(xp=rooms.xp_for_level(3))
        tables = []
        game_finished.disconnect(dispatch_uid="lobby.settle_room")
        try:
            for n in range(2):
                farm = User.objects.create_user(username=f"farm{attempt}-{n}", password="x")  # new accounts
                table = room_tables.open_table(owner=winner, room="passport", kind="duel", target=0)
                room_tables.join_table(table_id=table.pk, user=farm)
                play_past_the_opening(table)
                game_services.resign(game_id=table.game.pk, seat=1)
                tables.append(table)
        finally:
            game_finished.connect(receivers.settle_room_game, dispatch_uid="lobby.settle_room")
        results, errors = at_once(*(lambda table=table: room_tables.settle(table_id=table.pk) for table in tables))
        assert errors == []
        assert results == [True, True]
        assert ChipWallet.objects.get(user=winner).balance == 1000 + 20
        assert sum(
            ChipEntry.objects.filter(game__table__in=tables, reason="capped").values_list("amount", flat=True)
        ) == 2 * 18 - 20


def test_one_member_joining_two_tables_at_once_sits_at_one() -> None:
    """One game at a time is a rule of the data: with chips enough for both,
    two joins at the same moment still seat the member once."""
    User = get_user_model()
    for attempt in range(5):
        owners = [User.objects.create_user(username=f"host{attempt}-{n}", password="x") for n in range(2)]
        player = User.objects.create_user(username=f"guest{attempt}", password="x")
        tables = [room_tables.open_table(owner=owner, room="passport", kind="three", target=0) for owner in owners]
        results, errors = at_once(
            *(lambda table=table: room_tables.join_table(table_id=table.pk, user=player) for table in tables)
        )
        assert len(results) == 1, errors
        assert len(errors) == 1
        assert isinstance(errors[0], game_services.InGame)
        assert errors[0].table_id == results[0].table_id  # the refusal names the table they sat at
        assert Seat.objects.filter(user=player).count() == 1
        assert ChipWallet.objects.get(user=player).balance == 980
    assert chips.check_wallets() == []
    assert chips.totals().balanced
