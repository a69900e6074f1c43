"""The compiled core of hard's search: when it is used, and the bridge to it.

The hot loops of a decision (dealing consistent hands, weighing each deal by the other
seats' plays, the playouts, the block-duel tree and its rollouts, the exact endgame
solver) exist twice: in plain Python (``knowledge``, ``sim``, ``model``, ``tree``,
``solver``: the reference) and compiled by numba (``games.ai._kernels``), the same steps
with the same random numbers in the same order. Both give the same decisions; the
compiled one is about twenty times faster (``bench/ai_core.py``).

The compiled core is used when numba is installed (``requirements.txt``) and not switched
off by the environment: ``DOMINOES_AI_CORE=python`` (or ``0``, ``off``) keeps the
reference. Compiled functions are cached on disk next to the module (numba's
``cache=True``; ``NUMBA_CACHE_DIR`` moves the cache), so only the first process on a
machine pays the compilation; ``games.ai.warm.warm_up()`` compiles or loads them ahead
of a first decision (the app and the workers call it at start).
"""
from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from random import Random
from typing import TYPE_CHECKING, Any

from .sim import N_TILES, NUM, OTHER_ROWS, PIPS, TILES

if TYPE_CHECKING:
    from .base import Candidate
    from .knowledge import Dealer, Knowledge

ENV = "DOMINOES_AI_CORE"
_OFF = {"0", "off", "python", "no", "false"}


@lru_cache(maxsize=1)
def installed() -> bool:
    """True when numba and numpy are installed (found, not imported: importing numba takes
    a large part of a second, paid at the first decision that uses it)."""
    return all(importlib.util.find_spec(name) is not None for name in ("numba", "numpy"))


def enabled() -> bool:
    """True when decisions use the compiled core (installed, not switched off)."""
    return os.environ.get(ENV, "").strip().lower() not in _OFF and installed()


def _kernels() -> Any:
    from . import _kernels

    return _kernels


@lru_cache(maxsize=1)
def _tables() -> dict[str, Any]:
    import numpy as np

    lib = np.zeros(7 + 2 * N_TILES + 8 * N_TILES, np.int64)
    lib[:7] = NUM
    lib[7 : 7 + N_TILES] = [a for a, _b in TILES]
    lib[35 : 35 + N_TILES] = [b for _a, b in TILES]
    lib[63:] = [x for row in OTHER_ROWS for x in row]
    debruijn = np.zeros(32, np.int64)
    for i in range(32):
        debruijn[(((1 << i) * 0x077CB531) & 0xFFFFFFFF) >> 27] = i
    pipc = np.array(
        [[sum(PIPS[c * 7 + k] for k in range(7) if v >> k & 1) for v in range(128)] for c in range(4)], np.int64
    )
    numc = np.array(
        [[sum(1 << n for n in range(7) if v & (NUM[n] >> (c * 7)) & 127) for v in range(128)] for c in range(4)],
        np.int64,
    )
    return {"lib": lib, "debruijn": debruijn, "pipc": pipc, "numc": numc}


def _state(rng: Random) -> Any:
    import numpy as np

    _version, words, _gauss = rng.getstate()
    return np.array(words, np.int64)


def _restore(rng: Random, st: Any) -> None:
    version, _words, gauss = rng.getstate()
    rng.setstate((version, tuple(int(x) for x in st), gauss))


def _table_row(know: Knowledge) -> Any:
    import numpy as np

    t = know.table
    return np.array(
        [t.players, int(t.teams), int(t.team_scoring == "opponents"), 0 if t.blocked_tie == "opener" else 1,
         t.opener, int(t.draw), int(t.closed_board or not t.draw)],
        np.int64,
    )


def _utility_row(know: Knowledge, win_bonus: float, game_bonus: float) -> tuple[Any, Any]:
    import numpy as np

    table = know.table
    ut = np.array([table.side(know.me), max(1, table.sides - 1), know.target, win_bonus, game_bonus], np.float64)
    return ut, np.array(know.side_scores, np.float64)


def _dealer_arrays(dealer: Dealer) -> tuple[Any, Any, Any, Any, Any]:
    import numpy as np

    know = dealer.know
    n = min(len(dealer.tile), len(dealer.place), len(dealer.tier_of))
    width = max((len(know.tiers[s]) for s in range(know.table.players)), default=0) + 1
    return (
        np.array(dealer.tile, np.int64),
        np.array(dealer.place[: len(dealer.tile)], np.int64),
        np.array(dealer.forbid[: len(dealer.tile)], np.int64),
        np.array(dealer.tier_of[:n], np.int64),
        np.zeros((know.table.players, width), np.int64),
    )


def _choices(know: Knowledge, with_voids: bool) -> tuple[Any, Any]:
    import numpy as np

    rows = [[c.seat, c.tiers, c.later, c.fit, c.tile, c.left, c.right, c.board, 0] for c in know.choices]
    ch = np.array(rows, np.int64).reshape(len(rows), 9)
    players = know.table.players
    if with_voids:
        voids = np.array([list(c.voids) + [0] * (players - len(c.voids)) for c in know.choices], np.int64)
        voids = voids.reshape(len(rows), players)
    else:
        voids = np.zeros((len(rows), players), np.int64)
    return ch, voids


def _candidates(cands: list[Candidate]) -> Any:
    import numpy as np

    return np.array([[c.tile, int(c.on_left), c.left, c.right] for c in cands], np.int64).reshape(len(cands), 4)


