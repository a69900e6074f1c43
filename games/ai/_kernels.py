"""The compiled loops of hard's search (numba), the same arithmetic as the Python reference.

Imported by ``games.ai.core`` only when numba is installed and not switched off. Every
function here mirrors one of the pure-Python reference (``knowledge.Dealer.deal`` and
``held_before``, ``sim.playout`` and ``round_result``, ``model.placement_scores``,
``model.rollout``, ``tree.descend``, ``solver.Solver``, ``hard.choice_weight`` and
``model.choices_likelihood``) step for step: the same random numbers drawn in the same
order (a copy of CPython's Mersenne Twister, state handed over by ``Random.getstate``),
the same floating-point operations in the same order, the same tie rules. The tests
(``games/tests/ai/test_core.py``) check that both give the same numbers and decisions.

Everything is passed as arguments (tables, weights, costs): nothing is read from module
globals at run time, so the compiled functions can be cached on disk (``cache=True``).
Masks are int64; tiles are 0..27 as in ``sim``.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """``numba.njit`` with an on-disk cache, releasing the GIL (hints run in threads)."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


Arr = Any  # a numpy array (numba reads the types from the values)

MASK32 = 0xFFFFFFFF
NO_END = 7
NO_WINNER = -1
PASS = -1
# tree.OWN_DRAW
OWN_DRAW = 1 << 28

# ---------------------------------------------------------------- Mersenne Twister (CPython's)


@jit
def mt_next(st: Arr) -> int:
    """``genrand_uint32`` of CPython's ``_random`` over ``st`` (624 words, then the index)."""
    idx = st[624]
    if idx >= 624:
        for kk in range(227):
            y = (st[kk] & 0x80000000) | (st[kk + 1] & 0x7FFFFFFF)
            st[kk] = st[kk + 397] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        for kk in range(227, 623):
            y = (st[kk] & 0x80000000) | (st[kk + 1] & 0x7FFFFFFF)
            st[kk] = st[kk - 227] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        y = (st[623] & 0x80000000) | (st[0] & 0x7FFFFFFF)
        st[623] = st[396] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        idx = 0
    y = st[idx]
    st[624] = idx + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK32


@jit
def mt_random(st: Arr) -> float:
    """``Random.random()``."""
    a = mt_next(st) >> 5
    b = mt_next(st) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@jit
def mt_bits(st: Arr, k: int) -> int:
    """``Random.getrandbits(k)`` for 0 < k <= 32."""
    return mt_next(st) >> (32 - k)


@jit
def mt_bits48(st: Arr) -> int:
    """``Random.getrandbits(48)``: the first word gives the low bits."""
    lo = mt_next(st)
    hi = mt_next(st) >> 16
    return lo | (hi << 32)


@jit
def mt_seed(st: Arr, n: int) -> None:
    """``Random.seed(n)`` for 0 <= n < 2**63 (``init_by_array`` over n's 32-bit words)."""
    key = np.empty(2, np.int64)
    key[0] = n & MASK32
    key[1] = n >> 32
    klen = 2 if key[1] else 1
    st[0] = 19650218
    for i in range(1, 624):
        st[i] = (1812433253 * (st[i - 1] ^ (st[i - 1] >> 30)) + i) & MASK32
    i = 1
    j = 0
    for _ in range(624 if klen < 624 else klen):
        st[i] = ((st[i] ^ (((st[i - 1] ^ (st[i - 1] >> 30)) * 1664525) & MASK32)) + key[j] + j) & MASK32
        i += 1
        j += 1
        if i >= 624:
            st[0] = st[623]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(623):
        st[i] = ((st[i] ^ (((st[i - 1] ^ (st[i - 1] >> 30)) * 1566083941) & MASK32)) - i) & MASK32
        i += 1
        if i >= 624:
            st[0] = st[623]
            i = 1
    st[0] = 0x80000000
    st[624] = 624


# ---------------------------------------------------------------- bits


@jit
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & MASK32) >> 24


@jit
def low_index(low: int, debruijn: Arr) -> int:
    """Index of the single bit set in ``low``."""
    return debruijn[((low * 0x077CB531) & MASK32) >> 27]


@jit
def high_index(x: int) -> int:
    """``x.bit_length() - 1``."""
    n = -1
    while x:
        x >>= 1
        n += 1
    return n


@jit
def mask_pips(mask: int, pipc: Arr) -> int:
    return pipc[0, mask & 127] + pipc[1, (mask >> 7) & 127] + pipc[2, (mask >> 14) & 127] + pipc[3, mask >> 21]


@jit
def distinct_numbers(mask: int, numc: Arr) -> int:
    return popcount(numc[0, mask & 127] | numc[1, (mask >> 7) & 127] | numc[2, (mask >> 14) & 127] | numc[3, mask >> 21])


# ---------------------------------------------------------------- the round's end and its value

# tab: int64 array [players, teams, opponents_scoring, blocked_tie (0 opener, 1 other), opener,
#                   draw, closed]


@jit
def round_result(tab: Arr, hands: Arr, domino_seat: int, pipc: Arr) -> tuple[int, int]:
    """``sim.round_result``: (winning side or NO_WINNER, points)."""
    n = tab[0]
    teams = tab[1] != 0
    opponents = teams and tab[2] != 0
    if domino_seat >= 0 and not opponents:
        rest = 0
        for s in range(n):
            if s != domino_seat:
                rest |= hands[s]
        return (domino_seat % 2 if teams else domino_seat), mask_pips(rest, pipc)
    pips = np.empty(n, np.int64)
    for s in range(n):
        pips[s] = mask_pips(hands[s], pipc)
    if domino_seat >= 0:
        winner = domino_seat
    else:
        lightest = pips.min()
        ntied = 0
        first = -1
        parity = 0
        for s in range(n):
            if pips[s] == lightest:
                if first < 0:
                    first = s
                ntied += 1
                parity |= 1 << (s % 2)
        if ntied == 1 or (teams and (parity == 1 or parity == 2)):
            winner = first
        elif tab[3] == 0:
            winner = -1
            for k in range(n):
                s = (tab[4] + k) % n
                if pips[s] == lightest:
                    winner = s
                    break
        else:
            return NO_WINNER, 0
    points = 0
    if opponents:
        for s in range(n):
            if s % 2 != winner % 2:
                points += pips[s]
    else:
        for s in range(n):
            points += pips[s]
        points -= pips[winner]
    return (winner % 2 if teams else winner), points


