"""Rooms with stakes: the data (payouts, fee, level curve), the chip ledger
(grants, top-ups, corrections, never negative), seats held with a stake and
the settlement of room games, exactly once."""

from __future__ import annotations

import datetime
import itertools

import pytest

from games.models import Game, Seat, Table
from games.play import services as game_services
from games.tests.helpers import play_past_the_opening
from games.timers import expiry
from lobby import chips, periodic, room_tables, rooms
from lobby.models import ChipEntry, ChipWallet, RoomTable

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def balance(user) -> int:
    return ChipWallet.objects.get(user=user).balance


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run what waits for the commit (the end-of-game signal) at the block's end."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def set_xp(user, xp: int) -> None:
    ChipWallet.objects.filter(user=user).update(xp=xp)


# --- The data ---------------------------------------------------------------------


def test_every_payout_is_whole_and_the_house_keeps_the_published_fee() -> None:
    for room in rooms.ROOMS.values():
        for kind in rooms.KINDS.values():
            for percent in kind.payout_percent:
                assert room.stake * percent % 100 == 0, (room.slug, kind.key)
            assert room.fee(kind.key) * 100 == room.pot(kind.key) * rooms.FEE_PERCENT, (room.slug, kind.key)
            assert room.net(kind.key)[0] > 0  # winning pays
            assert room.net(kind.key)[-1] == -room.stake  # the last place loses the stake, no more


def test_rooms_grow_in_stake_and_level() -> None:
    ordered = list(rooms.ROOMS.values())
    assert [room.slug for room in ordered] == ["passport", "tourist", "priority", "business", "luxury"]
    assert ordered[0].min_level == 1
    for low, high in itertools.pairwise(ordered):
        assert low.stake < high.stake
        assert low.min_level < high.min_level


def test_the_level_curve() -> None:
    assert rooms.level_for(0) == 1
    assert rooms.level_for(49) == 1
    assert rooms.level_for(50) == 2
    assert rooms.level_for(rooms.xp_for_level(15)) == 15
    assert rooms.level_for(rooms.xp_for_level(15) - 1) == 14
    assert rooms.level_for(10**9) == rooms.MAX_LEVEL
    shown = rooms.progress(100)
    assert (shown.level, shown.floor, shown.next, shown.percent, shown.to_next) == (2, 50, 150, 50, 50)


def test_settle_pays_by_place_and_shares_tied_places() -> None:
    tourist = rooms.ROOMS["tourist"]
    duel = rooms.settle(tourist, "duel", [2, 1])
    assert duel.chips == (0, 190)
    assert duel.fee == 10
    assert duel.xp == (6, 20)
    pairs = rooms.settle(tourist, "pairs", [1, 2], rounds=2)  # experience: per round played
    assert pairs.chips == (190, 0, 190, 0)
    assert pairs.fee == 20
    assert pairs.xp == (40, 12, 40, 12)
    three_tied = rooms.settle(tourist, "three", [1, 2, 2])
    assert three_tied.chips == (210, 37, 37)
    assert three_tied.fee == 16
    drawn = rooms.settle(tourist, "four", [1, 1, 1, 1], rounds=3)
    assert drawn.drawn
    assert drawn.chips == (100,) * 4
    assert drawn.fee == 0
    assert drawn.xp == (18,) * 4
    assert rooms.settle(tourist, "duel", [2, 1], rounds=0).xp == (0, 0)  # no round played to its end


def test_who_won_what_from_whom() -> None:
    assert rooms.shares_of([18, -20]) == {(0, 1): 18}
    assert rooms.shares_of([18, -20, 18, -20]) == {(0, 1): 9, (0, 3): 9, (2, 1): 9, (2, 3): 9}
    four = rooms.shares_of([30, 2, -16, -20])  # each gain taken from the losers by their losses
    assert four == {(0, 2): 13, (0, 3): 16, (1, 2): 0, (1, 3): 1}
    assert rooms.shares_of([0, 0]) == {}


# --- The ledger -------------------------------------------------------------------


def test_a_new_member_gets_the_starting_grant_once(make_member) -> None:
    alice = make_member("alice")
    assert balance(alice) == rooms.STARTING_GRANT
    assert chips.grant_welcome(user_id=alice.pk) is None
    assert ChipEntry.objects.filter(user=alice).count() == 1
    assert chips.check_wallets() == []


