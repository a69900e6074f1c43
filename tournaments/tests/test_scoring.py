"""The arena's scoring (games/verifier/arena.py) as pure functions, with hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.verifier.arena import Facts, Sheet, replay_standings, score

pytestmark = pytest.mark.pure

outcomes = st.sampled_from(["win", "draw", "loss"])
facts = st.builds(
    Facts,
    outcome=outcomes,
    tiles_laid=st.integers(0, 14),
    berserk=st.booleans(),
    quick_draw=st.booleans(),
    aborted=st.booleans(),
)


def test_a_win_scores_two_a_draw_one_a_loss_nothing():
    assert score(Facts("win"), 0) == (2, 1)
    assert score(Facts("draw"), 0) == (1, 0)
    assert score(Facts("loss"), 0) == (0, 0)


def test_after_two_wins_the_next_results_count_double_until_a_game_is_not_won():
    sheet = Sheet(player="a", order=0)
    results = [sheet.add(Facts(outcome)) for outcome in ["win", "win", "win", "draw", "win", "win", "loss", "win"]]
    assert results == [2, 2, 4, 2, 2, 2, 0, 2]
    assert sheet.points == 16
    assert sheet.wins == 6
    assert sheet.games == 8


def test_berserk_adds_one_to_a_win_with_three_tiles_laid_and_the_bonus_is_not_doubled():
    assert score(Facts("win", tiles_laid=3, berserk=True), 0) == (3, 1)
    assert score(Facts("win", tiles_laid=2, berserk=True), 0) == (2, 1)
    assert score(Facts("win", tiles_laid=3, berserk=False), 0) == (2, 1)
    assert score(Facts("draw", tiles_laid=7, berserk=True), 0) == (1, 0)
    assert score(Facts("win", tiles_laid=5, berserk=True), 2) == (5, 3)


def test_an_agreed_draw_before_the_first_round_is_over_scores_nothing_and_ends_a_streak():
    assert score(Facts("draw", quick_draw=True), 0) == (0, 0)
    assert score(Facts("draw", quick_draw=True), 3) == (0, 0)


def test_an_abort_scores_nothing_and_keeps_the_streak():
    assert score(Facts("win", aborted=True, berserk=True, tiles_laid=1), 2) == (0, 2)
    sheet = Sheet(player="a", order=0)
    sheet.add(Facts("loss", aborted=True))
    assert sheet.games == 0


@given(st.lists(facts, max_size=40))
def test_every_result_scores_within_its_bounds_and_the_streak_counts_wins_in_a_row(results):
    streak = 0
    for fact in results:
        points, after = score(fact, streak)
        if fact.aborted:
            assert (points, after) == (0, streak)
        else:
            base = {"win": 2, "draw": 0 if fact.quick_draw else 1, "loss": 0}[fact.outcome]
            bonus = 1 if fact.outcome == "win" and fact.berserk and fact.tiles_laid >= 3 else 0
            assert points == base * (2 if streak >= 2 else 1) + bonus
            assert after == (streak + 1 if fact.outcome == "win" else 0)
        streak = after


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), outcomes), max_size=60))
def test_standings_sum_every_game_and_rank_by_points_then_wins_then_joining(games):
    players = [f"p{index}" for index in range(6)]
    rows = []
    for a, b, outcome in games:
        if a == b:
            continue
        other = {"win": "loss", "loss": "win", "draw": "draw"}[outcome]
        rows.append([(players[a], Facts(outcome)), (players[b], Facts(other))])
    sheets, points, table = replay_standings(players, rows)
    assert sum(sheet.points for sheet in sheets.values()) == sum(map(sum, points))
    assert [row.rank for row in table] == list(range(1, 7))
    keys = [(-row.score, -row.wins, players.index(row.player)) for row in table]
    assert keys == sorted(keys)
