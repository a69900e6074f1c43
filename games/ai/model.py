"""How likely another seat's observed play is, in one deal: the opponent model of ``hard``.

When a seat lays a tile while it could have laid others, the deals in which
that choice looks natural should count more than those where it looks odd.
The model scores every tile the seat could have laid then, in the hand the
deal gives it, with the terms of the tips of seed 003 (the ones ``medium``
follows and good players know): heavy tiles and doubles first, ends it can
follow itself (the exposed number above all), a spread of numbers, ends the
next players are known to lack, few unseen tiles that fit the new ends. The
seat is then assumed to pick a tile with probability proportional to
``exp(TEMPER * score)``: likely, not certain, to choose the best one.

Everything it reads is public (the ends, the tiles on the table, the passes
and draws before the play) except the hand, which comes from the deal.
"""
from __future__ import annotations

import math

from .knowledge import Choice
from .medium import W_DOUBLE, W_EXPOSED, W_FEED, W_FOLLOW, W_PARTNER_BLOCK, W_PIPS, W_SPREAD, W_VOID
from .sim import (
    ALL_TILES,
    ENDS_MASK,
    IS_DOUBLE,
    NO_END,
    NUM,
    OTHER,
    PIPS,
    TILES,
    Table,
    distinct_numbers,
    play_tile,
    round_result,
)

# Sharpness of the choice: 0 makes every legal tile equally likely (no inference).
TEMPER = 0.5
# Rollouts update what each seat is known to lack when it passes (the model's choices then
# react to it, as medium's do); False keeps the voids of the decision throughout.
TRACK_VOIDS = True
# A domino (the last tile) is always laid.
_DOMINO = 1e3

# The terms that depend on the tile alone.
_BASE_SCORE = [W_PIPS * PIPS[i] + (W_DOUBLE if IS_DOUBLE[i] else 0.0) for i in range(28)]


def best_placement(
    table: Table, seat: int, hand: int, tile: int, left: int, right: int, board: int, voids: tuple[int, ...]
) -> tuple[float, bool]:
    """(score, on the left end) of the best way for ``seat`` to lay ``tile`` from ``hand`` (its
    hand before the play) on ends ``left``/``right`` with ``board`` on the table; ``voids[s]``:
    the tiles of the numbers seat ``s`` is known to lack."""
    rest = hand & ~(1 << tile)
    if not rest:
        return _DOMINO, True
    if left == NO_END:
        placements = [(TILES[tile], True)]
    else:
        placements = []
        x = OTHER[tile * 7 + left]
        if x >= 0:
            placements.append(((x, right), True))
        y = OTHER[tile * 7 + right]
        if y >= 0 and (left != right or x < 0):
            placements.append(((left, y), False))
    base = _BASE_SCORE[tile] + W_SPREAD * distinct_numbers(rest)
    unseen = ALL_TILES & ~hand & ~board  # what the seat cannot see
    n = table.players
    me_side = table.side(seat)
    best = -1e9
    best_left = True
    for (new_left, new_right), on_left in placements:
        exposed = new_left if on_left else new_right
        open_mask = NUM[new_left] | NUM[new_right]
        s = base + W_FOLLOW * (rest & open_mask).bit_count() + W_EXPOSED * (rest & NUM[exposed]).bit_count()
        for j in range(1, n):
            other = (seat + j) % n
            weight = 1.0 if j == 1 else 0.5
            void = voids[other] if other < len(voids) else 0
            follow = (unseen & ~void & open_mask).bit_count()
            if table.side(other) != me_side:
                s += W_VOID * weight if not follow else -W_FEED * weight * follow
            else:
                s += -W_PARTNER_BLOCK if not follow else W_FEED * follow
        if s > best:
            best = s
            best_left = on_left
    return best, best_left


def play_score(table: Table, c: Choice, hand: int, tile: int) -> float:
    """Score of laying ``tile`` from ``hand`` (the seat's hand before the play) in the situation of ``c``."""
    return best_placement(table, c.seat, hand, tile, c.left, c.right, c.board, c.voids)[0]


