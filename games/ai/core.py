"""The compiled core of hard's search: when it is used, and the bridge to it.

The hot loops of a decision (dealing consistent hands, weighing each deal by the other
seats' plays, the playouts, the block-duel tree and its rollouts, the exact endgame
solver) exist twice: in plain Python (``knowledge``, ``sim``, ``model``, ``tree``,
``solver``: the reference) and compiled by numba (``games.ai._kernels``), the same steps
with the same random numbers in the same order. Both give the same decisions; the
compiled one is about twenty times faster (``bench/ai_core.py``).

The compiled core is used when numba is installed (``requirements.txt``) and not switched
off by the environment: ``DOMINOES_AI_CORE=python`` (or ``0``, ``off``) keeps the
reference.

It is compiled once, when the project is installed (``python -m games.ai.build``, run by
``make install``), into numba's on-disk cache (``cache=True``: next to the module, or
under ``NUMBA_CACHE_DIR``). A process then *loads* it (``games.ai.warm.load()``: a small
decision through each compiled entry point, about half a second) instead of compiling it (tens of
seconds of CPU). A process that must never compile (the web processes: a compilation
there would hold up every hint and every socket of the process) calls
``forbid_compiling()`` first: if the cache is missing or stale, its decisions use the
Python reference instead (the same decisions, slower) and ``status()`` says
``"unbuilt"``.
"""
from __future__ import annotations

import importlib.util
import logging
import os
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from random import Random
from typing import TYPE_CHECKING, Any

from .sim import N_TILES, NUM, OTHER_ROWS, PIPS, TILES, per_seat

if TYPE_CHECKING:
    from .base import Candidate
    from .knowledge import Dealer, Knowledge

logger = logging.getLogger(__name__)

ENV = "DOMINOES_AI_CORE"
_OFF = {"0", "off", "python", "no", "false"}
# The compiled functions a decision calls (the others are called from these).
ENTRY_POINTS = ("evaluate_general", "evaluate_duel")


class NotBuilt(RuntimeError):
    """A compiled function is not in numba's cache and this process may not compile it."""


@lru_cache(maxsize=1)
def installed() -> bool:
    """True when numba and numpy are installed (found, not imported: importing numba takes
    a large part of a second, paid at the first decision that uses it)."""
    return all(importlib.util.find_spec(name) is not None for name in ("numba", "numpy"))


def switched_on() -> bool:
    """True when the environment allows the compiled core and numba is installed."""
    return os.environ.get(ENV, "").strip().lower() not in _OFF and installed()


def enabled() -> bool:
    """True when decisions use the compiled core: installed, not switched off, and not
    found missing from the cache in a process that may not compile it. While ``load()``
    runs in another thread, waits for it (loading takes a moment; it never compiles
    where compiling is forbidden)."""
    if not switched_on():
        return False
    if _load.status == "loading" and _load.thread != threading.get_ident():
        _load.done.wait()
    return _load.status != "unbuilt"