# ut: float64 array [me_side, others, target, win_bonus, game_bonus]; scores: float64 per side


@jit
def utility(side: int, points: int, ut: Arr, scores: Arr) -> float:
    """``hard.make_utility``'s function."""
    if side == NO_WINNER:
        return 0.0
    value = points + ut[3]
    if ut[2] > 0 and scores[side] + points >= ut[2]:
        value += ut[4]
    if side == int(ut[0]):
        return value
    return -value / int(ut[1])


@jit
def signed_points(side: int, points: int, me_side: int) -> float:
    """The round's points for the seat's side: won (+), lost (-), none when nobody wins."""
    if side == NO_WINNER:
        return 0.0
    return float(points) if side == me_side else -float(points)


@jit
def split_value(v: float, ut: Arr, scores: Arr) -> tuple[float, float]:
    """``hard.split_value``: (points for the side, 1 if it wins) of an exact value."""
    if v == 0.0:
        return 0.0, 0.0
    won = v > 0
    value = v if won else -v * int(ut[1])
    p = value - ut[3]
    if ut[2] > 0:
        q = p - ut[4]
        for s in range(scores.shape[0]):
            if (s == int(ut[0])) == won and q >= 0 and scores[s] + q >= ut[2]:
                p = q
                break
    return (p, 1.0) if won else (-p, 0.0)


# ---------------------------------------------------------------- dealing


@jit
def shuffle(items: Arr, n: int, st: Arr) -> None:
    """``knowledge.shuffle`` (Python 3.11's ``Random.shuffle``) of ``items[:n]``."""
    for i in range(n - 1, 0, -1):
        m = i + 1
        k = high_index(m) + 1
        j = mt_bits(st, k)
        while j >= m:
            j = mt_bits(st, k)
        items[i], items[j] = items[j], items[i]


@jit
def mix(tile: Arr, forbid: Arr, place: Arr, steps: int, st: Arr) -> None:
    """``Dealer._mix``."""
    n = tile.shape[0]
    if n < 2:
        return
    for _ in range(steps):
        i = int(mt_random(st) * n)
        j = int(mt_random(st) * n)
        if place[i] == place[j]:
            continue
        ti = tile[i]
        tj = tile[j]
        if (forbid[i] >> tj) & 1 or (forbid[j] >> ti) & 1:
            continue
        tile[i] = tj
        tile[j] = ti


@jit
def deal(st: Arr, tile: Arr, place: Arr, forbid: Arr, constrained: bool, swaps: int, me: int, hand: int,
         hands: Arr, bone: Arr) -> int:
    """``Dealer.deal`` into ``hands`` and ``bone``; returns the boneyard's size."""
    n = tile.shape[0]
    if constrained:
        mix(tile, forbid, place, swaps, st)
    else:
        shuffle(tile, n, st)
    hands[:] = 0
    hands[me] = hand
    nb = 0
    for i in range(n):
        p = place[i]
        if p >= 0:
            hands[p] |= 1 << tile[i]
        elif p == -1:
            bone[nb] = tile[i]
            nb += 1
    if constrained and nb > 1:
        shuffle(bone, nb, st)
    return nb


@jit
def held_before(tile: Arr, place: Arr, tier_of: Arr, held: Arr) -> None:
    """``Dealer.held_before`` into ``held[seat, k]``."""
    held[:, :] = 0
    for i in range(tier_of.shape[0]):
        held[place[i], tier_of[i] + 1] |= 1 << tile[i]
    for s in range(held.shape[0]):
        for k in range(1, held.shape[1]):
            held[s, k] |= held[s, k - 1]


# ---------------------------------------------------------------- reading the other seats' plays

# Choices: ch int64 [n, 9]: seat, tiers, later, fit, tile, left, right, board, (unused);
# ch_voids int64 [n, players].


@jit
def choice_weight(ch: Arr, held: Arr, table: Arr, debruijn: Arr) -> float:
    """``hard.choice_weight``."""
    weight = 1.0
    for c in range(ch.shape[0]):
        options = (held[ch[c, 0], ch[c, 1]] | ch[c, 2]) & ch[c, 3]
        total = 0.0
        while options:
            low = options & -options
            total += table[low_index(low, debruijn)]
            options ^= low
        weight *= table[ch[c, 4]] / total
    return weight


# Model tables: mt_f float64 [W_FOLLOW, W_EXPOSED, W_SPREAD]; base float64[28];
# seat terms: sterm_other int64 [players, players-1], sterm_blocked / sterm_feed float64 same.


@jit
def placement_scores(seat: int, hand: int, options: int, left: int, right: int, board: int, voids: Arr,
                     lib: Arr, base_score: Arr, wf: Arr, so: Arr, sb: Arr, sf: Arr,
                     out_s: Arr, out_t: Arr, out_l: Arr, debruijn: Arr, numc: Arr) -> int:
    """``model.placement_scores`` into (out_s, out_t, out_l); returns how many."""
    # lib: int64 [NUM(7), TILES lo (28), TILES hi (28), OTHER_ROWS (8*28)]
    unseen = 0x0FFFFFFF & ~hand & ~board
    nn = so.shape[1]
    count = 0
    w_follow = wf[0]
    w_exposed = wf[1]
    w_spread = wf[2]
    while options:
        low = options & -options
        t = low_index(low, debruijn)
        options ^= low
        rest = hand & ~low
        if not rest:
            out_s[count] = 1e3
            out_t[count] = t
            out_l[count] = 1
            count += 1
            continue
        nways = 0
        o0 = 0
        e0 = 0
        l0 = 1
        o1 = 0
        e1 = 0
        if left == NO_END:
            a = lib[7 + t]
            b = lib[35 + t]
            o0 = lib[a] | lib[b]
            e0 = a
            l0 = 1
            nways = 1
        else:
            x = lib[63 + left * 28 + t]
            y = lib[63 + right * 28 + t]
            if x >= 0:
                o0 = lib[x] | lib[right]
                e0 = x
                l0 = 1
                nways = 1
                if y >= 0 and left != right:
                    o1 = lib[left] | lib[y]
                    e1 = y
                    nways = 2
            elif y >= 0:
                o0 = lib[left] | lib[y]
                e0 = y
                l0 = 0
                nways = 1
            else:
                out_s[count] = -1e9
                out_t[count] = t
                out_l[count] = 1
                count += 1
                continue
        base = base_score[t] + w_spread * distinct_numbers(rest, numc)
        best = -1e9
        best_left = 1
        for w in range(nways):
            if w == 0:
                open_mask = o0
                exposed = e0
                on_left = l0
            else:
                open_mask = o1
                exposed = e1
                on_left = 0
            s = base + w_follow * popcount(rest & open_mask) + w_exposed * popcount(rest & lib[exposed])
            for j in range(nn):
                may = unseen & ~voids[so[seat, j]]
                follow = popcount(may & open_mask)
                if not follow:
                    s += sb[seat, j]
                else:
                    s += sf[seat, j] * follow
            if s > best:
                best = s
                best_left = on_left
        out_s[count] = best
        out_t[count] = t
        out_l[count] = best_left
        count += 1
    return count


