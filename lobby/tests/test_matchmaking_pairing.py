"""Pairing players of close ratings (pure)."""

from __future__ import annotations

import random

import pytest

from lobby.matchmaking import WINDOW_START, Ticket, pair_tickets, rating_window, seat_order


def ids(groups) -> list[set[int]]:
    return [{t.user_id for t in group} for group in groups]


def test_two_close_players_are_paired() -> None:
    groups = pair_tickets([Ticket(1, 1500, 0), Ticket(2, 1540, 0)], 2)
    assert ids(groups) == [{1, 2}]


def test_far_ratings_wait_until_the_window_has_widened() -> None:
    gap = 400
    fresh = [Ticket(1, 1500, 0), Ticket(2, 1500 + gap, 0)]
    assert pair_tickets(fresh, 2) == []
    seconds = next(s for s in range(1000) if rating_window(s) >= gap)
    waited = [Ticket(1, 1500, seconds), Ticket(2, 1500 + gap, seconds)]
    assert ids(pair_tickets(waited, 2)) == [{1, 2}]


def test_the_newest_players_window_limits_the_group() -> None:
    # The old ticket would accept anyone, the new one only close ratings.
    groups = pair_tickets([Ticket(1, 1500, 600), Ticket(2, 1500 + WINDOW_START + 50, 0)], 2)
    assert groups == []


def test_a_player_is_never_paired_with_themself() -> None:
    assert pair_tickets([Ticket(7, 1500, 10), Ticket(7, 1500, 3)], 2) == []


def test_each_player_is_in_one_group_at_most() -> None:
    rng = random.Random(5)
    tickets = [Ticket(i, rng.gauss(1500, 200), rng.uniform(0, 60)) for i in range(200)]
    for size in (2, 3, 4):
        groups = pair_tickets(tickets, size)
        members = [t.user_id for group in groups for t in group]
        assert len(members) == len(set(members))
        assert all(len(group) == size for group in groups)
        assert len(groups) >= 30


def test_the_closest_neighbours_are_chosen() -> None:
    tickets = [Ticket(1, 1500, 30), Ticket(2, 1900, 30), Ticket(3, 1510, 0), Ticket(4, 1890, 0)]
    assert sorted(map(sorted, ids(pair_tickets(tickets, 2)))) == [[1, 3], [2, 4]]


def test_the_longest_waiting_player_is_served_first() -> None:
    # 2 sits between 1 and 3; 3 has waited longest, so 2 goes with 3.
    tickets = [Ticket(1, 1490, 0), Ticket(2, 1500, 0), Ticket(3, 1511, 50)]
    assert ids(pair_tickets(tickets, 2)) == [{2, 3}]


def test_three_and_four_player_groups() -> None:
    tickets = [Ticket(i, 1500 + i, 0) for i in range(1, 8)]
    assert len(pair_tickets(tickets, 3)) == 2
    assert len(pair_tickets(tickets, 4)) == 1


def test_pairs_are_balanced_strong_with_weak() -> None:
    group = [Ticket(1, 1800, 0), Ticket(2, 1600, 0), Ticket(3, 1500, 0), Ticket(4, 1300, 0)]
    for seed in range(4):
        seats = seat_order(group, teams=True, rng=random.Random(seed))
        team_of = {t.user_id: i % 2 for i, t in enumerate(seats)}
        assert team_of[1] == team_of[4] != team_of[2] == team_of[3]


def test_seat_order_keeps_everyone() -> None:
    group = [Ticket(i, 1500, 0) for i in range(3)]
    assert sorted(t.user_id for t in seat_order(group, teams=False, rng=random.Random(1))) == [0, 1, 2]


def test_a_group_needs_two_players() -> None:
    with pytest.raises(ValueError):
        pair_tickets([], 1)