def test_the_daily_top_up_only_below_the_floor_and_once_a_day(make_member) -> None:
    alice, staff = make_member("alice"), make_member("staff")
    with pytest.raises(chips.ChipError) as refused:
        chips.claim_topup(user_id=alice.pk)
    assert refused.value.code == "above_floor"
    chips.admin_entry(user_id=alice.pk, amount=-950, note="test", created_by=staff)
    day = datetime.date(2026, 12, 1)
    entry = chips.claim_topup(user_id=alice.pk, today=day)
    assert entry.amount == rooms.DAILY_FLOOR - 50
    assert balance(alice) == rooms.DAILY_FLOOR
    chips.admin_entry(user_id=alice.pk, amount=-150, note="test", created_by=staff)
    with pytest.raises(chips.ChipError) as again:
        chips.claim_topup(user_id=alice.pk, today=day)
    assert again.value.code == "already_today"
    chips.claim_topup(user_id=alice.pk, today=day + datetime.timedelta(days=1))
    assert balance(alice) == rooms.DAILY_FLOOR
    assert chips.check_wallets() == []


def test_no_balance_goes_negative(make_member) -> None:
    alice, staff = make_member("alice"), make_member("staff")
    with pytest.raises(chips.ChipError):
        chips.admin_entry(user_id=alice.pk, amount=-1001, note="too much", created_by=staff)
    with pytest.raises(chips.ChipError):
        chips.admin_entry(user_id=alice.pk, amount=5, note="  ", created_by=staff)
    assert balance(alice) == 1000
    assert ChipEntry.objects.filter(user=alice).count() == 1


def test_a_cached_balance_that_disagrees_with_the_ledger_is_found(make_member) -> None:
    alice = make_member("alice")
    ChipWallet.objects.filter(user=alice).update(balance=999)
    assert chips.check_wallets() == [(alice.pk, 999, 1000)]


# --- Room tables ------------------------------------------------------------------


