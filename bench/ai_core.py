"""Deals and playouts per CPU second of hard's search: the pure-Python reference and the
compiled core (numba) side by side, on the same positions, in one run.

Run from the repository root: ``.venv/bin/python bench/ai_core.py``.

Both paths make the same decisions with the same work (the budget counts work, not time),
so they deal the same deals and play the same playouts: the ratio of CPU times is the
speed-up. Positions come from hard-against-medium games of each setup (every position
where hard chooses between two plays or more). A "playout" is one candidate's playout,
tree descent or exact solve of one deal. The first lines time a fresh process's first
decision (the compiled functions loaded from numba's cache) and the compilation itself.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.ai import HardOptions, HardPlayer, choose_action, core  # noqa: E402
from games.ai.base import candidates  # noqa: E402
from games.ai.knowledge import read_view  # noqa: E402
from games.engine import PlayerView, apply_action, new_game, rules_for, view_for  # noqa: E402

SETUPS = [("duel-block", "duel-block", 2, False), ("pairs (arena)", "arena", 4, True),
          ("classic-draw, 2", "classic-draw", 2, False)]

FIRST_DECISION = """
import time
start = time.perf_counter()
from games.ai import choose_action, core
from games.engine import new_game, rules_for, view_for
state = new_game(rules_for("duel-block", players=2), seed="first")
view = view_for(state, state.to_move)
choose_action(view, "hard", seed=1, budget_ms=5)
print(f"{time.perf_counter() - start:.3f} {core.enabled()}")
"""


def positions(preset: str, players: int, teams: bool, count: int) -> list[PlayerView]:
    rules = rules_for(preset, players=players, teams=teams)
    out: list[PlayerView] = []
    game = 0
    while len(out) < count:
        state = new_game(rules, seed=f"core-bench-{game}")
        step = 0
        while not state.round_over and len(out) < count:
            view = view_for(state, state.to_move)
            level = "hard" if state.to_move % 2 == game % 2 else "medium"
            if level == "hard" and len(candidates(list(view.legal), read_view(view))) > 1:
                out.append(view)
            state = apply_action(state, choose_action(view, "medium", seed=step))
            step += 1
        game += 1
    return out


def searches(player: HardPlayer, views: list[PlayerView]) -> list[tuple[float, int, int]]:
    """(CPU seconds, deals, playouts) of ``player``'s search of each position (seed: its index)."""
    out = []
    for n, view in enumerate(views):
        know = read_view(view)
        cands = candidates(list(view.legal), know)
        start = time.process_time()
        player.evaluate(know, cands, Random(n))
        out.append((time.process_time() - start, player.stats.deals, player.stats.playouts))
    return out


def measure(views: list[PlayerView], options: HardOptions, path: str) -> tuple[float, int, int]:
    """(CPU seconds, deals, playouts) of hard's search over the positions on one path, in all."""
    os.environ[core.ENV] = path
    rows = searches(HardPlayer(options=options), views)
    return sum(r[0] for r in rows), sum(r[1] for r in rows), sum(r[2] for r in rows)


def first_decision(env: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, "-c", FIRST_DECISION], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, **env}, check=True).stdout.split()
    return f"{float(out[0]) * 1000:.0f} ms (core {'on' if out[1] == 'True' else 'off'})"


def hint_times(count: int) -> None:
    """A hint's analysis (``games.coach.analysis.analyse`` at the site's defaults: 150 ms, at least
    200 deals) over positions of every setup, with the compiled core."""
    os.environ[core.ENV] = "1"
    timed = [t for _label, preset, players, teams in SETUPS for t in time_hints(positions(preset, players, teams, count))]
    wall = sorted(t[0] for t in timed)
    cpu = sorted(t[1] for t in timed)
    print(f"\na hint's analysis (150 ms, 200 deals at least), {len(cpu)} positions, compiled core: "
          f"CPU p50 {pct(cpu, 0.5):.0f} ms, p99 {pct(cpu, 0.99):.0f} ms, max {cpu[-1] * 1000:.0f} ms; "
          f"wall p50 {pct(wall, 0.5):.0f} ms, p99 {pct(wall, 0.99):.0f} ms (load {os.getloadavg()[0]:.1f})")


def pct(values: list[float], p: float) -> float:
    """The ``p`` quantile of sorted seconds, in ms."""
    return values[min(len(values) - 1, int(p * len(values)))] * 1000


def decisions(player: HardPlayer, views: list[PlayerView]) -> tuple[list[float], list[int]]:
    """The CPU seconds and the deals of ``player``'s search of each position, each list sorted."""
    rows = searches(player, views)
    return sorted(r[0] for r in rows), sorted(r[1] for r in rows)