def evaluate_general(
    know: Knowledge,
    cands: list[Candidate],
    rng: Random,
    dealer: Dealer,
    *,
    use_choices: bool,
    likelihood: list[float],
    eps: float,
    policy: tuple[list[int], int],
    costs: tuple[float, float, float, float, float, float],
    limits: tuple[int, int, int, bool],
    win_bonus: float,
    game_bonus: float,
) -> tuple[tuple[list[float], list[float], list[float]], int, int]:
    """``HardPlayer.evaluate`` outside block duels (pips-only reading of the plays), compiled:
    ((mean utility, points, wins) per candidate, deals, playouts). ``costs``: budget, setup, deal, playout,
    turn, node (microseconds); ``limits``: min deals, max deals, solver nodes (0: none),
    single deal."""
    import numpy as np

    k = _kernels()
    tb = _tables()
    tile, place, forbid, tier_of, held = _dealer_arrays(dealer)
    ch, _voids = _choices(know, False) if use_choices else _choices_empty(know)
    ut, scores = _utility_row(know, win_bonus, game_bonus)
    st = _state(rng)
    totals, pts, wins, weights, deals, playouts = k.evaluate_general(
        st, tile, place, forbid, tier_of, dealer.constrained, dealer.swaps, know.me, know.hand, held, ch,
        np.array(likelihood if likelihood else [1.0] * N_TILES, np.float64),
        _candidates(cands), know.board, know.left, know.right, (know.me + 1) % know.table.players,
        _table_row(know), ut, scores, float(eps), np.array(policy[0], np.int64), int(policy[1]),
        np.array(costs, np.float64), np.array([limits[0], limits[1], limits[2], int(limits[3])], np.int64),
        tb["lib"], tb["debruijn"], tb["pipc"],
    )
    _restore(rng, st)
    dealer.tile = [int(x) for x in tile]
    return _means(totals, pts, wins, weights), int(deals), int(playouts)


def _means(totals: Any, pts: Any, wins: Any, weights: float) -> tuple[list[float], list[float], list[float]]:
    """The weighted means (utility, points, wins) per candidate, as the reference divides them."""
    if weights > 0:
        return ([float(t) / weights for t in totals], [float(p) / weights for p in pts],
                [float(x) / weights for x in wins])
    zero = [0.0] * len(totals)
    return zero, zero[:], zero[:]


def _choices_empty(know: Knowledge) -> tuple[Any, Any]:
    import numpy as np

    players = know.table.players
    return np.zeros((0, 9), np.int64), np.zeros((0, players), np.int64)


def model_tables(weights: tuple[float, ...], players: int, teams: bool) -> dict[str, Any]:
    """The tips model's weights as arrays: ``weights`` is (pips, double, follow, exposed,
    spread, void, feed, partner block) as in ``games.ai.medium``."""
    return _model_tables(tuple(weights), players, teams)


@lru_cache(maxsize=64)
def _model_tables(weights: tuple[float, ...], players: int, teams: bool) -> dict[str, Any]:
    import numpy as np

    w_pips, w_double, w_follow, w_exposed, w_spread, w_void, w_feed, w_partner = weights
    base = np.array([w_pips * PIPS[i] + (w_double if TILES[i][0] == TILES[i][1] else 0.0) for i in range(N_TILES)])
    width = max(1, players - 1)
    so = np.zeros((players, width), np.int64)
    sb = np.zeros((players, width))
    sf = np.zeros((players, width))
    for seat in range(players):
        for j in range(1, players):
            other = (seat + j) % players
            weight = 1.0 if j == 1 else 0.5
            opponent = (other % 2 != seat % 2) if teams else True
            so[seat, j - 1] = other
            if opponent:
                sb[seat, j - 1] = w_void * weight
                sf[seat, j - 1] = -w_feed * weight
            else:
                sb[seat, j - 1] = -w_partner
                sf[seat, j - 1] = w_feed
    return {"base": base, "wf": np.array([w_follow, w_exposed, w_spread]), "so": so, "sb": sb, "sf": sf}


def evaluate_duel(
    know: Knowledge,
    cands: list[Candidate],
    rng: Random,
    dealer: Dealer,
    *,
    temper: float,
    voids: tuple[int, ...],
    tree: bool,
    track_voids: bool,
    explore: float,
    scale: float,
    model_weights: tuple[float, ...],
    costs: tuple[float, float, float, float, float, float],
    limits: tuple[int, int, bool],
    win_bonus: float,
    game_bonus: float,
) -> tuple[tuple[list[float], list[float], list[float]], int, int]:
    """``HardPlayer.evaluate_duel``, compiled: ((mean utility, points, wins) per candidate,
    deals, descents).
    ``costs``: budget, setup, deal, tree step, rollout, model evaluation; ``limits``: min
    deals, max deals, single deal."""
    import numpy as np

    k = _kernels()
    tb = _tables()
    mt = model_tables(model_weights, know.table.players, know.table.teams)
    tile, place, forbid, tier_of, held = _dealer_arrays(dealer)
    ch, ch_voids = _choices(know, True) if temper > 0 else _choices_empty(know)
    ut, scores = _utility_row(know, win_bonus, game_bonus)
    st = _state(rng)
    totals, pts, wins, weights, deals, descents = k.evaluate_duel(
        st, tile, place, forbid, tier_of, dealer.constrained, dealer.swaps, know.me, know.hand, held, ch, ch_voids,
        float(temper), np.array(voids, np.int64), _candidates(cands), know.board, _table_row(know), ut, scores,
        float(scale), bool(tree), bool(track_voids), float(explore), np.array(costs, np.float64),
        np.array([limits[0], limits[1], int(limits[2])], np.int64),
        tb["lib"], mt["base"], mt["wf"], mt["so"], mt["sb"], mt["sf"], tb["debruijn"], tb["numc"], tb["pipc"],
    )
    _restore(rng, st)
    dealer.tile = [int(x) for x in tile]
    return _means(totals, pts, wins, weights), int(deals), int(descents)
