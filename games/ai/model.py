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
from collections.abc import Sequence

from .knowledge import Choice
from .medium import W_DOUBLE, W_EXPOSED, W_FEED, W_FOLLOW, W_PARTNER_BLOCK, W_PIPS, W_SPREAD, W_VOID
from .sim import (
    ALL_TILES,
    ENDS_MASK,
    IS_DOUBLE,
    NO_END,
    NUM,
    OTHER,
    OTHER_ROWS,
    PIPS,
    TILES,
    Table,
    distinct_numbers,
    per_seat,
    play_tile,
    round_result,
)

# Sharpness of the choice: 0 makes every legal tile equally likely (no inference). Hard's
# own value is ``HardOptions.temper``; this is the default.
TEMPER = 0.5
# A domino (the last tile) is always laid.
_DOMINO = 1e3

def weights() -> tuple[float, ...]:
    """The tips' weights the model scores with (``games.ai.medium``): pips, double, follow,
    exposed, spread, void, feed, partner block."""
    return (W_PIPS, W_DOUBLE, W_FOLLOW, W_EXPOSED, W_SPREAD, W_VOID, W_FEED, W_PARTNER_BLOCK)


# The terms that depend on the tile alone.
_BASE_SCORE = [W_PIPS * PIPS[i] + (W_DOUBLE if IS_DOUBLE[i] else 0.0) for i in range(28)]


def _seat_terms(players: int, teams: bool) -> list[tuple[tuple[int, float, float], ...]]:
    """For each seat, the other seats in turn order as (seat, term when it cannot follow the
    new ends, term per unseen tile it could follow them with): an opponent that cannot
    follow is good (the next one most), one that can is fed; a partner the reverse."""
    out = []
    for seat in range(players):
        terms = []
        for j in range(1, players):
            other = (seat + j) % players
            weight = 1.0 if j == 1 else 0.5
            opponent = (other % 2 != seat % 2) if teams else True
            if opponent:
                terms.append((other, W_VOID * weight, -W_FEED * weight))
            else:
                terms.append((other, -W_PARTNER_BLOCK, W_FEED))
        out.append(tuple(terms))
    return out


# _SEAT_TERMS[teams][players][seat]
_SEAT_TERMS = [[_seat_terms(n, teams) if n else [] for n in range(5)] for teams in (False, True)]


def placement_scores(
    table: Table, seat: int, hand: int, options: int, left: int, right: int, board: int, voids: tuple[int, ...]
) -> list[tuple[float, int, bool]]:
    """(score, tile, on the left end) of the best way for ``seat`` to lay each tile of ``options``
    (lowest tile first) from ``hand`` (its hand before the play) on ends ``left``/``right`` with
    ``board`` on the table; ``voids[s]``: the tiles of the numbers seat ``s`` is known to lack.
    Of two ways to lay a tile, the left end is kept unless the right one scores more."""
    out = []
    unseen = ALL_TILES & ~hand & ~board  # what the seat cannot see
    n_voids = len(voids)
    # Per next seat: (term when it cannot follow, term per tile it could follow with, the
    # unseen tiles it may hold).
    nexts = [
        (blocked, feed, unseen & ~(voids[other] if other < n_voids else 0))
        for other, blocked, feed in _SEAT_TERMS[table.teams][table.players][seat]
    ]
    on_left_end = OTHER_ROWS[left]
    on_right_end = OTHER_ROWS[right]
    while options:
        low = options & -options
        t = low.bit_length() - 1
        options ^= low
        rest = hand & ~low
        if not rest:
            out.append((_DOMINO, t, True))
            continue
        # Each way to lay it: (numbers then open, the number it exposes, on the left end).
        if left == NO_END:
            a, b = TILES[t]
            ways: tuple[tuple[int, int, bool], ...] = ((NUM[a] | NUM[b], a, True),)
        else:
            x = on_left_end[t]
            y = on_right_end[t]
            if x >= 0:
                if y >= 0 and left != right:
                    ways = ((NUM[x] | NUM[right], x, True), (NUM[left] | NUM[y], y, False))
                else:
                    ways = ((NUM[x] | NUM[right], x, True),)
            elif y >= 0:
                ways = ((NUM[left] | NUM[y], y, False),)
            else:
                out.append((-1e9, t, True))  # fits neither end
                continue
        base = _BASE_SCORE[t] + W_SPREAD * distinct_numbers(rest)
        best = -1e9
        best_left = True
        for open_mask, exposed, on_left in ways:
            s = base + W_FOLLOW * (rest & open_mask).bit_count() + W_EXPOSED * (rest & NUM[exposed]).bit_count()
            for blocked, feed, may in nexts:
                follow = (may & open_mask).bit_count()
                s += blocked if not follow else feed * follow
            if s > best:
                best = s
                best_left = on_left
        out.append((best, t, best_left))
    return out


def model_play(
    table: Table, seat: int, hand: int, options: int, left: int, right: int, board: int, voids: tuple[int, ...]
) -> tuple[int, bool]:
    """The play (tile, on the left end) the model finds most natural among ``options``."""
    best = -1e18
    tile, on_left = -1, True
    for s, t, side in placement_scores(table, seat, hand, options, left, right, board, voids):
        if s > best:
            best, tile, on_left = s, t, side
    return tile, on_left


def choices_likelihood(
    table: Table, choices: list[Choice], held: list[list[int]], temper: float | Sequence[float],
    tremble: float | Sequence[float] = 0.0,
) -> float:
    """Likelihood of the other seats' observed plays in one deal (``held[seat][tiers]``: see ``Dealer``);
    ``temper`` the model's sharpness, one for every seat or one per seat; ``tremble`` (the same)
    the probability that a seat lays a tile at random instead (each of its tiles that fit then
    alike): a play is (1 - tremble) times the model's probability plus tremble / tiles."""
    tempers = per_seat(temper, table.players)
    trembles = per_seat(tremble, table.players)
    weight = 1.0
    for c in choices:
        sharp = tempers[c.seat]
        hand = held[c.seat][c.tiers] | c.later
        options = hand & c.fit
        if options & (options - 1) == 0:
            continue
        scores = []
        chosen = 0.0
        for s, t, _on_left in placement_scores(table, c.seat, hand, options, c.left, c.right, c.board, c.voids):
            scores.append(s)
            if t == c.tile:
                chosen = s
        top = max(scores)
        total = sum(math.exp(sharp * (s - top)) for s in scores)
        odd = trembles[c.seat]
        weight *= (1.0 - odd) * math.exp(sharp * (chosen - top)) / total + odd / len(scores)
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
    track_voids: bool = True,
) -> tuple[int, int, int]:
    """Play the round to its end, every seat laying the model's favourite tile; return
    (winning side, points, model evaluations). ``hands`` and ``bone`` are consumed
    (``bone.pop()`` draws). ``voids`` (what each seat is known to lack) grows with the passes
    when ``track_voids`` (the model's choices then react to it, as medium's do); a draw does
    not change it."""
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
            if track_voids:
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