def time_hints(views: list[PlayerView], options: HardOptions | None = None) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of a hint's analysis (``games.coach.analysis.analyse`` at the site's
    defaults: 150 ms, at least 200 deals) of each position, with ``options`` (None: the current
    version's)."""
    from games.coach import analysis

    out = []
    for n, view in enumerate(views):
        start, start_cpu = time.perf_counter(), time.process_time()
        analysis.analyse(view, seed=n, budget_ms=150, deals=200, options=options)
        out.append((time.perf_counter() - start, time.process_time() - start_cpu))
    return out


# ``--versions``' setups: (preset, players, pairs, which positions a deal's cost is measured on).
VERSION_SETUPS = {
    "pairs": ("arena", 4, True, "more than 10 tiles in the hands"),
    "classic-draw": ("classic-draw", 2, False, "tiles left to draw and more than 10 in the hands and the boneyard"),
}


def _searched(view: PlayerView, setup: str) -> bool:
    """A position of ``setup`` beyond the exact endgames, and in the draw game with tiles left
    to draw (where the versions' trees search)."""
    know = read_view(view)
    return sum(know.counts) + know.boneyard > 10 and (setup == "pairs" or know.boneyard > 0)


def version_costs(cost_positions: int, hint_positions: int, fixed_deals: int, setup: str = "pairs") -> None:
    """Hard's implemented versions side by side in pairs (or the draw duel), compiled
    (docs/ai.md, "Hard version 3"): the CPU of a deal at a fixed number of deals (positions
    beyond the exact endgames), the deals and CPU of a decision at the default budget, and a
    hint's CPU (the search of ``games.coach.analysis.analyse``: 150 ms, at least 200 deals)."""
    from dataclasses import replace

    from games.ai.hard import VERSION_OPTIONS

    os.environ[core.ENV] = "1"
    preset, players, teams, which = VERSION_SETUPS[setup]
    pool = positions(preset, players, teams, cost_positions * 8)
    views = [view for view in pool if _searched(view, setup)][:cost_positions]
    hint_views = positions(preset, players, teams, hint_positions)
    measure(views[:1], VERSION_OPTIONS[max(VERSION_OPTIONS)], "1")  # load the compiled functions first
    print(f"hard's versions in {setup}, compiled: {len(views)} positions with {which}, "
          f"{len(hint_views)} hint positions")
    print(f"{'version':8} {'us/deal':>8} {'deals at budget (median)':>25} {'CPU median':>11} {'max':>7} "
          f"{'hint p50':>9} {'p99':>6} {'max':>6}")
    for version, options in sorted(VERSION_OPTIONS.items()):
        cpu, deals, _playouts = measure(views, replace(options, min_deals=fixed_deals, max_deals=fixed_deals), "1")
        per_deal = cpu / max(1, deals) * 1e6
        decision_cpu, decision_deals = decisions(HardPlayer(options=options), views)
        hints_cpu = sorted(cpu for _wall, cpu in time_hints(hint_views, options))
        print(f"{version:8} {per_deal:8.1f} {decision_deals[len(decision_deals) // 2]:>25,} "
              f"{pct(decision_cpu, 0.5):9.0f}ms {decision_cpu[-1] * 1000:5.0f}ms "
              f"{pct(hints_cpu, 0.5):7.0f}ms {pct(hints_cpu, 0.99):4.0f}ms {hints_cpu[-1] * 1000:4.0f}ms", flush=True)
    print(f"(load {os.getloadavg()[0]:.1f}; CPU time of this process, so the load slows the run, not the figures much)")


def speeds(count: int, hints: int, budget_ms: float, *, startup: bool) -> None:
    """The fresh-process timings, both paths side by side on each setup, and the hints."""
    if startup:
        print("first decision of a fresh process (imports included):")
        print(f"  compiled core, cache on disk    {first_decision({})}")
        print(f"  pure Python                     {first_decision({core.ENV: 'python'})}")
        with tempfile.TemporaryDirectory() as cache:
            print(f"  compiled core, empty cache      {first_decision({'NUMBA_CACHE_DIR': cache})}"
                  " (compilation, once per machine)")
    options = HardOptions(budget_ms=budget_ms)
    print(f"\nhard's search at {budget_ms:g} ms of budget, {count} positions per setup "
          "(same work on both paths)")
    print(f"{'setup':18} {'path':8} {'deals':>8} {'playouts':>9} {'CPU s':>7} {'deals/s':>9} "
          f"{'playouts/s':>11} {'speed-up':>8}")
    for label, preset, players, teams in SETUPS:
        views = positions(preset, players, teams, count)
        measure(views[:1], options, "1")  # load the compiled functions first
        rows = {path: measure(views, options, path) for path in ("python", "1")}
        base = rows["python"][0]
        for path, (cpu, deals, playouts) in rows.items():
            name = "python" if path == "python" else "compiled"
            print(f"{label:18} {name:8} {deals:8,} {playouts:9,} {cpu:7.2f} {deals / cpu:9,.0f} "
                  f"{playouts / cpu:11,.0f} {base / cpu:7.1f}x", flush=True)
        assert rows["python"][1:] == rows["1"][1:], "the two paths searched differently"
    if hints:
        hint_times(hints)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=None,
                        help="positions per setup (default 20; with --versions 40)")
    parser.add_argument("--budget-ms", type=float, default=10.0,
                        help="hard's budget (default 10: 300 ms of reference work, about a decision of before)")
    parser.add_argument("--no-startup", action="store_true", help="skip the fresh-process timings")
    parser.add_argument("--hints", type=int, default=None,
                        help="hints to time per setup (default 60; with --versions 150; 0: none)")
    parser.add_argument("--versions", action="store_true",
                        help="only hard's implemented versions side by side in pairs (cost a deal, "
                             "a decision at the default budget, a hint)")
    parser.add_argument("--setup", choices=tuple(VERSION_SETUPS), default="pairs",
                        help="--versions' setup: pairs (default) or classic-draw (the draw game, two players)")
    parser.add_argument("--fixed-deals", type=int, default=3000, help="deals a decision for --versions' cost a deal")
    args = parser.parse_args(argv)
    saved = os.environ.get(core.ENV)
    if not core.installed():
        print("numba is not installed: only the reference path exists (pip install -r requirements.txt)")
        return 1
    try:
        if args.versions:
            version_costs(40 if args.positions is None else args.positions,
                          150 if args.hints is None else args.hints, args.fixed_deals, args.setup)
        else:
            speeds(20 if args.positions is None else args.positions, 60 if args.hints is None else args.hints,
                   args.budget_ms, startup=not args.no_startup)
    finally:
        if saved is None:
            os.environ.pop(core.ENV, None)
        else:
            os.environ[core.ENV] = saved
    return 0


if __name__ == "__main__":
    sys.exit(main())