class _LoadState:
    """What this process did with the compiled core (one per process)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.done.set()
        self.status = "unloaded"
        self.thread = 0
        self.forbidden = False
        self.compiled = 0  # compilations of the core's functions in this process
        self.watching = False


_load = _LoadState()


def status() -> str:
    """``"off"`` (switched off or numba missing), ``"unloaded"`` (not loaded yet),
    ``"loading"``, ``"cached"`` (loaded from numba's cache: nothing compiled here),
    ``"compiled"`` (compiled by this process) or ``"unbuilt"`` (missing from the cache in a
    process that may not compile: the Python reference decides)."""
    return _load.status if switched_on() else "off"


def compilations() -> int:
    """How many of the core's functions this process has compiled (0 when everything came
    from the cache)."""
    return _load.compiled


def forbid_compiling() -> None:
    """From now on this process never compiles the core: a function missing from the
    cache makes the decision fall back to the Python reference (``status()``:
    ``"unbuilt"``). Web processes call it as they start. (numba is not imported here: the
    compiled functions are reached only through ``_kernels()``, which sets the watch up
    before their first call.)"""
    _load.forbidden = True


_watch_lock = threading.Lock()


def _watch() -> None:
    """Count (and, where forbidden, refuse) the compilations of the core's functions:
    numba announces each one with a ``numba:compile`` event once it has looked the
    function up in its cache and not found it there; a listener that raises stops the
    compilation before it starts."""
    with _watch_lock:
        if _load.watching:
            return
        from numba.core import event

        class CompileWatch(event.Listener):
            def on_start(self, evt: Any) -> None:
                data = evt.data if isinstance(evt.data, dict) else {}
                function = getattr(data.get("dispatcher"), "py_func", None)
                if getattr(function, "__module__", "") != _KERNELS:
                    return
                if _load.forbidden:
                    raise NotBuilt(
                        f"{getattr(function, '__name__', '?')} is not in numba's cache and this process may "
                        "not compile it (python -m games.ai.build)"
                    )
                _load.compiled += 1

            def on_end(self, evt: Any) -> None:
                return None

        event.register("numba:compile", CompileWatch())  # type: ignore[no-untyped-call]
        _load.watching = True


_KERNELS = __name__.rpartition(".")[0] + "._kernels"


def _kernels() -> Any:
    if not _load.watching:
        _watch()
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
) -> tuple[tuple[list[float], list[float], list[float]], int, int] | None:
    """``HardPlayer.evaluate`` outside block duels (pips-only reading of the plays), compiled:
    ((mean utility, points, wins) per candidate, deals, playouts). ``costs``: budget, setup, deal, playout,
    turn, node (microseconds); ``limits``: min deals, max deals, solver nodes (0: none),
    single deal. None when the compiled function is missing from the cache of a process
    that may not compile (nothing was touched: the caller runs the reference)."""
    import numpy as np

    k = _kernels()
    tb = _tables()
    tile, place, forbid, tier_of, held = _dealer_arrays(dealer)
    ch, _voids = _choices(know, False) if use_choices else _choices_empty(know)
    ut, scores = _utility_row(know, win_bonus, game_bonus)
    st = _state(rng)
    out = _call(
        k.evaluate_general,
        st, tile, place, forbid, tier_of, dealer.constrained, dealer.swaps, know.me, know.hand, held, ch,
        np.array(likelihood if likelihood else [1.0] * N_TILES, np.float64),
        _candidates(cands), know.board, know.left, know.right, (know.me + 1) % know.table.players,
        _table_row(know), ut, scores, float(eps), np.array(policy[0], np.int64), int(policy[1]),
        np.array(costs, np.float64), np.array([limits[0], limits[1], limits[2], int(limits[3])], np.int64),
        tb["lib"], tb["debruijn"], tb["pipc"],
    )
    if out is None:
        return None
    totals, pts, wins, weights, deals, playouts = out
    _restore(rng, st)
    dealer.tile = [int(x) for x in tile]
    return _means(totals, pts, wins, weights), int(deals), int(playouts)


def _call(kernel: Any, *args: Any) -> Any:
    """``kernel(*args)``, or None when it is missing from the cache and this process may not
    compile it (it then stops using the core: ``status()`` is ``"unbuilt"``)."""
    try:
        return kernel(*args)
    except NotBuilt as missing:
        if _load.status != "loading":
            logger.warning("compiled core: %s; the pure-Python reference decides from now on", missing)
        _load.status = "unbuilt"
        return None


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
    temper: float | Sequence[float],
    tremble: float | Sequence[float] = 0.0,
    voids: tuple[int, ...],
    tree: bool,
    track_voids: bool,
    explore: float,
    scale: float,
    model_weights: tuple[float, ...],
    costs: tuple[float, float, float, float, float, float, float, float],
    limits: tuple[int, int, bool],
    win_bonus: float,
    game_bonus: float,
    finish: tuple[float, tuple[list[int], int]] | None = None,
) -> tuple[tuple[list[float], list[float], list[float]], int, int] | None:
    """``HardPlayer.evaluate_duel``, compiled: ((mean utility, points, wins) per candidate,
    deals, descents).
    ``costs``: budget, setup, deal, tree step, rollout, model evaluation, playout, playout
    turn; ``limits``: min deals, max deals, single deal; ``finish``: (share of random moves,
    playout policy) to finish beyond the tree with the playouts (``tree.Finish``) instead of
    the model's rollout. None as ``evaluate_general``."""
    import numpy as np

    k = _kernels()
    tb = _tables()
    mt = model_tables(model_weights, know.table.players, know.table.teams)
    tile, place, forbid, tier_of, held = _dealer_arrays(dealer)
    players = know.table.players
    tempers = per_seat(temper, players)
    ch, ch_voids = _choices(know, True) if any(t > 0 for t in tempers) else _choices_empty(know)
    ut, scores = _utility_row(know, win_bonus, game_bonus)
    eps, policy = finish if finish is not None else (0.0, ([0] * N_TILES, 0))
    st = _state(rng)
    out = _call(
        k.evaluate_duel,
        st, tile, place, forbid, tier_of, dealer.constrained, dealer.swaps, know.me, know.hand, held, ch, ch_voids,
        np.array(tempers, np.float64), np.array(per_seat(tremble, players), np.float64), np.array(voids, np.int64), _candidates(cands), know.board, _table_row(know), ut, scores,
        float(scale), bool(tree), bool(track_voids), float(explore), np.array(costs, np.float64),
        np.array([limits[0], limits[1], int(limits[2])], np.int64),
        finish is not None, float(eps), np.array(policy[0], np.int64), int(policy[1]),
        tb["lib"], mt["base"], mt["wf"], mt["so"], mt["sb"], mt["sf"], tb["debruijn"], tb["numc"], tb["pipc"],
    )
    if out is None:
        return None
    totals, pts, wins, weights, deals, descents = out
    _restore(rng, st)
    dealer.tile = [int(x) for x in tile]
    return _means(totals, pts, wins, weights), int(deals), int(descents)


def load(exercise: Callable[[], bool]) -> str:
    """Load the compiled functions now rather than at a first decision (compiling those
    missing from the cache, unless ``forbid_compiling()`` was called): ``exercise`` makes
    one small decision through each entry point and says False when one was missing from
    the cache where compiling is forbidden (``games.ai.warm.load`` gives it: a decision of
    the hard level, which the core does not import). Returns ``status()``. Safe from
    several threads: one loads, the others wait for it (and so does ``enabled()``)."""
    if not switched_on():
        return "off"
    with _load.lock:
        if _load.status in ("cached", "compiled", "unbuilt"):
            return _load.status
        _watch()
        before = _load.compiled
        _load.thread = threading.get_ident()
        _load.status = "loading"
        _load.done.clear()
        outcome = "unbuilt"
        try:
            if exercise():
                outcome = "compiled" if _load.compiled > before else "cached"
        finally:
            _load.status = outcome
            _load.thread = 0
            _load.done.set()
        return outcome