def test_sitting_holds_the_stake_and_the_full_table_starts(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    set_xp(alice, 150)
    set_xp(bob, 150)
    table = room_tables.open_table(owner=alice, room="tourist", kind="duel", target=0)
    assert table.kind == Table.Kind.ROOM
    assert table.status == Table.Status.WAITING
    assert balance(alice) == 900
    room_tables.join_table(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert balance(bob) == 900
    assert chips.totals().held == 200
    assert chips.totals().balanced


def test_without_the_level_or_the_chips_one_cannot_sit(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    with pytest.raises(room_tables.RoomError) as low:
        room_tables.open_table(owner=alice, room="priority", kind="duel", target=0)
    assert "level 6" in low.value.message
    assert not Table.objects.exists()
    set_xp(alice, rooms.xp_for_level(6))
    set_xp(bob, rooms.xp_for_level(6))
    table = room_tables.open_table(owner=alice, room="priority", kind="duel", target=0)
    chips.admin_entry(user_id=bob.pk, amount=-600, note="test", created_by=carol)
    with pytest.raises(room_tables.RoomError) as poor:
        room_tables.join_table(table_id=table.pk, user=bob)
    assert poor.value.reason == "no_chips"
    assert balance(bob) == 400
    assert Seat.objects.get(table=table, number=1).user is None


def test_a_resignation_pays_the_winner_as_the_table_says(make_member, commit) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    set_xp(alice, 150)
    set_xp(bob, 150)
    table = room_tables.open_table(owner=alice, room="tourist", kind="duel", target=50)
    room_tables.join_table(table_id=table.pk, user=bob)
    play_past_the_opening(table)
    with commit():
        game_services.resign(game_id=table.game.pk, seat=0)
    assert balance(alice) == 900
    assert balance(bob) == 1090
    wallets = {w.user_id: w for w in ChipWallet.objects.all()}
    assert wallets[alice.pk].xp == 150  # the round cut short by the resignation gives none
    assert wallets[bob.pk].xp == 150
    assert ChipEntry.objects.get(user__isnull=True).amount == 10
    assert RoomTable.objects.get(pk=table.pk).outcome == "paid"
    assert chips.totals().balanced
    assert chips.check_wallets() == []


def test_settlement_happens_once_however_often_it_is_asked(make_member, commit) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    play_past_the_opening(table)
    with commit():
        game_services.resign(game_id=table.game.pk, seat=1)
    entries = ChipEntry.objects.count()
    assert room_tables.settle(table_id=table.pk) is False
    assert room_tables.settle_missed() == 0
    assert ChipEntry.objects.count() == entries
    assert balance(alice) == 1018
    assert balance(bob) == 980


def test_a_lost_signal_is_settled_by_the_periodic_tick(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    play_past_the_opening(table)
    game_services.resign(game_id=table.game.pk, seat=1)  # no commit callbacks: the signal is lost
    assert balance(alice) == 980
    assert periodic.tick()["settled"] == 1
    assert balance(alice) == 1018
    assert chips.totals().balanced


def test_a_crash_mid_settlement_leaves_nothing_half_done(make_member, commit, monkeypatch) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    real_post = chips.post_house

    def crash(**kwargs):
        raise RuntimeError("worker killed")

    play_past_the_opening(table)
    monkeypatch.setattr(chips, "post_house", crash)  # after both players' entries
    with commit():
        game_services.resign(game_id=table.game.pk, seat=1)
    assert not ChipEntry.objects.filter(reason=ChipEntry.Reason.PAYOUT).exists()
    assert balance(alice) == 980
    monkeypatch.setattr(chips, "post_house", real_post)
    assert room_tables.settle_missed() == 1
    assert balance(alice) == 1018
    assert balance(bob) == 980
    assert chips.totals().balanced
    assert chips.check_wallets() == []


def test_an_agreed_draw_returns_the_stakes(make_member, commit) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = room_tables.open_table(owner=alice, room="passport", kind="three", target=50)
    room_tables.join_table(table_id=table.pk, user=bob)
    room_tables.join_table(table_id=table.pk, user=carol)
    play_past_the_opening(table)
    with commit():
        for seat in range(3):
            game_services.offer_draw(game_id=table.game.pk, seat=seat)
    assert [balance(u) for u in (alice, bob, carol)] == [1000, 1000, 1000]
    assert RoomTable.objects.get(pk=table.pk).outcome == "drawn"
    assert ChipWallet.objects.get(user=bob).xp == 0  # no round was played to its end
    assert not ChipEntry.objects.filter(user__isnull=True).exists()


def test_an_aborted_game_returns_the_stakes(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    assert game_services.abort_game(game_id=table.game.pk)
    assert balance(alice) == 980  # abort sends no signal: the tick returns the stakes
    periodic.tick()
    assert balance(alice) == 1000
    assert balance(bob) == 1000
    assert RoomTable.objects.get(pk=table.pk).outcome == "refunded"


def test_leaving_a_waiting_table_returns_the_stake(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = room_tables.open_table(owner=alice, room="passport", kind="three", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    room_tables.leave_table(table_id=table.pk, user=bob)
    assert balance(bob) == 1000
    with pytest.raises(room_tables.RoomError):
        room_tables.join_table(table_id=table.pk, user=bob)  # one stake per table and member
    room_tables.join_table(table_id=table.pk, user=carol)
    room_tables.leave_table(table_id=table.pk, user=alice)  # the owner closes it
    assert [balance(u) for u in (alice, bob, carol)] == [1000, 1000, 1000]
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED
    assert chips.totals().balanced
    assert chips.totals().held == 0


def test_an_abandonment_by_the_timer_pays_the_one_who_stayed(make_member, commit) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    play_past_the_opening(table)
    with commit():
        expiry.abandon(game_id=table.game.pk, seat=0)
    assert balance(alice) == 980
    assert balance(bob) == 1018


def test_hints_are_refused_at_room_tables(make_member) -> None:
    from games.coach import hints

    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    game = Game.objects.get(table=table)
    with pytest.raises(game_services.NotAllowed):
        hints.seat_view(game_id=game.pk, seat=game.to_move)


def test_a_table_waiting_too_long_is_closed_and_the_stakes_return(make_member) -> None:
    from django.utils import timezone

    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="three", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    assert room_tables.close_stale_tables() == 0
    later = timezone.now() + room_tables.WAITING_LIMIT + datetime.timedelta(seconds=1)
    assert room_tables.close_stale_tables(now=later) == 1
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED
    assert balance(alice) == 1000
    assert balance(bob) == 1000
    assert room_tables.close_stale_tables(now=later) == 0
    assert chips.totals().balanced
