"""The game state, dealing, round ends, and the game-level commands.

``State`` is an immutable named tuple. Hands and sets of tiles are kept as
28-bit integers (bit ``Tile.index``); the public tuple views (``hands``,
``boneyard``, ``line``, ``history``) are computed on demand. The round's log
is a linked list of small tuples, newest first, so that a move costs O(1).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from .actions import End
from .deal import Seed
from .errors import IllegalAction
from .records import HistoryEntry, RoundResult
from .rules import Rules
from .tiles import ALL_TILES_MASK, HIGHS, LOWS, PIPS, TILES, Tile, tiles_of

__all__ = ["State", "agree_draw", "resign"]

# A log node: (seat, kind, tile index or -1, end 0/1 or -1, left before, right before, older node)
LogNode = tuple[int, int, int, int, int, int, "LogNode | None"]
PLAY, DRAW, PASS = 0, 1, 2
_ENDS = (End.LEFT, End.RIGHT)


# What stays the same through a round: rules, seed, round number, the undealt
# pile (indices, drawing order), the opener and the scores at the round's start.
Core = tuple[Rules, Seed, int, tuple[int, ...], int, tuple[int, ...]]
# How the round or game ended: round_result, round_over, game_over, winner,
# end_reason, resigned. None while the round is being played.
Ending = tuple[RoundResult | None, bool, bool, int | None, str | None, int | None]
# The state: core, hand bits, drawn, left end, right end, table bits, log, to_move, ending.
StateData = tuple[Core, tuple[int, ...], int, int, int, int, "LogNode | None", int | None, Ending | None]

FIELDS: tuple[str, ...] = (
    "rules",
    "seed",
    "round",
    "hand_bits",
    "pile",
    "drawn",
    "left_end",
    "right_end",
    "table_bits",
    "log",
    "to_move",
    "opener",
    "scores",
    "round_result",
    "round_over",
    "game_over",
    "winner",
    "end_reason",
    "resigned",
)
"""The public fields, in the order of ``make_state``'s arguments."""


class State:
    """A game at one moment. Immutable: a move returns a new State.

    Every field is a read-only property (see ``FIELDS``); the engine keeps them
    in one plain tuple, ``_d``, which it unpacks in one step on the hot path.
    States compare equal when all their fields are equal.
    """

    __slots__ = ("_d",)
    _d: StateData

    def __eq__(self, other: object) -> bool:
        if isinstance(other, State):
            return self._d == other._d
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._d)

    def __repr__(self) -> str:
        return f"State(round={self.round}, to_move={self.to_move}, ends={self.ends}, scores={self.scores})"

    def __reduce__(self) -> tuple[object, tuple[StateData]]:
        return (_from_data, (self._d,))

    def _replace(self, **changes: object) -> State:
        """A copy with some fields changed (engine internal)."""
        values: list[Any] = [getattr(self, name) for name in FIELDS]
        for name, value in changes.items():
            values[_FIELD_INDEX[name]] = value
        return make_state(*values)

    @property
    def rules(self) -> Rules:
        """The game's Rules."""
        return self._d[0][0]

    @property
    def seed(self) -> Seed:
        """The game's seed (server side only)."""
        return self._d[0][1]

    @property
    def round(self) -> int:
        """The round number, 1-based."""
        return self._d[0][2]

    @property
    def hand_bits(self) -> tuple[int, ...]:
        """Each seat's hand as a 28-bit set (engine internal; see ``hands``)."""
        return self._d[1]

    @property
    def pile(self) -> tuple[int, ...]:
        """The round's undealt tiles in drawing order, as indices (engine internal)."""
        return self._d[0][3]

    @property
    def drawn(self) -> int:
        """How many tiles of ``pile`` have been drawn (engine internal)."""
        return self._d[2]

    @property
    def left_end(self) -> int:
        """The number on the left end, -1 before the first tile (see ``ends``)."""
        return self._d[3]

    @property
    def right_end(self) -> int:
        """The number on the right end, -1 before the first tile (see ``ends``)."""
        return self._d[4]

    @property
    def table_bits(self) -> int:
        """The tiles on the line as a 28-bit set (engine internal)."""
        return self._d[5]

    @property
    def log(self) -> LogNode | None:
        """This round's actions, newest first, as linked tuples (see ``history``)."""
        return self._d[6]

    @property
    def to_move(self) -> int | None:
        """The seat to act; None when the round or the game is over."""
        return self._d[7]

    @property
    def opener(self) -> int:
        """The seat that opened this round."""
        return self._d[0][4]

    @property
    def scores(self) -> tuple[int, ...]:
        """Game scores by seat, or by pair (two entries) with teams."""
        return self._d[0][5]

    @property
    def round_result(self) -> RoundResult | None:
        """How the round ended (None while it is on)."""
        ending = self._d[8]
        return None if ending is None else ending[0]

    @property
    def round_over(self) -> bool:
        """True once the round has ended (also after an agreed draw or a resignation)."""
        ending = self._d[8]
        return False if ending is None else ending[1]

    @property
    def game_over(self) -> bool:
        """True once the game has ended."""
        ending = self._d[8]
        return False if ending is None else ending[2]

    @property
    def winner(self) -> int | None:
        """The game's winner: a seat, or a pair with teams; None while playing or for a draw."""
        ending = self._d[8]
        return None if ending is None else ending[3]

    @property
    def end_reason(self) -> str | None:
        """Why the game ended: "target", "single_round", "agreed_draw", "resigned", or None."""
        ending = self._d[8]
        return None if ending is None else ending[4]

    @property
    def resigned(self) -> int | None:
        """The seat that resigned, else None."""
        ending = self._d[8]
        return None if ending is None else ending[5]

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Every hand by seat, tiles in increasing order (server side only)."""
        return tuple(tiles_of(bits) for bits in self.hand_bits)

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return tuple(bits.bit_count() for bits in self.hand_bits)

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The boneyard in drawing order (empty in the block game; server side only)."""
        if not self.rules.draw:
            return ()
        return tuple(TILES[i] for i in self.pile[self.drawn :])

    @property
    def boneyard_count(self) -> int:
        return len(self.pile) - self.drawn if self.rules.draw else 0

    @property
    def undealt(self) -> tuple[Tile, ...]:
        """Tiles out of play this round (set aside in the block game)."""
        return tiles_of(self.undealt_bits)

    @property
    def undealt_bits(self) -> int:
        used = self.table_bits
        for bits in self.hand_bits:
            used |= bits
        if self.rules.draw:
            for index in self.pile[self.drawn :]:
                used |= 1 << index
        return ALL_TILES_MASK & ~used

    @property
    def undealt_count(self) -> int:
        return self.undealt_bits.bit_count()

    @property
    def ends(self) -> tuple[int, int] | None:
        """(left number, right number), or None before the first tile."""
        if self.left_end < 0:
            return None
        return (self.left_end, self.right_end)

    @property
    def line(self) -> tuple[tuple[Tile, tuple[int, int]], ...]:
        """The line from left to right: (tile, (a, b) as laid, a on the left)."""
        return tuple((Tile(a, b), (a, b)) for a, b in line_of(self.log))

    @property
    def history(self) -> tuple[HistoryEntry, ...]:
        """Every action of the current round, oldest first, with drawn tiles."""
        return tuple(_entry(node, True) for node in log_nodes(self.log))

    def team_of(self, seat: int) -> int | None:
        """The pair of a seat (0 for seats 0+2, 1 for seats 1+3), None without pairs."""
        return seat % 2 if self.rules.teams else None


