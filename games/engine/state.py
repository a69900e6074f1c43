"""The game state, dealing, round ends, and the game-level commands.

``State`` is an immutable named tuple. Hands and sets of tiles are kept as
28-bit integers (bit ``Tile.index``); the public tuple views (``hands``,
``boneyard``, ``line``, ``history``) are computed on demand. The round's log
is a linked list of small tuples, newest first, so that a move costs O(1).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

from .actions import End
from .deal import Seed, check_seed, deal_hands, shuffled_order
from .errors import IllegalAction
from .records import HistoryEntry, RoundResult
from .rules import Rules
from .tiles import ALL_TILES_MASK, DOUBLES_MASK, HIGHS, LOWS, PIPS, TILES, Tile, tiles_of

__all__ = ["State", "agree_draw", "new_game", "next_round", "resign"]

# A log node: (seat, kind, tile index or -1, end 0/1 or -1, left before, right before, older node)
LogNode = tuple[int, int, int, int, int, int, "LogNode | None"]
PLAY, DRAW, PASS = 0, 1, 2
_ENDS = (End.LEFT, End.RIGHT)


class _Fields(NamedTuple):
    rules: Rules
    seed: Seed
    round: int
    hand_bits: tuple[int, ...]
    pile: tuple[int, ...]
    drawn: int
    left_end: int
    right_end: int
    table_bits: int
    log: LogNode | None
    to_move: int | None
    opener: int
    scores: tuple[int, ...]
    round_result: RoundResult | None
    round_over: bool
    game_over: bool
    winner: int | None
    end_reason: str | None
    resigned: int | None


class State(_Fields):
    """A game at one moment (immutable; a move returns a new State).

    Public fields: ``rules``, ``seed`` (server side only), ``round`` (1-based),
    ``to_move`` (None when the round or game is over), ``opener`` (the seat that
    opened this round), ``scores`` (by seat, or by team with pairs),
    ``round_result``, ``round_over``, ``game_over``, ``winner`` (the game's
    winner: seat, or team with pairs; None while playing or for a draw),
    ``end_reason`` ("target", "single_round", "agreed_draw", "resigned" or None)
    and ``resigned`` (the seat that resigned, else None).

    Engine internals (bit sets, the undealt pile, the move log) are fields too
    (``hand_bits``, ``pile``, ``drawn``, ``left_end``, ``right_end``,
    ``table_bits``, ``log``); read the properties instead.
    """

    __slots__ = ()

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


_new_state = tuple.__new__


def make_state(*fields: object) -> State:
    """Build a State from its 19 fields in order (no checks: engine internal)."""
    return _new_state(State, fields)


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


# -- dealing and opening -----------------------------------------------------


def new_game(
    rules: Rules,
    seed: Seed = 0,
    *,
    hands: Sequence[Sequence[Tile]] | None = None,
    boneyard: Sequence[Tile] | None = None,
) -> State:
    """Start a game: deal round 1 from ``seed`` (or use the explicit ``hands``).

    With ``hands`` (by seat), ``boneyard`` is the drawing order (``boneyard[0]``
    is drawn first); without it the remaining tiles form the boneyard in the
    seed's order. Tiles in neither are out of play. Later rounds are dealt from
    the seed. The first round's opening is played automatically: the highest
    double, else the heaviest tile (the higher number breaks equal weights).
    """
    check_seed(seed)
    if not isinstance(rules, Rules):
        raise TypeError("rules must be a Rules")
    if hands is None:
        if boneyard is not None:
            raise ValueError("an explicit boneyard needs explicit hands")
        hand_bits, pile = deal_hands(rules, seed, 1)
    else:
        hand_bits, pile = _explicit_deal(rules, seed, hands, boneyard)
    state = _start_round(rules, seed, 1, hand_bits, pile, 0, (0,) * rules.sides)
    return _open_automatically(state)


def _explicit_deal(
    rules: Rules, seed: Seed, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile] | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if len(hands) != rules.players:
        raise ValueError(f"{rules.players} hands expected, got {len(hands)}")
    seen = 0
    hand_bits = []
    for seat, hand in enumerate(hands):
        if not hand:
            raise ValueError(f"seat {seat}'s hand is empty")
        bits = 0
        for tile in hand:
            if not isinstance(tile, Tile):
                raise TypeError(f"hands hold Tile objects, got {tile!r}")
            bit = 1 << tile.index
            if seen & bit:
                raise ValueError(f"{tile} is dealt twice")
            seen |= bit
            bits |= bit
        hand_bits.append(bits)
    if boneyard is None:
        pile = tuple(i for i in shuffled_order(seed, 1, 0) if not seen >> i & 1)
    else:
        pile_list = []
        for tile in boneyard:
            if not isinstance(tile, Tile):
                raise TypeError(f"the boneyard holds Tile objects, got {tile!r}")
            bit = 1 << tile.index
            if seen & bit:
                raise ValueError(f"{tile} is dealt twice")
            seen |= bit
            pile_list.append(tile.index)
        pile = tuple(pile_list)
    return tuple(hand_bits), pile


def _start_round(
    rules: Rules,
    seed: Seed,
    round_no: int,
    hand_bits: tuple[int, ...],
    pile: tuple[int, ...],
    opener: int,
    scores: tuple[int, ...],
) -> State:
    return make_state(
        rules, seed, round_no, hand_bits, pile, 0, -1, -1, 0, None, opener, opener, scores,
        None, False, False, None, None, None,
    )  # fmt: skip


def opening_tile(hand_bits: Sequence[int]) -> tuple[int, int]:
    """(seat, tile index) of the first round's automatic opening."""
    dealt = 0
    for bits in hand_bits:
        dealt |= bits
    doubles = dealt & DOUBLES_MASK
    if doubles:
        index = doubles.bit_length() - 1  # doubles are in increasing order of index
    else:
        index = max(
            (i for i in range(28) if dealt >> i & 1),
            key=lambda i: (PIPS[i], HIGHS[i]),
        )
    for seat, bits in enumerate(hand_bits):
        if bits >> index & 1:
            return seat, index
    raise AssertionError("the opening tile is in a hand")