@jit
def choices_likelihood(ch: Arr, ch_voids: Arr, held: Arr, tempers: Arr, trembles: Arr,
                       lib: Arr, base_score: Arr, wf: Arr, so: Arr, sb: Arr, sf: Arr,
                       out_s: Arr, out_t: Arr, out_l: Arr, debruijn: Arr, numc: Arr) -> float:
    """``model.choices_likelihood`` (``tempers``, ``trembles``: the model's sharpness and the
    probability of a tile at random, per seat)."""
    weight = 1.0
    for c in range(ch.shape[0]):
        temper = tempers[ch[c, 0]]
        hand = held[ch[c, 0], ch[c, 1]] | ch[c, 2]
        options = hand & ch[c, 3]
        if options & (options - 1) == 0:
            continue
        n = placement_scores(ch[c, 0], hand, options, ch[c, 5], ch[c, 6], ch[c, 7], ch_voids[c],
                             lib, base_score, wf, so, sb, sf, out_s, out_t, out_l, debruijn, numc)
        chosen = 0.0
        top = out_s[0]
        for k in range(n):
            if out_t[k] == ch[c, 4]:
                chosen = out_s[k]
            if out_s[k] > top:
                top = out_s[k]
        total = 0.0
        for k in range(n):
            total += math.exp(temper * (out_s[k] - top))
        odd = trembles[ch[c, 0]]
        weight *= (1.0 - odd) * math.exp(temper * (chosen - top)) / total + odd / n
    return weight


@jit
def model_play(seat: int, hand: int, options: int, left: int, right: int, board: int, voids: Arr,
               lib: Arr, base_score: Arr, wf: Arr, so: Arr, sb: Arr, sf: Arr,
               out_s: Arr, out_t: Arr, out_l: Arr, debruijn: Arr, numc: Arr) -> tuple[int, int]:
    n = placement_scores(seat, hand, options, left, right, board, voids, lib, base_score, wf, so, sb, sf,
                         out_s, out_t, out_l, debruijn, numc)
    best = -1e18
    tile = -1
    on_left = 1
    for k in range(n):
        if out_s[k] > best:
            best = out_s[k]
            tile = out_t[k]
            on_left = out_l[k]
    return tile, on_left


@jit
def play_tile(left: int, right: int, t: int, on_left: int, lib: Arr) -> tuple[int, int]:
    if left == NO_END:
        return lib[7 + t], lib[35 + t]
    if on_left:
        return lib[63 + left * 28 + t], right
    return left, lib[63 + right * 28 + t]


@jit
def model_move(seat: int, hand: int, options: int, left: int, right: int, board: int, voids: Arr,
               lib: Arr, base_score: Arr, wf: Arr, so: Arr, sb: Arr, sf: Arr,
               out_s: Arr, out_t: Arr, out_l: Arr, debruijn: Arr, numc: Arr) -> tuple[int, int, int]:
    """``model.model_move``: (tile, on the left end, model evaluations)."""
    t = high_index(options)
    if options & (options - 1) == 0 and (left == NO_END or lib[63 + left * 28 + t] < 0
                                         or lib[63 + right * 28 + t] < 0):
        return t, (1 if (left == NO_END or lib[63 + left * 28 + t] >= 0) else 0), 0
    tile, on_left = model_play(seat, hand, options, left, right, board, voids, lib, base_score, wf, so, sb, sf,
                               out_s, out_t, out_l, debruijn, numc)
    return tile, on_left, popcount(options)


@jit
def add_void(voids: Arr, seat: int, left: int, right: int, lib: Arr) -> None:
    """``model.with_void``, in place."""
    if left == NO_END or seat >= voids.shape[0]:
        return
    voids[seat] = voids[seat] | lib[left] | lib[right]


@jit
def draw_until_fit(hand: int, bone: Arr, nbone: int, fit: int) -> tuple[int, int, int]:
    """``sim.draw_until_fit`` from ``bone[:nbone]``: (the hand then, the tiles drawn, the
    boneyard's size left)."""
    drawn = 0
    while nbone > 0:
        nbone -= 1
        t = bone[nbone]
        drawn |= 1 << t
        if (fit >> t) & 1:
            break
    return hand | drawn, drawn, nbone


@jit
def ends_mask(left: int, right: int, lib: Arr) -> int:
    if left == NO_END or right == NO_END:
        return 0x0FFFFFFF
    return lib[left] | lib[right]


@jit
def rollout(tab: Arr, hands: Arr, left: int, right: int, board: int, seat: int, voids: Arr, track: bool,
            lib: Arr, base_score: Arr, wf: Arr, so: Arr, sb: Arr, sf: Arr,
            out_s: Arr, out_t: Arr, out_l: Arr, debruijn: Arr, numc: Arr, pipc: Arr) -> tuple[int, int, int]:
    """``model.rollout`` for the block game (no boneyard): (side, points, model evaluations)."""
    n = tab[0]
    closed = tab[6] != 0
    passes = 0
    work = 0
    while True:
        h = hands[seat]
        m = h & ends_mask(left, right, lib)
        if not m:
            passes += 1
            if passes >= n:
                side, points = round_result(tab, hands, -1, pipc)
                return side, points, work
            if track:
                add_void(voids, seat, left, right, lib)
            seat = seat + 1 if seat + 1 < n else 0
            continue
        passes = 0
        t, on_left, cost = model_move(seat, h, m, left, right, board, voids, lib, base_score, wf, so, sb, sf,
                                      out_s, out_t, out_l, debruijn, numc)
        work += cost
        h ^= 1 << t
        hands[seat] = h
        board |= 1 << t
        left, right = play_tile(left, right, t, on_left, lib)
        if not h:
            side, points = round_result(tab, hands, seat, pipc)
            return side, points, work
        if closed and left == right and board & lib[left] == lib[left]:
            side, points = round_result(tab, hands, -1, pipc)
            return side, points, work
        seat = seat + 1 if seat + 1 < n else 0


