"""The four-player arena's tables (tournaments/pairing.py ``group_wave``): pure, with hypothesis."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Free, group_wave, rematches

pytestmark = pytest.mark.pure


@st.composite
def waves(draw, max_size=12):
    """Free players whose last tables are groups of up to four of a larger field."""
    size = draw(st.integers(0, max_size))
    ids = list(range(1, size + 1))
    ranks = draw(st.permutations(ids))
    field = ids + list(range(100, 104))  # some last opponents are not free now
    order = draw(st.permutations(field))
    cuts = sorted(draw(st.lists(st.integers(0, len(field)), max_size=len(field) // 2)))
    tables, start = [], 0
    for cut in [*cuts, len(field)]:
        group = order[start:cut][:4]
        if group:
            tables.append(group)
        start = max(start, cut)
    last = {player: frozenset(table) - {player} for table in tables for player in table}
    return [Free(player, rank, last_table=last.get(player, frozenset())) for player, rank in zip(ids, ranks)]


def fewest_rematches(players):
    """By brute force: the fewest rematches of any grouping that seats all but three at most."""
    tables = len(players) // 4

    def best(rest, wanted):
        if wanted == 0:
            return 0
        first = rest[0]
        result = None
        # The first is either seated with three others, or left out (when the others suffice).
        for others in combinations(range(1, len(rest)), 3):
            table = [first, *(rest[i] for i in others)]
            remaining = [item for i, item in enumerate(rest) if i and i not in others]
            cost = rematches(table) + best(remaining, wanted - 1)
            result = cost if result is None else min(result, cost)
        if len(rest) - 1 >= 4 * wanted:
            cost = best(rest[1:], wanted)
            result = cost if result is None else min(result, cost)
        return result

    return best(list(players), tables)


@given(waves(max_size=40), st.integers(4, 16))
def test_tables_of_four_no_one_twice_and_all_but_three_seated(wave, window):
    tables = group_wave(wave, window=window)
    seated = [player.player for table in tables for player in table]
    assert all(len(table) == 4 for table in tables)
    assert len(seated) == len(set(seated))
    assert len(seated) == len(wave) - len(wave) % 4


@settings(max_examples=300, deadline=None)
@given(waves(max_size=9))
def test_no_table_repeats_a_last_table_when_another_grouping_avoids_it(wave):
    tables = group_wave(wave)
    assert sum(rematches(table) for table in tables) == fewest_rematches(sorted(wave, key=lambda item: item.rank))


@settings(max_examples=200, deadline=None)
@given(waves(max_size=16).filter(lambda wave: len(wave) >= 10))
def test_in_a_larger_window_no_swap_of_two_players_would_remove_a_rematch(wave):
    tables = [list(table) for table in group_wave(wave)]
    seated = {item.player for table in tables for item in table}
    left = [item for item in wave if item.player not in seated]
    groups = [*tables, left]
    for t1, t2 in combinations(range(len(groups)), 2):
        first, second = groups[t1], groups[t2]

        def cost(index, group):
            return 0 if index == len(groups) - 1 else rematches(group)

        before = cost(t1, first) + cost(t2, second)
        for i in range(len(first)):
            for j in range(len(second)):
                a = [*first[:i], second[j], *first[i + 1 :]]
                b = [*second[:j], first[i], *second[j + 1 :]]
                assert cost(t1, a) + cost(t2, b) >= before


def test_players_sit_with_neighbours_in_the_standings():
    wave = [Free(player, player) for player in range(1, 13)]
    tables = [[item.rank for item in table] for table in group_wave(wave)]
    assert tables == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]


def test_the_four_of_a_last_table_are_spread_over_the_new_tables():
    # 1-4 just played together, as did 5-8, 9-12 and 13-16; now all sixteen are free.
    last = {p: frozenset(range(1 + (p - 1) // 4 * 4, 5 + (p - 1) // 4 * 4)) - {p} for p in range(1, 17)}
    wave = [Free(player, player, last_table=last[player]) for player in range(1, 17)]
    tables = group_wave(wave)
    assert len(tables) == 4
    assert sum(rematches(table) for table in tables) == 0


def test_a_player_free_twice_in_a_wave_is_refused():
    with pytest.raises(ValueError, match="once"):
        group_wave([Free(1, 1), Free(1, 2), Free(2, 3), Free(3, 4)])


def test_the_four_of_a_last_table_at_the_end_of_the_standings_are_not_seated_together_again():
    # 20 free, 17-20 just played together: a window of 16, then those four.
    last = {player: frozenset(range(17, 21)) - {player} for player in range(17, 21)}
    wave = [Free(player, player, last_table=last.get(player, frozenset())) for player in range(1, 21)]
    tables = group_wave(wave)
    assert len(tables) == 5
    assert sum(rematches(table) for table in tables) == 0


@settings(max_examples=200, deadline=None)
@given(waves(max_size=24), st.integers(4, 8))
def test_small_windows_no_swap_of_two_players_across_the_wave_would_remove_a_rematch(wave, window):
    """Windows smaller than the wave: no swap between tables of two windows
    (or with one left out) would remove a rematch either."""
    tables = [list(table) for table in group_wave(wave, window=window)]
    seated = {item.player for table in tables for item in table}
    left = [item for item in wave if item.player not in seated]
    groups = [*tables, left]
    for t1, t2 in combinations(range(len(groups)), 2):
        first, second = groups[t1], groups[t2]

        def cost(index, group):
            return 0 if index == len(groups) - 1 else rematches(group)

        before = cost(t1, first) + cost(t2, second)
        for i in range(len(first)):
            for j in range(len(second)):
                a = [*first[:i], second[j], *first[i + 1 :]]
                b = [*second[:j], first[i], *second[j + 1 :]]
                assert cost(t1, a) + cost(t2, b) >= before