_FIELD_INDEX = {name: index for index, name in enumerate(FIELDS)}
_new_object = object.__new__


def _from_data(data: StateData) -> State:
    state = _new_object(State)
    state._d = data
    return state


def make_state(*fields: Any) -> State:
    """Build a State from its 19 public fields in ``FIELDS`` order (no checks: engine internal)."""
    if len(fields) != len(FIELDS):
        raise TypeError(f"a State has {len(FIELDS)} fields, got {len(fields)}")
    (rules, seed, round_no, hands, pile, drawn, left, right, table, log, to_move, opener, scores,
     result, round_over, game_over, winner, reason, resigned) = fields  # fmt: skip
    ending = (result, round_over, game_over, winner, reason, resigned)
    return _from_data(
        (
            (rules, seed, round_no, tuple(pile), opener, tuple(scores)),
            tuple(hands), drawn, left, right, table, log, to_move,
            None if ending == _PLAYING else ending,
        )
    )  # fmt: skip


_PLAYING = (None, False, False, None, None, None)


def log_nodes(log: LogNode | None) -> list[LogNode]:
    """The log's nodes, oldest first."""
    nodes: list[LogNode] = []
    while log is not None:
        nodes.append(log)
        log = log[6]
    nodes.reverse()
    return nodes


def line_of(log: LogNode | None) -> tuple[tuple[int, int], ...]:
    """The line as (a, b) pairs from left to right, rebuilt from the log."""
    line: deque[tuple[int, int]] = deque()
    for _seat, kind, index, end, left, right, _older in log_nodes(log):
        if kind != PLAY:
            continue
        low, high = LOWS[index], HIGHS[index]
        if left < 0:
            line.append((low, high))
        elif end == 0:
            line.appendleft((high if low == left else low, left))
        else:
            line.append((right, high if low == right else low))
    return tuple(line)


