"""A learned playout policy (issue 32): a linear model over a few features of each tile a
seat could lay, trained from self-play in the simulator, as an alternative to the fixed
policy of ``sim.playout``. Off by default (``HardOptions.learned_playout``); the
pure-Python path only (a decision with it on does not use the compiled core).

The policy: among the tiles that fit, a seat lays the one with the highest
``weights · features(tile)`` (ties to the lowest tile), or with probability ``eps`` a
tile at random, exactly as ``sim.playout`` does with its fixed weights. ``FEATURES``
names the features; with the weights ``(1, 6, 2, 0, ...)`` the policy is the fixed one.

Training (``python -m games.ai.learn``, deterministic for its seed, numpy only):
approximate policy iteration. Each iteration plays rounds of several setups in the
simulator with the current policy from random deals, keeps positions where the seat to
move has two tiles or more that fit, values each of those tiles by playouts of the fully
known deal (the same random numbers for every tile) with the current policy, and fits a
softmax over the candidate tiles (cross-entropy against a softmax of the values, L2)
by gradient descent. The weights are written to ``playout_weights.json`` next to
this module.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from functools import cache
from pathlib import Path
from random import Random

from .sim import (
    ENDS_MASK,
    IS_DOUBLE,
    NO_END,
    NUM,
    OTHER_ROWS,
    PIPS,
    TILES,
    Table,
    round_result,
)

WEIGHTS_FILE = Path(__file__).with_name("playout_weights.json")

FEATURES: tuple[str, ...] = (
    "pips",  # pips of the tile
    "double",  # 1 for a double
    "own_exposed",  # tiles the seat still holds of the number the tile exposes
    "own_fit",  # tiles the seat still holds that fit one of the ends after the play
    "table_exposed",  # tiles of the exposed number on the table after the play (0..7)
    "next_fits",  # 1 if the next seat holds a tile fitting the ends after the play
    "partner_fits",  # 1 if the partner (pairs) holds a tile fitting the ends after the play
    "same_ends",  # 1 if both ends show the same number after the play
)
N_FEATURES = len(FEATURES)
# The fixed policy of ``sim.playout`` in these features.
FIXED_WEIGHTS: tuple[float, ...] = (1.0, 6.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0)
# CPU cost of a turn of this playout over one of ``sim.playout`` (pure Python, this machine;
# measured by ``bench/ai_learned.py --cost``): hard charges its playout turns this much more,
# so that the same budget buys about the same thinking time.
TURN_COST = 1.7


@cache
def weights() -> tuple[float, ...]:
    """The committed weights (``playout_weights.json``)."""
    data = json.loads(WEIGHTS_FILE.read_text())
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{WEIGHTS_FILE.name}: features {data['features']} are not {FEATURES}")
    return tuple(float(w) for w in data["weights"])


def tile_features(table: Table, hands: list[int], board: int, left: int, right: int, seat: int, tile: int
                  ) -> list[float]:
    """The features of ``seat`` laying ``tile`` (which fits) on ends ``left``/``right``."""
    n = table.players
    h = hands[seat] & ~(1 << tile)
    if left == NO_END:
        a, b = TILES[tile]
        x = a if (h & NUM[a]).bit_count() >= (h & NUM[b]).bit_count() else b
    else:
        xl = OTHER_ROWS[left][tile]
        if xl >= 0:
            x, b = xl, right
        else:
            x, b = OTHER_ROWS[right][tile], left
        a = x
    fit = NUM[a] | NUM[b]
    after = board | 1 << tile
    partner = (hands[(seat + 2) % n] & fit) != 0 if table.teams else False
    return [
        float(PIPS[tile]),
        1.0 if IS_DOUBLE[tile] else 0.0,
        float((h & NUM[x]).bit_count()),
        float((h & fit).bit_count()),
        float((after & NUM[x]).bit_count()),
        1.0 if hands[(seat + 1) % n] & fit else 0.0,
        1.0 if partner else 0.0,
        1.0 if a == b else 0.0,
    ]


@cache
def _base(w_pips: float, w_double: float) -> list[float]:
    return [PIPS[i] * w_pips + (w_double if IS_DOUBLE[i] else 0.0) for i in range(28)]


def playout(
    table: Table,
    hands: list[int],
    bone: list[int],
    left: int,
    right: int,
    board: int,
    seat: int,
    rng: Random,
    eps: float,
    w: tuple[float, ...],
    stream: list[float] | None = None,
) -> tuple[int, int, int]:
    """``sim.playout`` with the linear policy ``w`` over ``FEATURES`` instead of the fixed one:
    the same rules, the same random numbers read in the same places (``stream`` as there),
    the same end chosen for a tile that fits both; only the tile chosen differs.

    Its loop repeats ``sim.playout``'s on purpose: that loop is the simulator's inner loop,
    written without a call per move, and a policy passed in as a function would cost a call
    at every turn of every playout of the site's decisions; this experimental policy pays
    for its own copy instead (games/tests/ai/test_learn.py checks that with the fixed weights both
    give the same results and read the same random numbers)."""
    n = table.players
    draw = table.draw and bool(bone)
    closed = table.closed_board or not table.draw
    num = NUM
    rows = OTHER_ROWS
    ends_mask = ENDS_MASK
    random = rng.random
    teams = table.teams
    w_pips, w_double, w_exposed, w_fit, w_table, w_next, w_partner, w_same = w
    value0 = _base(w_pips, w_double)
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
                for _ in range(int(r * m.bit_count())):
                    m &= m - 1
                t = (m & -m).bit_length() - 1
            else:
                best = -math.inf
                t = -1
                nxt_hand = hands[seat + 1 if seat + 1 < n else 0]
                mate = hands[(seat + 2) % n] if teams else 0
                while m:
                    low = m & -m
                    i = low.bit_length() - 1
                    m ^= low
                    hi = h ^ low
                    if left == NO_END:
                        a, b = TILES[i]
                        x = a if (hi & num[a]).bit_count() >= (hi & num[b]).bit_count() else b
                    else:
                        x = rows[left][i]
                        if x >= 0:
                            b = right
                        else:
                            x = rows[right][i]
                            b = left
                    nx = num[x]
                    f = nx | num[b]
                    v = (value0[i] + (hi & nx).bit_count() * w_exposed + (hi & f).bit_count() * w_fit
                         + ((board | low) & nx).bit_count() * w_table)
                    if nxt_hand & f:
                        v += w_next
                    if mate & f:
                        v += w_partner
                    if x == b:
                        v += w_same
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


# ---------------------------------------------------------------------------------------
# Training

# Setups of the self-play (players, draw game, teams): pairs first, the one measured.
SETUPS: tuple[tuple[int, bool, bool], ...] = ((4, False, True), (2, True, False), (3, False, False), (4, False, False))
WIN_BONUS = 15.0
SCALE = 50.0


def _deal(rng: Random, players: int, draw: bool) -> tuple[list[int], list[int]]:
    tiles = list(range(28))
    rng.shuffle(tiles)
    hands = [sum(1 << t for t in tiles[7 * s:7 * s + 7]) for s in range(players)]
    return hands, (tiles[7 * players:] if draw else [])


def _fits(hand: int, left: int, right: int) -> list[int]:
    m = hand & ENDS_MASK[left * 8 + right]
    return [i for i in range(28) if m >> i & 1]


def _step(table: Table, hands: list[int], left: int, right: int, board: int, seat: int, t: int
          ) -> tuple[int, int, int, bool]:
    """Lay tile ``t`` for ``seat`` as ``playout`` does: (left, right, board, round over)."""
    h = hands[seat] ^ 1 << t
    hands[seat] = h
    board |= 1 << t
    if left == NO_END:
        left, right = TILES[t]
    else:
        xl, xr = OTHER_ROWS[left][t], OTHER_ROWS[right][t]
        if xl >= 0 and xr >= 0 and left != right:
            if (h & NUM[xl]).bit_count() >= (h & NUM[xr]).bit_count():
                left = xl
            else:
                right = xr
        elif xl >= 0:
            left = xl
        else:
            right = xr
    closed = table.closed_board or not table.draw
    over = not h or (closed and left == right and board & NUM[left] == NUM[left])
    return left, right, board, over


def _value(table: Table, side: int, points: int, me_side: int) -> float:
    if side < 0:
        return 0.0
    v = (points + WIN_BONUS) / SCALE
    return v if side == me_side else -v / max(1, table.sides - 1)


Sample = tuple[list[list[float]], list[float]]


def self_play(w: tuple[float, ...], rounds: int, rollouts: int, rng: Random, eps: float = 0.1,
              keep: float = 0.35) -> list[Sample]:
    """Positions of ``rounds`` rounds played by the policy ``w``; per position, the features
    and the mean value (for the mover's side) of each tile that fits, over ``rollouts``
    playouts of the known deal continued by ``w``."""
    out: list[Sample] = []
    for r in range(rounds):
        players, draw, teams = SETUPS[r % len(SETUPS)]
        table = Table(players, draw, False, "opener", teams, "all_others", 0)
        hands, bone = _deal(rng, players, draw)
        left = right = NO_END
        board = 0
        seat = 0
        passes = 0
        while True:
            h = hands[seat]
            fits = _fits(h, left, right)
            if not fits and bone:
                while bone and not fits:
                    t = bone.pop()
                    hands[seat] |= 1 << t
                    fits = _fits(hands[seat], left, right)
            if not fits:
                passes += 1
                if passes >= players:
                    break
                seat = (seat + 1) % players
                continue
            passes = 0
            if len(fits) > 1 and rng.random() < keep:
                me_side = table.side(seat)
                feats = [tile_features(table, hands, board, left, right, seat, t) for t in fits]
                totals = [0.0] * len(fits)
                for _ in range(rollouts):
                    stream: list[float] = []
                    for k, t in enumerate(fits):
                        hs = hands[:]
                        nl, nr, nb, over = _step(table, hs, left, right, board, seat, t)
                        if over:
                            side, points = round_result(table, hs, seat if not hs[seat] else -1)
                        else:
                            side, points, _turns = playout(table, hs, bone[:], nl, nr, nb, (seat + 1) % players,
                                                           rng, eps, w, stream)
                        totals[k] += _value(table, side, points, me_side)
                out.append((feats, [v / rollouts for v in totals]))
            if len(fits) > 1 and rng.random() < eps:
                t = fits[int(rng.random() * len(fits))]
            else:
                scores = [sum(a * b for a, b in zip(w, tile_features(table, hands, board, left, right, seat, t),
                                                     strict=True)) for t in fits]
                t = fits[max(range(len(fits)), key=lambda k: (scores[k], -k))]
            left, right, board, over = _step(table, hands, left, right, board, seat, t)
            if over:
                break
            seat = (seat + 1) % players
    return out


def fit(samples: list[Sample], start: tuple[float, ...], temperature: float = 0.05, l2: float = 1e-3,
        steps: int = 400, rate: float = 0.5) -> tuple[float, ...]:
    """Softmax regression over each position's tiles: cross-entropy against
    ``softmax(values / temperature)``, L2 on the weights, full-batch gradient descent
    (numpy) on features scaled to unit spread; starts from ``start``."""
    import numpy as np

    k = max(len(v) for _f, v in samples)
    x = np.zeros((len(samples), k, N_FEATURES))
    mask = np.zeros((len(samples), k), dtype=bool)
    q = np.zeros((len(samples), k))
    for s, (feats, values) in enumerate(samples):
        c = len(values)
        x[s, :c] = feats
        mask[s, :c] = True
        z = np.array(values) / temperature
        z = np.exp(z - z.max())
        q[s, :c] = z / z.sum()
    scale = x[mask].std(axis=0)
    scale[scale == 0] = 1.0
    xs = x / scale
    theta = np.array(start) * scale
    for _ in range(steps):
        logits = np.where(mask, xs @ theta, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad = np.einsum("sk,skf->f", p - q, xs) / len(samples) + l2 * theta
        theta -= rate * grad
    return tuple(float(round(v, 6)) for v in theta / scale)


def agreement(samples: list[Sample], w: tuple[float, ...]) -> float:
    """Share of positions where the policy's tile is (one of) the best valued."""
    good = 0
    for feats, values in samples:
        scores = [sum(a * b for a, b in zip(w, f, strict=True)) for f in feats]
        pick = max(range(len(values)), key=lambda k: (scores[k], -k))
        good += values[pick] >= max(values) - 1e-9
    return good / len(samples)


def train(iterations: int, rounds: int, rollouts: int, seed: int, log: bool = False) -> dict[str, object]:
    rng = Random(f"learn-{seed}")
    w = FIXED_WEIGHTS
    history = []
    for it in range(iterations):
        start = time.process_time()
        samples = self_play(w, rounds, rollouts, rng)
        before = agreement(samples, w)
        w = fit(samples, w)
        history.append({"iteration": it, "positions": len(samples), "agree_before": round(before, 4),
                        "agree_after": round(agreement(samples, w), 4),
                        "cpu_s": round(time.process_time() - start, 1)})
        if log:
            print(history[-1], [round(v, 3) for v in w], flush=True)
    return {"features": list(FEATURES), "weights": list(w),
            "trained": {"iterations": iterations, "rounds": rounds, "rollouts": rollouts, "seed": seed,
                        "history": history}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train the learned playout policy (numpy, one process).")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=4000, help="self-play rounds per iteration")
    parser.add_argument("--rollouts", type=int, default=6, help="playouts per tile of a kept position")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args(argv)
    result = train(args.iterations, args.rounds, args.rollouts, args.seed, log=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