def _open_automatically(state: State) -> State:
    from .moves import play_tile  # moves imports this module

    seat, index = opening_tile(state.hand_bits)
    start = state._replace(opener=seat, to_move=seat)
    return play_tile(start, seat, index, False)


def next_round(state: State) -> State:
    """Deal the next round from the game's seed (after a round, before the game ends).

    The opener is the seat after the previous opener ("next"), or the previous
    round's winner ("winner"; the seat after the previous opener when nobody
    won). The opener lays any tile of their choice on the left.
    """
    if not state.round_over:
        raise IllegalAction("the round is not over yet", code="illegal")
    if state.game_over:
        raise IllegalAction("the game is over", code="game_over")
    rules = state.rules
    result = state.round_result
    if rules.next_opener == "winner" and result is not None and result.winner is not None:
        opener = result.winner
    else:
        opener = (state.opener + 1) % rules.players
    round_no = state.round + 1
    hand_bits, pile = deal_hands(rules, state.seed, round_no)
    return _start_round(rules, state.seed, round_no, hand_bits, pile, opener, state.scores)


# -- ending rounds and games --------------------------------------------------


def hand_pips(bits: int) -> int:
    total = 0
    while bits:
        low_bit = bits & -bits
        total += PIPS[low_bit.bit_length() - 1]
        bits ^= low_bit
    return total


def blocked_winner(rules: Rules, hand_bits: Sequence[int], opener: int) -> int | None:
    """The seat that wins a blocked round, or None (tie under "nobody"/"draw")."""
    players = rules.players
    pips = [hand_pips(bits) for bits in hand_bits]
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


def finish_round(state: State, winner: int | None, blocked: bool) -> State:
    """Score a finished round (``state`` holds the final hands) and end the game if due."""
    rules = state.rules
    team: int | None = None
    points = 0
    scores = state.scores
    game_over = rules.target == 0
    game_winner: int | None = None
    if winner is not None:
        pips = [hand_pips(bits) for bits in state.hand_bits]
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
    return state._replace(
        to_move=None,
        scores=scores,
        round_result=RoundResult(winner, team, points, blocked),
        round_over=True,
        game_over=game_over,
        winner=game_winner,
        end_reason=reason,
    )


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
