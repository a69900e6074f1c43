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

A four-player free-for-all game (mode "four") scores by placement:

- the places: the game's winner first, a player who resigned last, the others
  by their game score, equal scores sharing the better place
  (``placements``); each place scores ``PLACE_POINTS`` (5, 3, 1, 0), a shared
  place the points of the better one (two second places score 3 each, the
  next player is fourth);
- a drawn game (agreed, nobody won) scores ``FOUR_DRAW`` (2) for everyone,
  nothing when agreed before the first round was over;
- the streak counts first places: after two in a row each next result counts
  double until a game is not won (a first place is the "win" of the facts);
- berserk adds ``BERSERK_BONUS`` to a first place with at least
  ``BERSERK_TILES`` tiles laid, as in duels;
- an abort scores nothing and keeps the streaks, as in duels.

The standings rank by points, then wins (first places), then the order of joining.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.engine import Event, EventKind, State

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

PLACE_POINTS = (5, 3, 1, 0)
"""The points of the 1st, 2nd, 3rd and 4th places of a four-player game."""
FOUR_DRAW = 2
"""Each player's points of a drawn four-player game (about the mean place's)."""
FOUR_PLAYERS = len(PLACE_POINTS)
FOUR_MODE = "four"
"""The ranked mode (games/play/modes.py) of the four-player free-for-all arena."""


def players_of(mode: str) -> int:
    """The players of each game of an arena in ``mode``: 4 for the free-for-all, else 2."""
    return FOUR_PLAYERS if mode == FOUR_MODE else 2

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
    players: int = 2  # 2 (a duel) or 4 (a free-for-all, scored by place)
    place: int | None = None  # a four-player game's place (1 = first); None in a duel or a draw

    def __post_init__(self) -> None:
        if self.players not in (2, FOUR_PLAYERS):
            raise ValueError(f"an arena game has 2 or 4 players, not {self.players!r}")
        if self.players == 2 and self.place is not None:
            raise ValueError("a duel has no places")
        if self.players == FOUR_PLAYERS and not self.aborted:
            if self.outcome == DRAWN and self.place is not None:
                raise ValueError("a drawn four-player game has no places")
            if self.outcome != DRAWN and (self.place is None or not 1 <= self.place <= FOUR_PLAYERS):
                raise ValueError(f"no place {self.place!r} in a four-player game")
            if self.place is not None and (self.outcome == WINNING) != (self.place == 1):
                raise ValueError("a four-player game is won by its first place")


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


def placements(scores: Sequence[int], *, winner: int | None, resigned: int | None = None) -> list[int]:
    """Each seat's place (1 = best) in a finished free-for-all game: the winner
    first, a seat that resigned last, the others by game score, equal scores
    sharing the better place (1, 2, 2, 4). A drawn game (no winner, nobody
    resigned) places everyone first."""
    seats = range(len(scores))
    if winner is None and resigned is None:
        return [1 for _ in seats]

    def key(seat: int) -> tuple[bool, bool, int]:
        return (seat == resigned, seat != winner, -scores[seat])

    order = sorted(seats, key=key)
    places = [0] * len(scores)
    for position, seat in enumerate(order, start=1):
        earlier = order[position - 2] if position > 1 else None
        places[seat] = places[earlier] if earlier is not None and key(earlier) == key(seat) else position
    return places


def place_of(state: State, seat: int) -> int:
    """``seat``'s place in a finished four-player game (``placements``)."""
    if not state.game_over:
        raise ValueError("the game is not over")
    return placements(state.scores, winner=state.winner, resigned=state.resigned)[seat]


def tiles_laid(events: Iterable[Event]) -> dict[int, int]:
    """How many tiles each seat laid in a game (its plays): the count the berserk
    bonus needs (``BERSERK_TILES``). The site counts the stored moves
    (``Event.from_row``), the verifier the replay's actions (``Event.from_json``)."""
    laid: dict[int, int] = {}
    for event in events:
        if event.kind is EventKind.PLAY and event.seat is not None:
            laid[event.seat] = laid.get(event.seat, 0) + 1
    return laid


def facts_of(state: State, seat: int, *, tiles_laid: int, berserk: bool) -> Facts:
    """The facts of a finished game for ``seat``, from the engine's final
    state: a duel's result, or a four-player game's place (then ``outcome``
    is "win" for the first place, "draw" for a drawn game, else "loss")."""
    if state.players == FOUR_PLAYERS and not state.rules.teams:
        return Facts(
            outcome=outcome_of(state, seat),
            tiles_laid=tiles_laid,
            berserk=berserk,
            quick_draw=quick_draw(state),
            aborted=ended_at_opening(state),
            players=FOUR_PLAYERS,
            place=None if state.winner is None else place_of(state, seat),
        )
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
    if facts.players == FOUR_PLAYERS:
        if facts.outcome == DRAWN:
            base = LOSS if facts.quick_draw else FOUR_DRAW
        else:
            base = PLACE_POINTS[(facts.place or FOUR_PLAYERS) - 1]
    elif facts.outcome == WINNING:
        base = WIN
    elif facts.outcome == DRAWN and not facts.quick_draw:
        base = DRAW
    else:
        base = LOSS
    points = base * 2 if streak >= STREAK_AFTER else base  # on fire
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