# ---------------------------------------------------------------- playouts


@jit
def playout(tab: Arr, hands: Arr, bone: Arr, nbone: int, left: int, right: int, board: int, seat: int,
            dice: Arr, eps: float, base: Arr, expose: int, stream: Arr, drawn: int,
            lib: Arr, debruijn: Arr, pipc: Arr) -> tuple[int, int, int, int]:
    """``sim.playout``: (side, points, turns, numbers now in ``stream``). ``hands`` and
    ``bone[:nbone]`` are consumed; the boneyard is drawn from its end."""
    n = tab[0]
    draw = tab[5] != 0 and nbone > 0
    closed = tab[6] != 0 or tab[5] == 0
    used = 0
    passes = 0
    turns = 0
    while True:
        turns += 1
        h = hands[seat]
        fit = ends_mask(left, right, lib)
        m = h & fit
        if not m:
            if draw:
                while nbone > 0:
                    nbone -= 1
                    t = bone[nbone]
                    h |= 1 << t
                    if (fit >> t) & 1:
                        m = 1 << t
                        break
                hands[seat] = h
                draw = nbone > 0
            if not m:
                passes += 1
                if passes >= n:
                    side, points = round_result(tab, hands, -1, pipc)
                    return side, points, turns, drawn
                seat = seat + 1 if seat + 1 < n else 0
                continue
        passes = 0
        if m & (m - 1) == 0:
            t = low_index(m, debruijn)
        else:
            if used < drawn:
                r = stream[used]
            else:
                r = mt_random(dice)
                stream[drawn] = r
                drawn += 1
            used += 1
            if r < eps:
                if used < drawn:
                    r = stream[used]
                else:
                    r = mt_random(dice)
                    stream[drawn] = r
                    drawn += 1
                used += 1
                for _ in range(int(r * popcount(m))):
                    m &= m - 1
                t = low_index(m & -m, debruijn)
            else:
                best = -1000
                t = -1
                while m:
                    low = m & -m
                    i = low_index(low, debruijn)
                    m ^= low
                    v = base[i]
                    x = lib[63 + left * 28 + i]
                    if x >= 0:
                        v += popcount(h & lib[x]) * expose
                    else:
                        x = lib[63 + right * 28 + i]
                        if x >= 0:
                            v += popcount(h & lib[x]) * expose
                    if v > best:
                        best = v
                        t = i
        h ^= 1 << t
        hands[seat] = h
        board |= 1 << t
        if left == NO_END:
            left = lib[7 + t]
            right = lib[35 + t]
        else:
            xl = lib[63 + left * 28 + t]
            xr = lib[63 + right * 28 + t]
            if xl >= 0 and xr >= 0 and left != right:
                if popcount(h & lib[xl]) >= popcount(h & lib[xr]):
                    left = xl
                else:
                    right = xr
            elif xl >= 0:
                left = xl
            else:
                right = xr
        if not h:
            side, points = round_result(tab, hands, seat, pipc)
            return side, points, turns, drawn
        if closed and left == right and board & lib[left] == lib[left]:
            side, points = round_result(tab, hands, -1, pipc)
            return side, points, turns, drawn
        seat = seat + 1 if seat + 1 < n else 0


# ---------------------------------------------------------------- exact endgames

_EXACT = 0
_LOWER = 1
_UPPER = 2


SOLVE_DEPTH = 256


@jit
def new_memo(max_nodes: int) -> Any:
    """The transposition table of ``solve`` (the reference's dict): open addressing over
    (keys [cap, 6], flag, value, generation of the entry, [current generation]); a solve
    stores at most one entry per node, so twice ``max_nodes`` slots never fill up.
    ``memo_clear`` empties it in O(1) (a new generation)."""
    cap = 64
    while cap < 2 * (max_nodes + 2):
        cap *= 2
    return (np.zeros((cap, 6), np.int64), np.zeros(cap, np.int64), np.zeros(cap), np.zeros(cap, np.int64),
            np.ones(1, np.int64))


@jit
def new_frames(players: int) -> Any:
    """The explicit stack of ``solve``, allocated once per decision."""
    return (np.zeros((SOLVE_DEPTH, 18), np.int64), np.zeros((SOLVE_DEPTH, 5)), np.zeros((SOLVE_DEPTH, 56), np.int64),
            np.zeros(players, np.int64), np.zeros((SOLVE_DEPTH + 1, 4), np.int64))


@jit
def memo_clear(memo: Any) -> None:
    memo[4][0] += 1


@jit
def memo_slot(memo: Any, key: Any) -> int:
    """The slot holding ``key``, or the free slot where it would go."""
    keys = memo[0]
    gen = memo[3]
    now = memo[4][0]
    mask = keys.shape[0] - 1
    h = 0
    for x in key:
        h = (h ^ x) * 0x100000001B3
        h ^= h >> 29
    i = h & mask
    while True:
        if gen[i] != now:
            return i
        if (keys[i, 0] == key[0] and keys[i, 1] == key[1] and keys[i, 2] == key[2] and keys[i, 3] == key[3]
                and keys[i, 4] == key[4] and keys[i, 5] == key[5]):
            return i
        i = (i + 1) & mask


