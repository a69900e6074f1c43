"""The scoring of a duplicate tournament, as plain functions
(docs/tournaments.md, "Duplicate").

In each round every table plays the same deal (the round's seed). A player's
*result* at their table is what the game gave their seat: the outcome (a win
above a draw above a loss), then the margin (their final score minus their
opponent's). Each result is compared with every other result of the round
from the same seat, as in duplicate bridge:

- ``BEATEN`` (2) matchpoints for each table it beats, ``TIED`` (1) for each
  it ties;
- the round's top is ``BEATEN * (n - 1)`` for ``n`` results at that seat, and
  the round scores ``100 * matchpoints / top`` percent; a result alone at its
  seat scores ``ALONE_PERCENT`` (50, the average);
- a computer's result (the opponent of an odd player) scores nothing and is
  compared with nobody's: only players' results are in the field.

The standings are the sum of the round percentages, then the matchpoints,
then the order of joining. Percentages are exact fractions; they are shown
and published with two decimals (half up).

The site's tournaments app and the tournament verifier
(``games.verifier.tournament``) use these same functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from games.engine import State

from . import arena

BEATEN = 2
TIED = 1
ALONE_PERCENT = 50

OUTCOME_ORDER = {arena.LOST: 0, arena.DRAWN: 1, arena.WINNING: 2}


@dataclass(frozen=True, slots=True)
class Result:
    """One player's result at their table of a round."""

    player: str
    seat: int
    outcome: str  # "win", "draw" or "loss"
    margin: int  # own final score minus the opponent's

    @property
    def key(self) -> tuple[int, int]:
        if self.outcome not in OUTCOME_ORDER:
            raise ValueError(f"unknown outcome {self.outcome!r}")
        return OUTCOME_ORDER[self.outcome], self.margin


def result_of(state: State, seat: int, player: str) -> Result:
    """The result of ``seat`` in a finished duel, from the engine's final state."""
    outcome = arena.outcome_of(state, seat)
    scores = state.scores
    others = [score for number, score in enumerate(scores) if number != seat]
    return Result(player=player, seat=seat, outcome=outcome, margin=scores[seat] - max(others, default=0))


def matchpoints(keys: Sequence[tuple[int, int]]) -> list[int]:
    """Each result's matchpoints against all the others (one seat, one round)."""
    return [
        sum(
            BEATEN if mine > theirs else TIED if mine == theirs else 0
            for j, theirs in enumerate(keys)
            if j != i
        )
        for i, mine in enumerate(keys)
    ]


def percent(points: int, results: int) -> Fraction:
    """The round's percentage of ``points`` matchpoints among ``results`` results at the seat."""
    if results <= 1:
        return Fraction(ALONE_PERCENT)
    return Fraction(100 * points, BEATEN * (results - 1))


def shown(value: Fraction) -> str:
    """A percentage with two decimals, half up ("66.67")."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


@dataclass(frozen=True, slots=True)
class Scored:
    """A result with its matchpoints in its round."""

    result: Result
    matchpoints: int
    top: int
    percent: Fraction


def score_round(results: Iterable[Result]) -> list[Scored]:
    """Score one round's players' results (computers' results are not given),
    in the order given."""
    given = list(results)
    by_seat: dict[int, list[int]] = {}
    for index, result in enumerate(given):
        by_seat.setdefault(result.seat, []).append(index)
    scored: dict[int, Scored] = {}
    for indices in by_seat.values():
        points = matchpoints([given[index].key for index in indices])
        top = BEATEN * (len(indices) - 1)
        for index, mine in zip(indices, points, strict=True):
            scored[index] = Scored(given[index], mine, top, percent(mine, len(indices)))
    return [scored[index] for index in range(len(given))]


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    percent: Fraction
    matchpoints: int
    rounds: int

    @property
    def score(self) -> str:
        return shown(self.percent)


def standings(players: Sequence[str], rounds: Iterable[Sequence[Scored]]) -> list[Standing]:
    """The standings: the sum of the round percentages, then the matchpoints,
    then the order of joining (``players``); ranks 1, 2, ..."""
    order = {player: index for index, player in enumerate(players)}
    percents = {player: Fraction(0) for player in players}
    points = dict.fromkeys(players, 0)
    counted = dict.fromkeys(players, 0)
    for scored_round in rounds:
        for scored in scored_round:
            player = scored.result.player
            if player not in order:
                raise ValueError(f"{player!r} is not a player of the tournament")
            percents[player] += scored.percent
            points[player] += scored.matchpoints
            counted[player] += 1
    ordered = sorted(players, key=lambda player: (-percents[player], -points[player], order[player]))
    return [
        Standing(rank=rank, player=player, percent=percents[player], matchpoints=points[player], rounds=counted[player])
        for rank, player in enumerate(ordered, start=1)
    ]


def scoring_rules() -> dict[str, object]:
    """The rules as the results file states them."""
    return {
        "beaten": BEATEN,
        "tied": TIED,
        "alone_percent": ALONE_PERCENT,
        "result": "outcome (win > draw > loss), then the margin (own final score minus the opponent's)",
        "computer": "a computer's result scores nothing and is compared with nobody's",
    }
