"""The arena's pairing (tournaments/pairing.py): pure, with hypothesis."""

from __future__ import annotations

from itertools import combinations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Free, pair_wave

pytestmark = pytest.mark.pure


@st.composite
def waves(draw, max_size=10):
    size = draw(st.integers(0, max_size))
    ids = list(range(1, size + 1))
    ranks = draw(st.permutations(ids))
    lasts = [draw(st.one_of(st.none(), st.sampled_from(ids))) if ids else None for _ in ids]
    return [Free(player, rank, last if last != player else None) for player, rank, last in zip(ids, ranks, lasts)]


def rematches(pairs):
    return sum(1 for a, b in pairs if a.last_opponent == b.player or b.last_opponent == a.player)


def fewest_rematches(players):
    """By brute force: the fewest rematches of any pairing that seats all but one at most."""
    if len(players) < 2:
        return 0
    first, rest = players[0], players[1:]
    best = None
    for index, other in enumerate(rest):
        cost = int(first.last_opponent == other.player or other.last_opponent == first.player)
        cost += fewest_rematches(rest[:index] + rest[index + 1 :])
        best = cost if best is None else min(best, cost)
    if len(players) % 2 == 1:  # the first may be the one left out
        best = min(best, fewest_rematches(rest))
    return best


@given(waves(max_size=40), st.integers(2, 12))
def test_no_one_twice_and_all_but_one_paired(wave, window):
    pairs = pair_wave(wave, window=window)
    seated = [player.player for pair in pairs for player in pair]
    assert len(seated) == len(set(seated))
    assert len(seated) == len(wave) - len(wave) % 2


@settings(max_examples=200)
@given(waves(max_size=9))
def test_no_rematch_with_the_last_opponent_when_someone_else_is_free(wave):
    pairs = pair_wave(wave)
    assert rematches(pairs) == fewest_rematches(sorted(wave, key=lambda item: item.rank))


def test_two_who_just_played_meet_again_only_when_nobody_else_is_free():
    a, b = Free(1, 1, last_opponent=2), Free(2, 2, last_opponent=1)
    assert [(x.player, y.player) for x, y in pair_wave([a, b])] == [(1, 2)]
    c, d = Free(3, 3), Free(4, 4)
    pairs = {frozenset((x.player, y.player)) for x, y in pair_wave([a, b, c, d])}
    assert frozenset((1, 2)) not in pairs


def test_players_meet_neighbours_in_the_standings():
    wave = [Free(player, player) for player in range(1, 9)]
    pairs = {frozenset((x.rank, y.rank)) for x, y in pair_wave(wave)}
    assert pairs == {frozenset((1, 2)), frozenset((3, 4)), frozenset((5, 6)), frozenset((7, 8))}


def test_a_player_free_twice_in_a_wave_is_refused():
    with pytest.raises(ValueError, match="once"):
        pair_wave([Free(1, 1), Free(1, 2)])


def best_by_the_library(players):
    """The fewest rematches of a whole wave, by one maximum-weight matching
    (networkx) over every pair: a rematch weighs 1, any other pair 2."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(players)))
    for i, j in combinations(range(len(players)), 2):
        a, b = players[i], players[j]
        graph.add_edge(i, j, weight=1 if a.last_opponent == b.player or b.last_opponent == a.player else 2)
    return sum(
        1
        for i, j in nx.max_weight_matching(graph, maxcardinality=True)
        if graph.edges[i, j]["weight"] == 1
    )


@settings(max_examples=300)
@given(waves(max_size=9), st.integers(2, 4))
def test_small_windows_leave_the_fewest_rematches(wave, window):
    """Windows smaller than the wave (the edges between them, a last window of two)."""
    pairs = pair_wave(wave, window=window)
    assert rematches(pairs) == fewest_rematches(sorted(wave, key=lambda item: item.rank))


@settings(max_examples=150)
@given(waves(max_size=30), st.integers(2, 8))
def test_larger_waves_in_small_windows_leave_the_fewest_rematches(wave, window):
    pairs = pair_wave(wave, window=window)
    assert rematches(pairs) == best_by_the_library(wave)


def test_two_who_just_played_at_the_end_of_the_standings_do_not_meet_again():
    # 26 free, 25 and 26 just played each other: a window of 24, then those two.
    wave = [Free(player, player) for player in range(1, 25)]
    wave += [Free(25, 25, last_opponent=26), Free(26, 26, last_opponent=25)]
    pairs = {frozenset((a.player, b.player)) for a, b in pair_wave(wave)}
    assert len(pairs) == 13
    assert frozenset((25, 26)) not in pairs
