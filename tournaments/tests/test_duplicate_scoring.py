"""Duplicate matchpoints (games/verifier/duplicate.py) and the pairing of a
duplicate round (tournaments/pairing.py ``pair_round``), as pure functions
with hypothesis."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.verifier.duplicate import (
    ALONE_PERCENT,
    Result,
    matchpoints,
    percent,
    score_round,
    shown,
    standings,
)
from tournaments.pairing import COMPUTER, pair_round

pytestmark = pytest.mark.pure

outcomes = st.sampled_from(["win", "draw", "loss"])
keys = st.lists(st.tuples(st.integers(0, 2), st.integers(-60, 60)), min_size=1, max_size=12)


def test_two_for_each_table_beaten_one_for_each_tie():
    # Three tables at one seat: a win by 20, a win by 5, a win by 5.
    assert matchpoints([(2, 20), (2, 5), (2, 5)]) == [4, 1, 1]
    # A win beats any draw and any loss, whatever the margins.
    assert matchpoints([(2, 1), (1, 0), (0, 40)]) == [4, 2, 0]


def test_percent_of_the_top_and_alone_at_a_seat():
    assert percent(4, 3) == 100
    assert percent(1, 3) == 25
    assert percent(0, 1) == ALONE_PERCENT
    assert shown(Fraction(200, 3)) == "66.67"
    assert shown(Fraction(1, 8)) == "0.13"  # half up


@given(keys)
def test_matchpoints_share_out_the_whole_field(field):
    """Each comparison gives 2 between two results: n(n-1) in all, each result 0 to the top."""
    points = matchpoints(field)
    n = len(field)
    assert sum(points) == n * (n - 1)
    assert all(0 <= mine <= 2 * (n - 1) for mine in points)


@given(keys)
def test_a_better_result_never_scores_fewer_matchpoints(field):
    points = matchpoints(field)
    for (mine, my_points), (theirs, their_points) in itertools.combinations(zip(field, points, strict=True), 2):
        if mine > theirs:
            assert my_points > their_points
        elif mine == theirs:
            assert my_points == their_points


@given(keys)
def test_the_order_of_the_tables_does_not_matter(field):
    points = dict(zip(range(len(field)), matchpoints(field), strict=True))
    order = list(reversed(range(len(field))))
    again = matchpoints([field[index] for index in order])
    assert [points[index] for index in order] == again


results = st.lists(
    st.builds(
        Result,
        player=st.sampled_from(["ana", "ben", "cy", "dee", "eve", "fay"]),
        seat=st.integers(0, 1),
        outcome=outcomes,
        margin=st.integers(-50, 50),
    ),
    max_size=6,
    unique_by=lambda result: result.player,
)


@given(results)
def test_a_round_compares_only_results_of_the_same_seat(found):
    scored = score_round(found)
    for seat in (0, 1):
        mine = [item for item in scored if item.result.seat == seat]
        assert sum(item.matchpoints for item in mine) == len(mine) * (len(mine) - 1)
        for item in mine:
            assert item.top == 2 * (len(mine) - 1)
            assert item.percent == (ALONE_PERCENT if len(mine) == 1 else Fraction(100 * item.matchpoints, item.top))


@given(st.lists(results, max_size=4))
def test_the_standings_add_up_the_rounds(rounds):
    players = ["ana", "ben", "cy", "dee", "eve", "fay"]
    scored = [score_round(found) for found in rounds]
    rows = standings(players, scored)
    assert [row.rank for row in rows] == list(range(1, len(players) + 1))
    for row in rows:
        mine = [item for round in scored for item in round if item.result.player == row.player]
        assert row.percent == sum((item.percent for item in mine), Fraction(0))
        assert row.rounds == len(mine)
    for better, worse in itertools.pairwise(rows):
        assert (better.percent, better.matchpoints) >= (worse.percent, worse.matchpoints)


def fewest_repeats(players, met):
    """By brute force: the fewest repeated pairs of any pairing of everyone (the computer
    taking the odd one)."""
    people = list(players) + ([COMPUTER] if len(players) % 2 else [])
    best = len(people)

    def walk(rest, repeats):
        nonlocal best
        if not rest:
            best = min(best, repeats)
            return
        head, *tail = rest
        for index, other in enumerate(tail):
            walk(tail[:index] + tail[index + 1 :], repeats + (frozenset((head, other)) in met))

    walk(people, 0)
    return best


@st.composite
def histories(draw):
    count = draw(st.integers(1, 9))
    players = list(range(1, count + 1))
    pairs = [frozenset(pair) for pair in itertools.combinations(players, 2)]
    met = set(draw(st.lists(st.sampled_from(pairs), max_size=len(pairs)))) if pairs else set()
    computer = draw(st.dictionaries(st.sampled_from(players), st.integers(0, 3)))
    return players, met, computer


@given(histories())
def test_a_round_pairs_everyone_once_with_the_fewest_repeats(history):
    players, met, computer = history
    pairs = pair_round(players, met, computer)
    seated = [player for pair in pairs for player in pair]
    assert sorted(player for player in seated if player != COMPUTER) == players
    assert seated.count(COMPUTER) == len(players) % 2
    repeats = sum(frozenset(pair) in met for pair in pairs)
    assert repeats == fewest_repeats(players, met)


def test_the_computer_goes_to_one_who_has_not_had_it():
    pairs = pair_round([1, 2, 3], set(), {3: 1, 2: 1})
    assert (1, COMPUTER) in pairs


@given(histories())
def test_the_computer_goes_to_one_who_had_it_least_when_no_repeat_is_added(history):
    players, met, computer = history
    if len(players) % 2 == 0:
        return
    pairs = pair_round(players, met, computer)
    alone = next(player for pair in pairs for player in pair if COMPUTER in pair and player != COMPUTER)
    # Against every other choice that needs no more repeats, the chosen one had the computer least.
    fewest = fewest_repeats(players, met)
    for other in players:
        rest = [player for player in players if player != other]
        if computer.get(other, 0) < computer.get(alone, 0):
            assert fewest_repeats(rest, met) > fewest