@jit
def _enter(tab: Arr, hands: Arr, bone: Arr, nbone: int, bi: int, left: int, right: int, board: int, seat: int,
           passes: int, alpha: float, beta: float, memo: Any, counter: Arr, me_side: int, ut: Arr, scores: Arr,
           lib: Arr, debruijn: Arr, pipc: Arr, fr_i: Arr, fr_f: Arr, fr_mv: Arr, depth: int) -> tuple[bool, float]:
    """``Solver._search`` up to its moves: (True, value) when the node is settled at once (a
    known value, the round over, the budget spent), else (False, 0) with a new frame at
    ``depth``. Passes continue in the same call, as the reference's tail call does."""
    n = tab[0]
    teams = tab[1] != 0
    hs = hands  # a row of the stack's scratch (``_after``): changed in place
    while True:
        if counter[2]:
            return True, 0.0
        counter[0] += 1
        if counter[0] > counter[1]:
            counter[2] = 1
            return True, 0.0
        key = (hs[0], hs[1], hs[2] if n > 2 else 0, hs[3] if n > 3 else 0, bi * 64 + left * 8 + right,
               seat * 8 + passes)
        slot = memo_slot(memo, key)
        if memo[3][slot] == memo[4][0]:
            flag = memo[1][slot]
            val = memo[2][slot]
            if flag == _EXACT:
                return True, val
            if flag == _LOWER and val >= beta:
                return True, val
            if flag == _UPPER and val <= alpha:
                return True, val
        fit = ends_mask(left, right, lib)
        h = hs[seat]
        m = h & fit
        if not m and tab[5] != 0 and bi < nbone:
            while bi < nbone:
                t = bone[bi]
                bi += 1
                h |= 1 << t
                if (fit >> t) & 1:
                    m = 1 << t
                    break
            hs[seat] = h
        if m:
            break
        if passes + 1 >= n:
            side, points = round_result(tab, hs, -1, pipc)
            return True, utility(side, points, ut, scores)
        seat = (seat + 1) % n
        passes += 1
    # Moves sorted by (pips, tile, on_left), highest first (the reference's sort).
    nm = 0
    mm = m
    row = fr_mv[depth]
    while mm:
        low = mm & -mm
        t = low_index(low, debruijn)
        mm ^= low
        pips = lib[7 + t] + lib[35 + t]
        if left == NO_END:
            row[nm] = (pips * 32 + t) * 2 + 1
            nm += 1
            continue
        x = lib[63 + left * 28 + t]
        if x >= 0:
            row[nm] = (pips * 32 + t) * 2 + 1
            nm += 1
        if lib[63 + right * 28 + t] >= 0 and (left != right or x < 0):
            row[nm] = (pips * 32 + t) * 2
            nm += 1
    for i in range(1, nm):  # insertion sort, highest first (a handful of moves)
        x = row[i]
        j = i - 1
        while j >= 0 and row[j] < x:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = x
    fi = fr_i[depth]
    for s in range(4):
        fi[s] = hs[s] if s < n else 0
    for s in range(6):
        fi[4 + s] = key[s]
    fi[10] = bi
    fi[11] = left
    fi[12] = right
    fi[13] = board
    fi[14] = seat
    fi[15] = nm
    fi[16] = 0  # next move
    fi[17] = 1 if (seat % 2 if teams else seat) == me_side else 0
    ff = fr_f[depth]
    ff[0] = alpha
    ff[1] = beta
    ff[2] = alpha  # a0
    ff[3] = beta  # b0
    ff[4] = -1e9 if fi[17] else 1e9
    return False, 0.0


@jit
def _after(tab: Arr, hands: Arr, bone: Arr, nbone: int, bi: int, left: int, right: int, board: int, seat: int,
           tile: int, on_left: int, alpha: float, beta: float, memo: Any, counter: Arr, me_side: int, ut: Arr,
           scores: Arr, lib: Arr, debruijn: Arr, pipc: Arr, fr_i: Arr, fr_f: Arr, fr_mv: Arr, fr_h: Arr,
           depth: int) -> tuple[bool, float]:
    """``Solver._after_play``: ``seat`` lays ``tile``; then ``_enter`` the next seat's node."""
    hs = fr_h[depth]
    for s in range(tab[0]):
        hs[s] = hands[s]
    h = hs[seat] ^ (1 << tile)
    hs[seat] = h
    left, right = play_tile(left, right, tile, on_left, lib)
    board |= 1 << tile
    if not h:
        side, points = round_result(tab, hs, seat, pipc)
        return True, utility(side, points, ut, scores)
    if tab[6] != 0 and left == right and board & lib[left] == lib[left]:
        side, points = round_result(tab, hs, -1, pipc)
        return True, utility(side, points, ut, scores)
    return _enter(tab, hs, bone, nbone, bi, left, right, board, (seat + 1) % tab[0], 0, alpha, beta, memo, counter,
                  me_side, ut, scores, lib, debruijn, pipc, fr_i, fr_f, fr_mv, depth)


@jit
def solve(tab: Arr, hands: Arr, bone: Arr, nbone: int, left: int, right: int, board: int, seat: int, tile: int,
          on_left: int, memo: Any, counter: Arr, me_side: int, ut: Arr, scores: Arr, lib: Arr, debruijn: Arr,
          pipc: Arr, frames: Any) -> float:
    """``Solver.value_after``'s search (``Solver._after_play`` from the root, window
    [-1e9, 1e9]) with an explicit stack instead of recursion (numba's cache does not reload
    recursive functions reliably). ``counter``: [nodes, max nodes, aborted]; when the budget
    is spent ``counter[2]`` is set and the value means nothing (the reference raises
    ``SolverBudget``). ``bone`` is in drawing order (index 0 first). ``frames``: the stack
    (``new_frames``)."""
    fr_i, fr_f, fr_mv, hbuf, fr_h = frames
    settled, v = _after(tab, hands, bone, nbone, 0, left, right, board, seat, tile, on_left, -1e9, 1e9, memo,
                        counter, me_side, ut, scores, lib, debruijn, pipc, fr_i, fr_f, fr_mv, fr_h, 0)
    if settled:
        return v
    depth = 1
    pending = False
    while depth > 0:
        if counter[2]:
            return 0.0
        f = depth - 1
        fi = fr_i[f]
        ff = fr_f[f]
        if pending:
            pending = False
            if fi[17]:
                if v > ff[4]:
                    ff[4] = v
                if ff[4] > ff[0]:
                    ff[0] = ff[4]
            else:
                if v < ff[4]:
                    ff[4] = v
                if ff[4] < ff[1]:
                    ff[1] = ff[4]
            fi[16] += 1
            if ff[0] >= ff[1]:
                fi[16] = fi[15]
        if fi[16] < fi[15]:
            mv = fr_mv[f, fi[16]]
            for s in range(tab[0]):
                hbuf[s] = fi[s]
            settled, v = _after(tab, hbuf, bone, nbone, fi[10], fi[11], fi[12], fi[13], fi[14], (mv >> 1) & 31,
                                mv & 1, ff[0], ff[1], memo, counter, me_side, ut, scores, lib, debruijn, pipc,
                                fr_i, fr_f, fr_mv, fr_h, depth)
            if settled:
                pending = True
            else:
                depth += 1
            continue
        best = ff[4]
        key = (fi[4], fi[5], fi[6], fi[7], fi[8], fi[9])
        slot = memo_slot(memo, key)
        memo[0][slot, :] = key
        memo[3][slot] = memo[4][0]
        memo[2][slot] = best
        if best <= ff[2]:
            memo[1][slot] = _UPPER
        elif best >= ff[3]:
            memo[1][slot] = _LOWER
        else:
            memo[1][slot] = _EXACT
        v = best
        pending = True
        depth -= 1
    if counter[2]:
        return 0.0
    return v


