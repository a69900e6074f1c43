"""The scoring of an arena tournament and its standings, as plain functions
(docs/tournaments.md).

Plain Python over the engine's final state of a game: the site's tournaments
app scores each finished game with these functions, and the tournament
verifier (``games.verifier.tournament``) recomputes every score and the
standings of a published results file with the same ones.

A duel's result for one player:

- a win scores ``WIN`` (2), a draw ``DRAW`` (1), a loss 0;
- after two wins in a row the player is *on fire*: each next result counts
  double (a win 4, a draw 2) until a game is not won;
- berserk (chosen before the first move: half the turn time) adds
  ``BERSERK_BONUS`` (1, never doubled) to a win in which the player laid at
  least ``BERSERK_TILES`` (3) tiles;
- a draw agreed before the first round is over scores nothing (and, not being
  a win, ends a streak);
- an *abort* (a resignation or agreed draw before any tile beyond the opening,
  as games/outcome.py says for ratings) was not played: 0 for both, and the
  streaks do not change.

The standings rank by points, then wins, then the order of joining.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.engine import State

WIN = 2
DRAW = 1
LOSS = 0
STREAK_AFTER = 2
"""Wins in a row after which the next results count double."""
BERSERK_BONUS = 1
BERSERK_TILES = 3
BERSERK_TURN_PERCENT = 50
"""A berserk player's share of the turn time, in percent (the table's clock:
``Seat.turn_percent``, games.live.clock)."""

WINNING = "win"
DRAWN = "draw"
LOST = "loss"


@dataclass(frozen=True, slots=True)
class Facts:
    """What a finished game is to one of its players, for the scoring."""

    outcome: str  # "win", "draw" or "loss"
    tiles_laid: int = 0
    berserk: bool = False
    quick_draw: bool = False  # agreed drawn before the first round was over
    aborted: bool = False  # not played (games/outcome.py)


def ended_at_opening(state: State) -> bool:
    """The game ended by resignation or agreement before any tile beyond the
    opening: an abort (the same rule as games/outcome.py, on the same state)."""
    return (
        state.game_over
        and state.end_reason in ("resigned", "agreed_draw")
        and state.round == 1
        and state.round_result is None
        and state.table_bits.bit_count() <= 1
    )


def quick_draw(state: State) -> bool:
    """Agreed drawn before the first round was over."""
    return state.game_over and state.end_reason == "agreed_draw" and state.round == 1 and state.round_result is None


def outcome_of(state: State, seat: int) -> str:
    """A duel's result for ``seat``: "win", "draw" or "loss"."""
    if not state.game_over:
        raise ValueError("the game is not over")
    if state.winner is None:
        return DRAWN
    return WINNING if state.winner == seat else LOST


def facts_of(state: State, seat: int, *, tiles_laid: int, berserk: bool) -> Facts:
    """The facts of a finished duel for ``seat``, from the engine's final state."""
    return Facts(
        outcome=outcome_of(state, seat),
        tiles_laid=tiles_laid,
        berserk=berserk,
        quick_draw=quick_draw(state),
        aborted=ended_at_opening(state),
    )


def score(facts: Facts, streak: int) -> tuple[int, int]:
    """(points, the streak after) of one result, given the wins in a row before it."""
    if facts.outcome not in (WINNING, DRAWN, LOST):
        raise ValueError(f"unknown outcome {facts.outcome!r}")
    if facts.aborted:
        return 0, streak
    if facts.outcome == WINNING:
        base = WIN
    elif facts.outcome == DRAWN and not facts.quick_draw:
        base = DRAW
    else:
        base = LOSS
    points = base * 2 if streak >= STREAK_AFTER else base
    if facts.outcome == WINNING and facts.berserk and facts.tiles_laid >= BERSERK_TILES:
        points += BERSERK_BONUS
    return points, streak + 1 if facts.outcome == WINNING else 0


@dataclass(slots=True)
class Sheet:
    """One player's running total."""

    player: str
    order: int  # the order of joining (the last tie-break)
    points: int = 0
    streak: int = 0
    wins: int = 0
    games: int = 0
    results: list[int] = field(default_factory=list)

    def add(self, facts: Facts) -> int:
        """Score one result (in the order the games were scored); returns its points."""
        points, self.streak = score(facts, self.streak)
        self.points += points
        if not facts.aborted:
            self.games += 1
            self.wins += facts.outcome == WINNING
        self.results.append(points)
        return points


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    score: int
    wins: int
    games: int


def rank_key(sheet: Sheet) -> tuple[int, int, int]:
    return (-sheet.points, -sheet.wins, sheet.order)


def standings(sheets: Iterable[Sheet]) -> list[Standing]:
    """The standings: by points, then wins, then the order of joining; ranks 1, 2, ..."""
    ordered = sorted(sheets, key=rank_key)
    return [
        Standing(rank=index, player=sheet.player, score=sheet.points, wins=sheet.wins, games=sheet.games)
        for index, sheet in enumerate(ordered, start=1)
    ]


def replay_standings(
    players: Sequence[str], games: Iterable[Sequence[tuple[str, Facts]]]
) -> tuple[dict[str, Sheet], list[list[int]], list[Standing]]:
    """Every player's sheet, each game's points (in its seats' order) and the
    standings, from the players (in the order of joining) and the games in the
    order they were scored."""
    sheets = {player: Sheet(player=player, order=index) for index, player in enumerate(players)}
    points: list[list[int]] = []
    for game in games:
        row: list[int] = []
        for player, facts in game:
            if player not in sheets:
                raise ValueError(f"{player!r} is not a player of the tournament")
            row.append(sheets[player].add(facts))
        points.append(row)
    return sheets, points, standings(sheets.values())
