"""The four-player arena's scoring (games/verifier/arena.py): placement points,
the streak on first places, berserk, draws, as pure functions with hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.verifier import arena
from games.verifier.arena import FOUR_DRAW, PLACE_POINTS, Facts, Sheet, placements, replay_standings, score

pytestmark = pytest.mark.pure


def placed(place: int, **kwargs) -> Facts:
    return Facts("win" if place == 1 else "loss", players=4, place=place, **kwargs)


def test_places_score_five_three_one_nothing():
    assert [score(placed(place), 0)[0] for place in (1, 2, 3, 4)] == [5, 3, 1, 0]
    assert PLACE_POINTS == (5, 3, 1, 0)


def test_the_winner_is_first_a_resigned_player_last_and_equal_scores_share_the_better_place():
    assert placements([40, 51, 12, 30], winner=1) == [2, 1, 4, 3]
    assert placements([20, 51, 20, 3], winner=1) == [2, 1, 2, 4]
    # The one who resigned is last whatever their score.
    assert placements([45, 10, 20, 30], winner=0, resigned=3) == [1, 3, 2, 4]
    assert placements([0, 0, 0, 0], winner=None) == [1, 1, 1, 1]


def test_the_streak_counts_first_places_and_berserk_adds_one_to_a_first_place():
    sheet = Sheet(player="a", order=0)
    results = [sheet.add(placed(place)) for place in (1, 1, 2, 1, 1, 1, 3)]
    # Two first places in a row: the next results count double until one is not first.
    assert results == [5, 5, 6, 5, 5, 10, 2]
    assert sheet.wins == 5
    assert score(placed(1, berserk=True, tiles_laid=3), 0) == (6, 1)
    assert score(placed(1, berserk=True, tiles_laid=2), 0) == (5, 1)
    assert score(placed(2, berserk=True, tiles_laid=5), 0) == (3, 0)
    assert score(placed(1, berserk=True, tiles_laid=3), 2) == (11, 3)


def test_a_drawn_four_player_game_scores_two_each_and_a_quick_draw_nothing():
    assert score(Facts("draw", players=4), 0) == (FOUR_DRAW, 0)
    assert score(Facts("draw", players=4), 2) == (2 * FOUR_DRAW, 0)
    assert score(Facts("draw", players=4, quick_draw=True), 2) == (0, 0)
    assert score(Facts("win", players=4, place=1, aborted=True), 2) == (0, 2)


def test_inconsistent_facts_are_refused():
    for bad in (
        lambda: Facts("win", players=4, place=2),
        lambda: Facts("loss", players=4, place=1),
        lambda: Facts("loss", players=4),
        lambda: Facts("draw", players=4, place=1),
        lambda: Facts("win", place=1),
        lambda: Facts("win", players=3),
        lambda: Facts("loss", players=4, place=5),
    ):
        with pytest.raises(ValueError):
            bad()


game_scores = st.lists(st.integers(0, 80), min_size=4, max_size=4)


@given(game_scores, st.one_of(st.none(), st.integers(0, 3)), st.one_of(st.none(), st.integers(0, 3)))
def test_placements_are_a_ranking_with_shared_places(scores, winner, resigned):
    if winner is not None and winner == resigned:
        resigned = None
    places = placements(scores, winner=winner, resigned=resigned)
    if winner is None and resigned is None:
        assert places == [1, 1, 1, 1]
        return
    if winner is not None:
        assert places[winner] == 1
        assert places.count(1) == 1
    if resigned is not None:
        assert places[resigned] == max(places)
    # Standard competition ranking: a place p is taken by k seats, the next is p + k.
    for place in set(places):
        assert places.count(place) >= 1
        assert sum(1 for other in places if other < place) == place - 1
    for a in range(4):
        for b in range(4):
            if a not in (winner, resigned) and b not in (winner, resigned) and scores[a] > scores[b]:
                assert places[a] < places[b]


places4 = st.sampled_from([1, 2, 3, 4])
four_facts = st.one_of(
    st.builds(
        lambda place, tiles, berserk: placed(place, tiles_laid=tiles, berserk=berserk),
        places4,
        st.integers(0, 7),
        st.booleans(),
    ),
    st.builds(lambda quick: Facts("draw", players=4, quick_draw=quick), st.booleans()),
    st.builds(lambda place: placed(place, aborted=True), places4),
)


@given(st.lists(four_facts, max_size=40))
def test_every_four_player_result_scores_its_place_doubled_on_fire_plus_the_bonus(results):
    streak = 0
    for fact in results:
        points, after = score(fact, streak)
        if fact.aborted:
            assert (points, after) == (0, streak)
        else:
            if fact.outcome == "draw":
                base = 0 if fact.quick_draw else FOUR_DRAW
            else:
                base = PLACE_POINTS[fact.place - 1]
            bonus = 1 if fact.place == 1 and fact.berserk and fact.tiles_laid >= 3 else 0
            assert points == base * (2 if streak >= 2 else 1) + bonus
            assert after == (streak + 1 if fact.place == 1 else 0)
        streak = after


@given(st.lists(st.tuples(st.permutations(range(6)), game_scores), max_size=30))
def test_four_player_standings_sum_every_game_and_rank_by_points_then_first_places(games):
    players = [f"p{index}" for index in range(6)]
    rows = []
    for seating, scores in games:
        seats = seating[:4]
        places = placements(scores, winner=max(range(4), key=lambda s: (scores[s], -s)))
        rows.append([(players[seat], placed(place)) for seat, place in zip(seats, places, strict=True)])
    sheets, points, table = replay_standings(players, rows)
    assert sum(sheet.points for sheet in sheets.values()) == sum(map(sum, points))
    keys = [(-row.score, -row.wins, players.index(row.player)) for row in table]
    assert keys == sorted(keys)
    assert sum(row.wins for row in table) == len(rows)


def test_the_four_mode_is_the_one_the_verifier_scores_by_place():
    from games.play.modes import RANKED_MODES

    mode = RANKED_MODES[arena.FOUR_MODE]
    assert mode.players == arena.FOUR_PLAYERS
    assert not mode.teams
