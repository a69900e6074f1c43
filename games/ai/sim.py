"""Bit-set simulator of a dominoes round, used by the search player.

A tile is an index 0..27; a hand, the table or any set of tiles is an ``int``
whose bit ``i`` is set when tile ``i`` is in the set. Everything here is plain
Python integers and lists: no objects per move, no global random. The
simulator knows nothing about views; ``games.ai.knowledge`` turns a view into
the masks used here, and the search player deals the hidden tiles itself.

Rules reproduced (docs/rules-engine.md): two open ends, no spinner; in the draw
game a player who cannot play draws until a tile fits and plays it, and passes
only with the boneyard empty; a round ends on "domino" or blocked (nobody can
play; with ``closed_board`` as soon as both ends show a number whose seven
tiles are all on the table); the lightest hand wins a blocked round, ties per
``blocked_tie``; in pairs the lightest single hand decides the pair.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

N_TILES = 28
ALL_TILES = (1 << N_TILES) - 1

# TILES[i] = (low, high); INDEX[low][high] = INDEX[high][low] = i.
TILES: list[tuple[int, int]] = [(a, b) for a in range(7) for b in range(a, 7)]
INDEX: list[list[int]] = [[0] * 7 for _ in range(7)]
for _i, (_a, _b) in enumerate(TILES):
    INDEX[_a][_b] = INDEX[_b][_a] = _i

PIPS: list[int] = [a + b for a, b in TILES]
IS_DOUBLE: list[bool] = [a == b for a, b in TILES]
DOUBLES = sum(1 << i for i in range(N_TILES) if IS_DOUBLE[i])
# NUM[n]: the seven tiles showing number n.
NUM: list[int] = [sum(1 << i for i, t in enumerate(TILES) if n in t) for n in range(7)]
# OTHER[i * 7 + n]: the other number of tile i laid against n (-1 if i has no n).
OTHER: list[int] = [-1] * (N_TILES * 7)
for _i, (_a, _b) in enumerate(TILES):
    OTHER[_i * 7 + _a] = _b
    OTHER[_i * 7 + _b] = _a
# ENDS_MASK[l * 8 + r]: tiles that fit an end l or r; index 7 stands for "no tile yet".
ENDS_MASK: list[int] = [0] * 64
for _l in range(8):
    for _r in range(8):
        ENDS_MASK[_l * 8 + _r] = ALL_TILES if 7 in (_l, _r) else NUM[_l] | NUM[_r]
NO_END = 7
# OTHER_ROWS[n][i] = OTHER[i * 7 + n], and -2 for every tile on NO_END (no tile yet).
OTHER_ROWS: list[list[int]] = [[OTHER[i * 7 + n] for i in range(N_TILES)] for n in range(7)] + [[-2] * N_TILES]

# Pips of a whole mask by four table look-ups of 7 bits each.
_PIP_CHUNKS: list[list[int]] = [
    [sum(PIPS[c * 7 + k] for k in range(7) if v >> k & 1) for v in range(128)] for c in range(4)
]
_C0, _C1, _C2, _C3 = _PIP_CHUNKS


def mask_pips(mask: int) -> int:
    """Total pips of the tiles in ``mask``."""
    return _C0[mask & 127] + _C1[(mask >> 7) & 127] + _C2[(mask >> 14) & 127] + _C3[mask >> 21]


# The numbers shown by the tiles of a mask (bit n for number n), by the same four look-ups.
_NUMBER_CHUNKS: list[list[int]] = [
    [sum(1 << n for n in range(7) if v & (NUM[n] >> (c * 7)) & 127) for v in range(128)] for c in range(4)
]
_N0, _N1, _N2, _N3 = _NUMBER_CHUNKS


def distinct_numbers(mask: int) -> int:
    """How many different numbers the tiles in ``mask`` show."""
    return (_N0[mask & 127] | _N1[(mask >> 7) & 127] | _N2[(mask >> 14) & 127] | _N3[mask >> 21]).bit_count()


def bits(mask: int) -> list[int]:
    """Tile indices in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(indices: list[int] | tuple[int, ...]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


@dataclass(frozen=True, slots=True)
class Table:
    """The fixed facts of one round that the simulator needs."""

    players: int
    draw: bool
    closed_board: bool
    blocked_tie: str  # "opener" | "nobody" | "draw"
    teams: bool
    team_scoring: str  # "all_others" | "opponents"
    opener: int  # seat that opened the round (blocked ties)

    def side(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    @property
    def sides(self) -> int:
        return 2 if self.teams else self.players


NO_WINNER = -1


def round_result(table: Table, hands: list[int], domino_seat: int) -> tuple[int, int]:
    """(winning side or NO_WINNER, points) of a finished round.

    ``domino_seat`` is the seat that laid its last tile, or -1 for a blocked
    round (the lightest hand wins).
    """
    n = table.players
    if domino_seat >= 0 and not (table.teams and table.team_scoring == "opponents"):
        # The hands are disjoint: the others' pips are the pips of their union.
        rest = 0
        for s in range(n):
            if s != domino_seat:
                rest |= hands[s]
        return table.side(domino_seat), mask_pips(rest)
    pips = [mask_pips(h) for h in hands]
    if domino_seat >= 0:
        winner = domino_seat
    else:
        lightest = min(pips)
        tied = [s for s in range(n) if pips[s] == lightest]
        if len(tied) == 1 or (table.teams and len({s % 2 for s in tied}) == 1):
            winner = tied[0]
        elif table.blocked_tie == "opener":
            winner = next(s for s in ((table.opener + k) % n for k in range(n)) if s in tied)
        else:
            return NO_WINNER, 0
    if table.teams and table.team_scoring == "opponents":
        points = sum(pips[s] for s in range(n) if s % 2 != winner % 2)
    else:
        points = sum(pips) - pips[winner]
    return table.side(winner), points


def playout(
    table: Table,
    hands: list[int],
    bone: list[int],
    left: int,
    right: int,
    board: int,
    seat: int,
    rng: Random,
    eps: float = 0.1,
    policy: tuple[list[int], int] | None = None,
    stream: list[float] | None = None,
) -> tuple[int, int, int]:
    """Play the round to its end from the given position; return (side, points, turns).

    ``hands`` and ``bone`` are consumed (mutated): pass copies. ``bone`` is
    drawn from its end (``bone.pop()``). ``left``/``right`` are the end
    numbers, ``NO_END`` for both before the first tile. Every seat follows the
    same fast policy: mostly the heaviest tile (doubles favoured) that exposes
    a number its owner holds, with a small share of random choices.

    The random numbers are ``rng.random()``'s. To give several playouts the same
    ones (common random numbers) without seeding ``rng`` again for each, pass the
    same ``stream`` list to all: the numbers drawn are kept there and read back by
    the next playout, which draws from ``rng`` only beyond them.
    """
    n = table.players
    draw = table.draw and bool(bone)
    closed = table.closed_board or not table.draw
    num = NUM
    rows = OTHER_ROWS
    base, expose = policy or _POLICY
    ends_mask = ENDS_MASK
    random = rng.random
    if stream is None:
        stream = []
    drawn = len(stream)
    used = 0
    passes = 0
    turns = 0
    while True:
        turns += 1
        h = hands[seat]
        fit = ends_mask[left * 8 + right]
        m = h & fit
        if not m:
            if draw:
                while bone:
                    t = bone.pop()
                    h |= 1 << t
                    if fit >> t & 1:
                        m = 1 << t
                        break
                hands[seat] = h
                draw = bool(bone)
            if not m:
                passes += 1
                if passes >= n:
                    return (*round_result(table, hands, -1), turns)
                seat = seat + 1 if seat + 1 < n else 0
                continue
        passes = 0
        if m & (m - 1) == 0:
            t = m.bit_length() - 1
        else:
            if used < drawn:
                r = stream[used]
            else:
                r = random()
                stream.append(r)
                drawn += 1
            used += 1
            if r < eps:
                if used < drawn:
                    r = stream[used]
                else:
                    r = random()
                    stream.append(r)
                    drawn += 1
                used += 1
                # A tile at random: the k-th lowest of m.
                for _ in range(int(r * m.bit_count())):
                    m &= m - 1
                t = (m & -m).bit_length() - 1
            else:
                best = -1_000
                t = -1
                on_left = rows[left]
                on_right = rows[right]
                while m:
                    low = m & -m
                    i = low.bit_length() - 1
                    m ^= low
                    v = base[i]
                    x = on_left[i]
                    if x >= 0:
                        v += (h & num[x]).bit_count() * expose
                    else:
                        x = on_right[i]
                        if x >= 0:
                            v += (h & num[x]).bit_count() * expose
                    if v > best:
                        best = v
                        t = i
        h ^= 1 << t
        hands[seat] = h
        board |= 1 << t
        if left == NO_END:
            left, right = TILES[t]
        else:
            xl = rows[left][t]
            xr = rows[right][t]
            if xl >= 0 and xr >= 0 and left != right:
                # Fits both ends: expose the number the player holds more of.
                if (h & num[xl]).bit_count() >= (h & num[xr]).bit_count():
                    left = xl
                else:
                    right = xr
            elif xl >= 0:
                left = xl
            else:
                right = xr
        if not h:
            return (*round_result(table, hands, seat), turns)
        if closed and left == right and board & num[left] == num[left]:
            return (*round_result(table, hands, -1), turns)
        seat = seat + 1 if seat + 1 < n else 0


def make_policy(pips: int, double: int, expose: int) -> tuple[list[int], int]:
    """Playout policy: a tile's value is ``pips * weight + double bonus``, plus
    ``expose`` per tile its owner still holds of the number it exposes."""
    return [PIPS[i] * pips + (double if IS_DOUBLE[i] else 0) for i in range(N_TILES)], expose


_POLICY = make_policy(1, 6, 2)


def per_seat(value: float | Sequence[float], players: int) -> list[float]:
    """One number for every seat, or one per seat, as a list of one per seat (the model's
    sharpness and tremble, ``model.choices_likelihood``)."""
    return [float(value)] * players if isinstance(value, (int, float)) else [float(v) for v in value]


def draw_until_fit(hand: int, bone: list[int], fit: int) -> tuple[int, int]:
    """Draw from the end of ``bone`` (consumed) until a tile of ``fit`` comes or it is empty:
    (the hand then, the tiles drawn). At most one tile drawn fits (``drawn & fit``): the one
    the rules lay at once."""
    drawn = 0
    while bone:
        t = bone.pop()
        drawn |= 1 << t
        if fit >> t & 1:
            break
    return hand | drawn, drawn


def play_tile(left: int, right: int, tile: int, on_left: bool) -> tuple[int, int]:
    """New (left, right) after laying ``tile`` on one end (or as first tile)."""
    if left == NO_END:
        return TILES[tile]
    if on_left:
        return OTHER[tile * 7 + left], right
    return left, OTHER[tile * 7 + right]