# ---------------------------------------------------------------- the decision loops


@jit
def evaluate_general(st: Arr, tile: Arr, place: Arr, forbid: Arr, tier_of: Arr, constrained: bool, swaps: int,
                     me: int, hand: int, held: Arr, ch: Arr, lik_table: Arr,
                     cand: Arr, k_board: int, k_left: int, k_right: int, nxt: int, tab: Arr, ut: Arr, scores: Arr,
                     eps: float, pol_base: Arr, pol_expose: int, costs: Arr, limits: Arr,
                     lib: Arr, debruijn: Arr, pipc: Arr) -> tuple[Arr, Arr, Arr, float, int, int]:
    """``HardPlayer.evaluate`` outside block duels, with the pips-only reading of the plays:
    (totals per candidate, total weight, deals, playouts). ``cand`` int64 [n, 4]: tile,
    on_left, left, right after the play. ``costs``: [budget, setup, deal, playout, turn, node];
    ``limits``: [min deals, max deals, solver max nodes (0: no solver), single deal]."""
    n_players = tab[0]
    nc = cand.shape[0]
    totals = np.zeros(nc)
    pts = np.zeros(nc)
    wins = np.zeros(nc)
    hands = np.zeros(n_players, np.int64)
    bone = np.zeros(32, np.int64)
    hs = np.zeros(n_players, np.int64)
    bs = np.zeros(32, np.int64)
    rbone = np.zeros(32, np.int64)
    stream = np.zeros(256)
    budget = costs[0]
    deal_us = costs[2]
    playout_us = costs[3]
    turn_us = costs[4]
    node_us = costs[5]
    min_deals = limits[0]
    max_deals = limits[1]
    use_solver = limits[2] > 0
    single_deal = limits[3] != 0
    counter = np.zeros(3, np.int64)
    counter[1] = limits[2]
    memo = new_memo(limits[2] if limits[2] > 0 else 1)
    frames = new_frames(n_players)
    me_side = int(ut[0])
    weights = 0.0
    spent = costs[1]
    deals = 0
    playouts = 0
    while deals < max_deals and (spent < budget or deals < min_deals):
        nb = deal(st, tile, place, forbid, constrained, swaps, me, hand, hands, bone)
        spent += deal_us
        if ch.shape[0] == 0:
            w = 1.0
        else:
            held_before(tile, place, tier_of, held)
            w = choice_weight(ch, held, lik_table, debruijn)
        if use_solver:
            counter[0] = 0
            counter[2] = 0
            for q in range(nb):
                rbone[q] = bone[nb - 1 - q]
            memo_clear(memo)
            values = np.zeros(nc)
            for k in range(nc):
                values[k] = solve(tab, hands, rbone, nb, k_left, k_right, k_board, me, cand[k, 0], cand[k, 1],
                                  memo, counter, me_side, ut, scores, lib, debruijn, pipc, frames)
                if counter[2]:
                    break
            if counter[2]:
                spent += counter[0] * node_us
                use_solver = False
                continue
            spent += counter[0] * node_us
            deals += 1
            playouts += nc
            weights += w
            for k in range(nc):
                totals[k] += w * values[k]
                p, won = split_value(values[k], ut, scores)
                pts[k] += w * p
                wins[k] += w * won
            if single_deal:
                break
            continue
        deals += 1
        weights += w
        drawn = 0
        for k in range(nc):
            hs[:] = hands
            hs[me] ^= 1 << cand[k, 0]
            if not hs[me]:
                side, points = round_result(tab, hs, me, pipc)
                totals[k] += w * utility(side, points, ut, scores)
                pts[k] += w * signed_points(side, points, me_side)
                wins[k] += w * (1.0 if side == me_side else 0.0)
                continue
            bs[:nb] = bone[:nb]
            side, points, turns, drawn = playout(tab, hs, bs, nb, cand[k, 2], cand[k, 3], k_board | 1 << cand[k, 0],
                                                 nxt, st, eps, pol_base, pol_expose, stream, drawn,
                                                 lib, debruijn, pipc)
            playouts += 1
            totals[k] += w * utility(side, points, ut, scores)
            pts[k] += w * signed_points(side, points, me_side)
            wins[k] += w * (1.0 if side == me_side else 0.0)
            spent += playout_us + turn_us * turns
    return totals, pts, wins, weights, deals, playouts


@jit
def _grow_i(a: Arr, size: int) -> Arr:
    if size < a.shape[0]:
        return a
    b = np.full(a.shape[0] * 2 + size, -1, np.int64)
    b[:a.shape[0]] = a
    return b


@jit
def _grow_f(a: Arr, size: int) -> Arr:
    if size < a.shape[0]:
        return a
    b = np.zeros(a.shape[0] * 2 + size)
    b[:a.shape[0]] = a
    return b


