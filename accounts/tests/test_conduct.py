"""The fair-conduct rule (accounts.conduct): how long a member who leaves
games stays out of the queues, and what counts as leaving by the clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from accounts import conduct

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_two_games_left_in_a_day_bring_no_ban() -> None:
    assert conduct.banned_until([at(0), at(60)]) is None


def test_the_third_in_a_day_bans_for_ten_minutes_from_it() -> None:
    assert conduct.banned_until([at(0), at(60), at(120)]) == at(130)


def test_three_spread_over_more_than_a_day_bring_no_ban() -> None:
    assert conduct.banned_until([at(0), at(13 * 60), at(24 * 60 + 1)]) is None


def test_each_new_abandonment_in_the_window_lengthens_the_ban_up_to_two_days() -> None:
    times = [at(0), at(1)]
    expected = [timedelta(minutes=10), timedelta(hours=1), timedelta(hours=6), timedelta(hours=24), timedelta(hours=48)]
    for minute, ban in enumerate(expected, start=2):
        times.append(at(minute))
        assert conduct.banned_until(times) == at(minute) + ban
    times.append(at(10))  # the cap
    assert conduct.banned_until(times) == at(10) + timedelta(hours=48)


def test_a_later_short_ban_never_shortens_a_long_one() -> None:
    # Six in a few minutes (24 h), then much later three more: a fresh 10-minute ban.
    times = [at(minute) for minute in range(6)] + [at(30 * 60), at(30 * 60 + 1)]
    assert conduct.banned_until(times) == at(5) + timedelta(hours=24)


def test_the_longest_run_of_turns_the_server_played() -> None:
    person, server = "", "server"
    moves = [
        (0, server), (1, person),
        (0, server), (0, server), (1, person),  # one turn of two moves: both by the server
        (0, person), (1, person),  # seat 0 is back: the run ends at 2
        (0, server), (1, person), (None, ""),  # a new round does not end a run
        (0, server), (1, person), (0, server), (1, person),
    ]
    assert conduct.longest_server_streak(moves, 0) == 3
    assert conduct.longest_server_streak(moves, 1) == 0
    # A turn where the person drew and the server played the rest is theirs.
    assert conduct.longest_server_streak([(0, person), (0, server), (1, person)], 0) == 0