def _entry(node: LogNode, show_draw: bool) -> HistoryEntry:
    seat, kind, index, end, left, right, _ = node
    tile = TILES[index] if index >= 0 and (kind == PLAY or show_draw) else None
    return HistoryEntry(
        seat,
        "play" if kind == PLAY else "draw" if kind == DRAW else "pass",
        tile,
        _ENDS[end] if end >= 0 else None,
        (left, right) if left >= 0 else None,
    )


def history_for(log: LogNode | None, seat: int | None) -> tuple[HistoryEntry, ...]:
    """The history as ``seat`` may see it: other seats' drawn tiles hidden."""
    return tuple(_entry(node, node[1] != DRAW or node[0] == seat) for node in log_nodes(log))


# -- ending rounds and games --------------------------------------------------


# Pips of a bit set by four lookups of 7 bits each.
_PIP_CHUNKS = tuple(
    tuple(sum(PIPS[chunk * 7 + k] for k in range(7) if value >> k & 1) for value in range(128))
    for chunk in range(4)
)
_P0, _P1, _P2, _P3 = _PIP_CHUNKS


def hand_pips(bits: int) -> int:
    """Total pips of a bit set of tiles."""
    return _P0[bits & 127] + _P1[bits >> 7 & 127] + _P2[bits >> 14 & 127] + _P3[bits >> 21]


def blocked_winner(rules: Rules, pips: Sequence[int], opener: int) -> int | None:
    """The seat that wins a blocked round given each hand's pips, or None (a tie
    under ``blocked_tie`` "nobody" or "draw")."""
    players = rules.players
    lightest = min(pips)
    # the tied seats in turn order starting from the opener
    tied = [s % players for s in range(opener, opener + players) if pips[s % players] == lightest]
    if len(tied) == 1:
        return tied[0]
    if rules.teams and len({s % 2 for s in tied}) == 1:
        return tied[0]  # partners tied: their pair wins, no tie
    if rules.blocked_tie == "opener":
        return tied[0]
    return None


_RESULTS: dict[tuple[int | None, int | None, int, bool], RoundResult] = {}


def finish_round(
    core: Core,
    hands: tuple[int, ...],
    drawn: int,
    left: int,
    right: int,
    table: int,
    log: LogNode | None,
    domino: int | None,
) -> State:
    """The state at the end of a round: ``domino`` is the seat that laid its last
    tile, None for a blocked round. Scores the round and ends the game if due."""
    rules, seed, round_no, pile, opener, scores = core
    pips = [_P0[b & 127] + _P1[b >> 7 & 127] + _P2[b >> 14 & 127] + _P3[b >> 21] for b in hands]
    blocked = domino is None
    winner = blocked_winner(rules, pips, opener) if domino is None else domino
    team: int | None = None
    points = 0
    game_over = rules.target == 0
    game_winner: int | None = None
    if winner is not None:
        if rules.teams:
            team = winner % 2
            if rules.team_scoring == "all_others":
                points = sum(pips) - pips[winner]
            else:
                points = sum(p for s, p in enumerate(pips) if s % 2 != team)
            side = team
        else:
            points = sum(pips) - pips[winner]
            side = winner
        new_scores = list(scores)
        new_scores[side] += points
        scores = tuple(new_scores)
        if game_over or scores[side] >= rules.target:
            game_over = True
            game_winner = side
    reason = ("single_round" if rules.target == 0 else "target") if game_over else None
    key = (winner, team, points, blocked)
    result = _RESULTS.get(key)
    if result is None:
        result = _RESULTS[key] = RoundResult(winner, team, points, blocked)
    state = _new_object(State)
    state._d = (
        (rules, seed, round_no, pile, opener, scores), hands, drawn, left, right, table, log, None,
        (result, True, game_over, game_winner, reason, None),
    )  # fmt: skip
    return state


def agree_draw(state: State) -> State:
    """End the game drawn, by agreement (winner None; scores unchanged)."""
    if state.game_over:
        raise IllegalAction("the game is over", code="game_over")
    return state._replace(
        to_move=None, round_over=True, game_over=True, winner=None, end_reason="agreed_draw"
    )


def resign(state: State, seat: int) -> State:
    """End the game against ``seat``.

    Two players: the other seat wins. Pairs: the other pair wins. Three or four
    players: among the other seats, the highest game score wins; a tie goes to
    the lighter hand now held (as if the round were blocked now), then to the
    seat nearest after the resigning one in turn order.
    """
    if state.game_over:
        raise IllegalAction("the game is over", code="game_over")
    rules = state.rules
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise IllegalAction(f"no seat {seat!r} at this table")
    winner: int
    if rules.teams:
        winner = 1 - seat % 2
    else:
        others = [(seat + k) % rules.players for k in range(1, rules.players)]
        winner = min(
            others,
            key=lambda s: (-state.scores[s], hand_pips(state.hand_bits[s]), others.index(s)),
        )
    return state._replace(
        to_move=None, round_over=True, game_over=True, winner=winner, end_reason="resigned", resigned=seat
    )
