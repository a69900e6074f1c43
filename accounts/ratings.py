"""Rating maths: a pure wrapper of OpenSkill's Plackett-Luce model.

No database here: ``accounts.services`` loads the ratings, calls ``rate_match``
and saves the result.

Scale: OpenSkill keeps a skill estimate ``mu`` (25 for a newcomer) and an
uncertainty ``sigma`` (25/3). The site shows ``mu`` scaled by 60, so a
newcomer shows 1500 and one step of ``mu`` is 60 points. A player stays
*provisional* (shown "1500?") while ``sigma`` is above ``PROVISIONAL_SIGMA``:
about ten duels, or fifteen games at four, at the usual rate of learning.
Leaderboards leave provisional players out (so a lucky streak over a few
games cannot top them) and sort by the number shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
SCALE = 60.0
PROVISIONAL_SIGMA = 6.5

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

REPEAT_WINDOW = timedelta(hours=24)
"""Repeated games: the k-th ranked game of the same two members within this
window counts 1/k (``repeat_weight``), so that a series arranged between two
accounts cannot carry a rating (docs/members.md)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """One player's rating in one mode."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> int:
        """The number shown on the site (1500 for a newcomer)."""
        return display_rating(self.mu)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.sigma)

    @property
    def ordinal(self) -> float:
        """OpenSkill's conservative estimate (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


def display_rating(mu: float) -> int:
    return round(mu * SCALE)


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def format_rating(mu: float, sigma: float) -> str:
    """``"1523"``, or ``"1500?"`` while provisional."""
    return f"{display_rating(mu)}{'?' if is_provisional(sigma) else ''}"


def rate_match(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """New skills after one game.

    ``teams`` lists the sides of the game (one player each, or two with pairs);
    ``ranks`` gives each side's final place, 1 for the best; equal ranks are a
    tie. Returns the new skills in the same shape.
    """
    if len(teams) < 2 or len(teams) != len(ranks):
        raise ValueError("a rated game needs at least two sides, each with a rank")
    if any(not team for team in teams):
        raise ValueError("every side needs at least one player")
    model_teams = [[_MODEL.rating(mu=skill.mu, sigma=skill.sigma) for skill in team] for team in teams]
    rated = _MODEL.rate(model_teams, ranks=[float(rank) for rank in ranks])
    return [[Skill(mu=player.mu, sigma=player.sigma) for player in team] for team in rated]


def ranks_from_scores(scores: Sequence[int], *, winner: int | None, last: Sequence[int] = ()) -> list[int]:
    """Final places (1 = best) of each side from the game's end.

    ``scores`` are by side (seat, or team with pairs); ``winner`` is the
    winning side, or None for a draw; sides in ``last`` (a resignation or an
    abandonment) rank below everyone else, whatever their score. The winner
    ranks first; the others by score, equal scores sharing a place.
    A drawn game (``winner`` None, nobody in ``last``) ranks every side equal.
    """
    sides = range(len(scores))
    if winner is None and not last:
        return [1 for _ in sides]

    def key(side: int) -> tuple[int, int, int]:
        return (side in last, side != winner, -scores[side])

    order = sorted(sides, key=key)
    ranks = [0] * len(scores)
    place = 0
    previous: tuple[int, int, int] | None = None
    for position, side in enumerate(order, start=1):
        current = key(side)
        if current != previous:
            place = position
            previous = current
        ranks[side] = place
    return ranks


def repeat_weight(k: int) -> float:
    """The weight of the ``k``-th game (1-based) of the same pair within
    ``REPEAT_WINDOW``: 1, 1/2, 1/3, ..."""
    if k < 1:
        raise ValueError("games are counted from 1")
    return 1.0 / k


def weighed(before: Skill, after: Skill, weight: float) -> Skill:
    """``before`` moved ``weight`` of the way to ``after`` (1: the full change,
    0: none): a repeated game's rating change, its mean and its uncertainty
    scaled alike."""
    return Skill(
        mu=before.mu + weight * (after.mu - before.mu),
        sigma=before.sigma + weight * (after.sigma - before.sigma),
    )