@jit
def evaluate_duel(st: Arr, tile: Arr, place: Arr, forbid: Arr, tier_of: Arr, constrained: bool, swaps: int,
                  me: int, hand: int, held: Arr, ch: Arr, ch_voids: Arr, tempers: Arr, trembles: Arr,
                  voids0: Arr,
                  cand: Arr, k_board: int, tab: Arr, ut: Arr, scores: Arr, scale: float,
                  use_tree: bool, track: bool, explore: float, costs: Arr, limits: Arr,
                  finish: bool, eps: float, pol_base: Arr, pol_expose: int,
                  lib: Arr, base_score: Arr, wf: Arr, so: Arr, sb: Arr, sf: Arr,
                  debruijn: Arr, numc: Arr, pipc: Arr) -> tuple[Arr, Arr, Arr, float, int, int]:
    """``HardPlayer.evaluate_duel`` with the own-move tree (``tree.descend``), in any block
    game (two, three or four seats): (totals per candidate, total weight, deals, descents).
    ``costs``: [budget, setup, deal, tree, rollout, model, playout, turn]; ``limits``: [min
    deals, max deals, single deal]; ``finish``: beyond the tree, ``playout`` (``eps``,
    ``pol_base``, ``pol_expose``, the deal's numbers shared) instead of ``rollout``. In the
    draw game with a boneyard (``tree.descend``'s ``bone``: ``finish`` is then required) the
    seats draw from the deal's boneyard and the keys carry the draws (``tree.reply_key``,
    ``tree.draw_key``)."""
    nc = cand.shape[0]
    totals = np.zeros(nc)
    pts = np.zeros(nc)
    wins = np.zeros(nc)
    me_side = int(ut[0])
    n_players = tab[0]
    hands = np.zeros(n_players, np.int64)
    bone = np.zeros(32, np.int64)
    hs = np.zeros(n_players, np.int64)
    bs = np.zeros(32, np.int64)
    closed_board = tab[6] != 0
    voids = np.zeros(voids0.shape[0], np.int64)
    out_s = np.zeros(32)
    out_t = np.zeros(32, np.int64)
    out_l = np.zeros(32, np.int64)
    # The tree: moves 0..nc-1 are the candidates (roots). A move's replies are a list of
    # (reply, node) entries; a node's moves are consecutive.
    node_visits = np.zeros(1024, np.int64)
    node_first = np.zeros(1024, np.int64)
    node_count = np.zeros(1024, np.int64)
    n_nodes = 0
    mv_tile = np.full(8192, -1, np.int64)
    mv_left = np.zeros(8192, np.int64)
    mv_visits = np.zeros(8192, np.int64)
    mv_weight = np.zeros(8192)
    mv_total = np.zeros(8192)
    mv_child = np.full(8192, -1, np.int64)
    n_moves = nc
    ch_reply = np.zeros(1024, np.int64)
    ch_node = np.zeros(1024, np.int64)
    ch_next = np.full(1024, -1, np.int64)
    n_child = 0
    path_node = np.zeros(64, np.int64)
    path_move = np.zeros(64, np.int64)
    budget = costs[0]
    deal_us = costs[2]
    tree_us = costs[3]
    rollout_us = costs[4]
    model_us = costs[5]
    playout_us = costs[6]
    turn_us = costs[7]
    stream = np.zeros(256)
    min_deals = limits[0]
    max_deals = limits[1]
    single_deal = limits[2] != 0
    weights = 0.0
    spent = costs[1]
    deals = 0
    descents = 0
    nxt = me + 1 if me + 1 < n_players else 0
    while deals < max_deals and (spent < budget or deals < min_deals):
        nb = deal(st, tile, place, forbid, constrained, swaps, me, hand, hands, bone)
        drawing = tab[5] != 0 and nb > 0
        spent += deal_us
        if ch.shape[0] == 0:
            w = 1.0
        else:
            held_before(tile, place, tier_of, held)
            w = choices_likelihood(ch, ch_voids, held, tempers, trembles, lib, base_score, wf, so, sb, sf,
                                   out_s, out_t, out_l, debruijn, numc)
        deals += 1
        weights += w
        drawn = 0
        for k in range(nc):
            hs[:] = hands
            hs[me] ^= 1 << cand[k, 0]
            if not hs[me]:
                side, points = round_result(tab, hs, me, pipc)
                totals[k] += w * utility(side, points, ut, scores)
                pts[k] += w * signed_points(side, points, me_side)
                wins[k] += w * (1.0 if side == me_side else 0.0)
                continue
            board = k_board | 1 << cand[k, 0]
            left = cand[k, 2]
            right = cand[k, 3]
            voids[:] = voids0
            bs[:nb] = bone[:nb]
            nbs = nb
            closed = not drawing or closed_board
            turns = 0
            if not use_tree:
                side, points, work = rollout(tab, hs, left, right, board, nxt, voids, track, lib, base_score,
                                             wf, so, sb, sf, out_s, out_t, out_l, debruijn, numc, pipc)
                value = utility(side, points, ut, scores)
                totals[k] += w * value
                pts[k] += w * signed_points(side, points, me_side)
                wins[k] += w * (1.0 if side == me_side else 0.0)
                spent += rollout_us + model_us * work
                descents += 1
                continue
            # tree.descend
            depth = 0
            passes = 0
            work = 0
            parent = k  # the move whose replies lead on
            side = NO_WINNER
            points = 0
            while True:
                # The other seats' replies, in turn order, and their key (``tree.reply_key``).
                key = 0
                seat = nxt
                ended = False
                while seat != me:
                    h = hs[seat]
                    fit = ends_mask(left, right, lib)
                    m = h & fit
                    drew = 0
                    if not m and drawing and nbs > 0:
                        h, drawn_mask, nbs = draw_until_fit(h, bs, nbs, fit)
                        hs[seat] = h
                        m = drawn_mask & fit
                        drew = popcount(drawn_mask)
                        closed = closed or nbs == 0
                    if m:
                        passes = 0
                        t, on_left, cost = model_move(seat, h, m, left, right, board, voids, lib, base_score, wf,
                                                      so, sb, sf, out_s, out_t, out_l, debruijn, numc)
                        work += cost
                        h ^= 1 << t
                        hs[seat] = h
                        board |= 1 << t
                        left, right = play_tile(left, right, t, on_left, lib)
                        if not h:
                            side, points = round_result(tab, hs, seat, pipc)
                            ended = True
                            break
                        if closed and left == right and board & lib[left] == lib[left]:
                            side, points = round_result(tab, hs, -1, pipc)
                            ended = True
                            break
                        reply = t * 2 + on_left
                    else:
                        passes += 1
                        if passes >= n_players:
                            side, points = round_result(tab, hs, -1, pipc)
                            ended = True
                            break
                        if track:
                            add_void(voids, seat, left, right, lib)
                        reply = PASS
                    key = key * 1024 + drew * 64 + reply + 1 if drawing else key * 64 + reply + 1
                    seat = seat + 1 if seat + 1 < n_players else 0
                if ended:
                    break
                if drawing:
                    # tree.draw_key: the tiles the computer draws at its turn.
                    fit = ends_mask(left, right, lib)
                    drawn_mask = 0
                    if not hs[me] & fit and nbs > 0:
                        hs[me], drawn_mask, nbs = draw_until_fit(hs[me], bs, nbs, fit)
                        closed = closed or nbs == 0
                    key = key * OWN_DRAW + drawn_mask
                # replies.get(key)
                node = -1
                e = mv_child[parent]
                while e >= 0:
                    if ch_reply[e] == key:
                        node = ch_node[e]
                        break
                    e = ch_next[e]
                fresh = node < 0
                if fresh:
                    # own_moves(...)
                    node_visits = _grow_i(node_visits, n_nodes + 1)
                    node_first = _grow_i(node_first, n_nodes + 1)
                    node_count = _grow_i(node_count, n_nodes + 1)
                    node = n_nodes
                    n_nodes += 1
                    node_visits[node] = 0
                    first = n_moves
                    mv_need = n_moves + 16
                    if mv_need >= mv_tile.shape[0]:
                        mv_tile = _grow_i(mv_tile, mv_need)
                        mv_left = _grow_i(mv_left, mv_need)
                        mv_visits = _grow_i(mv_visits, mv_need)
                        mv_child = _grow_i(mv_child, mv_need)
                        mv_weight = _grow_f(mv_weight, mv_need)
                        mv_total = _grow_f(mv_total, mv_need)
                    mine = hs[me]
                    fit = mine & ends_mask(left, right, lib)
                    if not fit:
                        mv_tile[n_moves] = PASS
                        mv_left[n_moves] = 1
                        n_moves += 1
                    else:
                        mm = fit
                        while mm:
                            low = mm & -mm
                            tt = low_index(low, debruijn)
                            mm ^= low
                            if left == NO_END:
                                mv_tile[n_moves] = tt
                                mv_left[n_moves] = 1
                                n_moves += 1
                                continue
                            x = lib[63 + left * 28 + tt]
                            y = lib[63 + right * 28 + tt]
                            if x >= 0:
                                mv_tile[n_moves] = tt
                                mv_left[n_moves] = 1
                                n_moves += 1
                            if y >= 0 and (left != right or x < 0):
                                mv_tile[n_moves] = tt
                                mv_left[n_moves] = 0
                                n_moves += 1
                        if n_moves - first > 1:
                            ft, fl = model_play(me, mine, fit, left, right, board, voids, lib, base_score, wf,
                                                so, sb, sf, out_s, out_t, out_l, debruijn, numc)
                            for q in range(first, n_moves):
                                if mv_tile[q] == ft and mv_left[q] == fl:
                                    for r in range(q, first, -1):
                                        mv_tile[r] = mv_tile[r - 1]
                                        mv_left[r] = mv_left[r - 1]
                                    mv_tile[first] = ft
                                    mv_left[first] = fl
                                    break
                    for q in range(first, n_moves):
                        mv_visits[q] = 0
                        mv_weight[q] = 0.0
                        mv_total[q] = 0.0
                        mv_child[q] = -1
                    node_first[node] = first
                    node_count[node] = n_moves - first
                    ch_reply = _grow_i(ch_reply, n_child + 1)
                    ch_node = _grow_i(ch_node, n_child + 1)
                    ch_next = _grow_i(ch_next, n_child + 1)
                    ch_reply[n_child] = key
                    ch_node[n_child] = node
                    ch_next[n_child] = mv_child[parent]
                    # Appended last in the reference's dict; lookup order does not matter (keys are unique).
                    mv_child[parent] = n_child
                    n_child += 1
                # node.select()
                first = node_first[node]
                count = node_count[node]
                move = first
                if count > 1:
                    best_score = -math.inf
                    log_n = math.log(node_visits[node] + 1)
                    for q in range(first, first + count):
                        if mv_visits[q] == 0:
                            move = q
                            break
                        mean = mv_total[q] / mv_weight[q] if mv_weight[q] > 0 else 0.0
                        score = mean + explore * math.sqrt(log_n / mv_visits[q])
                        if score > best_score:
                            move = q
                            best_score = score
                if depth >= path_node.shape[0]:
                    path_node = _grow_i(path_node, depth + 1)
                    path_move = _grow_i(path_move, depth + 1)
                path_node[depth] = node
                path_move[depth] = move
                depth += 1
                mt_ = mv_tile[move]
                if mt_ == PASS:
                    passes += 1
                    if passes >= n_players:
                        side, points = round_result(tab, hs, -1, pipc)
                        ended = True
                    elif track:
                        add_void(voids, me, left, right, lib)
                else:
                    passes = 0
                    h = hs[me] ^ 1 << mt_
                    hs[me] = h
                    board |= 1 << mt_
                    left, right = play_tile(left, right, mt_, mv_left[move], lib)
                    if not h:
                        side, points = round_result(tab, hs, me, pipc)
                        ended = True
                    elif closed and left == right and board & lib[left] == lib[left]:
                        side, points = round_result(tab, hs, -1, pipc)
                        ended = True
                if ended:
                    break
                if fresh:
                    if finish:
                        side, points, turns, drawn = playout(tab, hs, bs, nbs, left, right, board, nxt, st, eps,
                                                             pol_base, pol_expose, stream, drawn, lib, debruijn, pipc)
                        break
                    side, points, more = rollout(tab, hs, left, right, board, nxt, voids, track, lib, base_score,
                                                 wf, so, sb, sf, out_s, out_t, out_l, debruijn, numc, pipc)
                    work += more
                    break
                parent = move
            value = utility(side, points, ut, scores)
            reward = value / scale
            for q in range(depth):
                node_visits[path_node[q]] += 1
                mv = path_move[q]
                mv_visits[mv] += 1
                mv_weight[mv] += w
                mv_total[mv] += w * reward
            spent += tree_us * depth
            descents += 1
            totals[k] += w * value
            pts[k] += w * signed_points(side, points, me_side)
            wins[k] += w * (1.0 if side == me_side else 0.0)
            if finish:
                spent += playout_us + turn_us * turns + model_us * work
            else:
                spent += rollout_us + model_us * work
        if single_deal:
            break
    return totals, pts, wins, weights, deals, descents