def model_play(
    table: Table, seat: int, hand: int, options: int, left: int, right: int, board: int, voids: tuple[int, ...]
) -> tuple[int, bool]:
    """The play (tile, on the left end) the model finds most natural among ``options``."""
    best = -1e18
    tile, on_left = -1, True
    while options:
        low = options & -options
        t = low.bit_length() - 1
        options ^= low
        s, side = best_placement(table, seat, hand, t, left, right, board, voids)
        if s > best:
            best, tile, on_left = s, t, side
    return tile, on_left


def choices_likelihood(table: Table, choices: list[Choice], held: list[list[int]], temper: float) -> float:
    """Likelihood of the other seats' observed plays in one deal (``held[seat][tiers]``: see ``Dealer``)."""
    weight = 1.0
    for c in choices:
        hand = held[c.seat][c.tiers] | c.later
        options = hand & c.fit
        if options & (options - 1) == 0:
            continue
        scores = []
        chosen = 0.0
        while options:
            low = options & -options
            t = low.bit_length() - 1
            options ^= low
            s = play_score(table, c, hand, t)
            scores.append(s)
            if t == c.tile:
                chosen = s
        top = max(scores)
        total = sum(math.exp(temper * (s - top)) for s in scores)
        weight *= math.exp(temper * (chosen - top)) / total
    return weight


def model_move(
    table: Table, seat: int, hand: int, options: int, left: int, right: int, board: int, voids: tuple[int, ...]
) -> tuple[int, bool, int]:
    """``model_play`` among ``options`` (tiles of ``hand`` that fit), plus the model
    evaluations it cost: none for a lone tile with one way to lay it."""
    t = options.bit_length() - 1
    if options & (options - 1) == 0 and (left == NO_END or OTHER[t * 7 + left] < 0 or OTHER[t * 7 + right] < 0):
        return t, left == NO_END or OTHER[t * 7 + left] >= 0, 0
    tile, on_left = model_play(table, seat, hand, options, left, right, board, voids)
    return tile, on_left, options.bit_count()


def with_void(voids: tuple[int, ...], seat: int, left: int, right: int) -> tuple[int, ...]:
    """``voids`` once ``seat`` has passed on ends ``left``/``right``: it holds neither number."""
    if left == NO_END or seat >= len(voids):
        return voids
    lacks = voids[seat] | NUM[left] | NUM[right]
    return (*voids[:seat], lacks, *voids[seat + 1:])


def rollout(
    table: Table,
    hands: list[int],
    bone: list[int],
    left: int,
    right: int,
    board: int,
    seat: int,
    voids: tuple[int, ...],
) -> tuple[int, int, int]:
    """Play the round to its end, every seat laying the model's favourite tile; return
    (winning side, points, model evaluations). ``hands`` and ``bone`` are consumed
    (``bone.pop()`` draws). ``voids`` (what each seat is known to lack) grows with the passes
    (``TRACK_VOIDS``); a draw does not change it."""
    n = table.players
    closed = table.closed_board or not table.draw
    passes = 0
    work = 0
    while True:
        h = hands[seat]
        fit = ENDS_MASK[left * 8 + right]
        m = h & fit
        if not m and table.draw:
            while bone:
                t = bone.pop()
                h |= 1 << t
                if fit >> t & 1:
                    m = 1 << t
                    break
            hands[seat] = h
        if not m:
            passes += 1
            if passes >= n:
                return (*round_result(table, hands, -1), work)
            if TRACK_VOIDS:
                voids = with_void(voids, seat, left, right)
            seat = seat + 1 if seat + 1 < n else 0
            continue
        passes = 0
        t, on_left, cost = model_move(table, seat, h, m, left, right, board, voids)
        work += cost
        h ^= 1 << t
        hands[seat] = h
        board |= 1 << t
        left, right = play_tile(left, right, t, on_left)
        if not h:
            return (*round_result(table, hands, seat), work)
        if closed and left == right and board & NUM[left] == NUM[left]:
            return (*round_result(table, hands, -1), work)
        seat = seat + 1 if seat + 1 < n else 0
