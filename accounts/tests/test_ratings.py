"""The rating maths (pure)."""

from __future__ import annotations

import pytest

from accounts import ratings
from accounts.ratings import Skill, format_rating, ranks_from_scores, rate_match


def test_a_newcomer_shows_1500_and_is_provisional() -> None:
    skill = Skill()
    assert skill.display == 1500
    assert skill.provisional
    assert format_rating(skill.mu, skill.sigma) == "1500?"


def test_a_settled_rating_has_no_question_mark() -> None:
    assert format_rating(26.0, ratings.PROVISIONAL_SIGMA - 0.1) == "1560"


def test_the_winner_of_a_duel_gains_what_the_loser_loses() -> None:
    (winner,), (loser,) = rate_match([[Skill()], [Skill()]], ranks=[1, 2])
    assert winner.mu > ratings.MU > loser.mu
    assert winner.mu - ratings.MU == pytest.approx(ratings.MU - loser.mu)
    assert winner.sigma < ratings.SIGMA
    assert loser.sigma < ratings.SIGMA


def test_a_draw_between_equals_moves_nobody() -> None:
    (a,), (b,) = rate_match([[Skill()], [Skill()]], ranks=[1, 1])
    assert a.mu == pytest.approx(ratings.MU)
    assert b.mu == pytest.approx(ratings.MU)


def test_four_players_are_rated_by_final_ranking() -> None:
    new = rate_match([[Skill()] for _ in range(4)], ranks=[2, 1, 4, 3])
    mus = [team[0].mu for team in new]
    assert mus[1] > mus[0] > mus[3] > mus[2]


def test_pairs_are_rated_by_team() -> None:
    (a1, a2), (b1, b2) = rate_match([[Skill(), Skill()], [Skill(), Skill()]], ranks=[2, 1])
    assert a1.mu == pytest.approx(a2.mu)
    assert b1.mu == pytest.approx(b2.mu)
    assert a1.mu < ratings.MU < b1.mu


def test_beating_a_stronger_player_gains_more() -> None:
    (upset,), _ = rate_match([[Skill()], [Skill(mu=30, sigma=4)]], ranks=[1, 2])
    (expected,), _ = rate_match([[Skill()], [Skill(mu=20, sigma=4)]], ranks=[1, 2])
    assert upset.mu > expected.mu


def test_a_game_needs_two_ranked_sides() -> None:
    with pytest.raises(ValueError):
        rate_match([[Skill()]], ranks=[1])
    with pytest.raises(ValueError):
        rate_match([[Skill()], [Skill()]], ranks=[1])


def test_sigma_settles_below_the_provisional_line_after_a_dozen_duels() -> None:
    a, b = Skill(), Skill()
    for game in range(12):
        (a,), (b,) = rate_match([[a], [b]], ranks=[1, 2] if game % 2 else [2, 1])
    assert not a.provisional
    assert not b.provisional


@pytest.mark.parametrize(
    ("scores", "winner", "last", "expected"),
    [
        ([12, 0], 0, (), [1, 2]),
        ([0, 30], 1, (), [2, 1]),
        ([0, 0], None, (), [1, 1]),
        ([51, 20, 20, 7], 0, (), [1, 2, 2, 4]),
        ([40, 52, 10], 1, (), [2, 1, 3]),
        ([30, 5], 1, (0,), [2, 1]),  # the leader resigned: ranked last
        ([10, 20, 30, 5], 2, (1,), [2, 4, 1, 3]),
    ],
)
def test_ranks_from_scores(scores, winner, last, expected) -> None:
    assert ranks_from_scores(scores, winner=winner, last=last) == expected
