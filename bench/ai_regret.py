"""How far hard's choices are from those of a much larger search: the regret of a decision.

Run from the repository root: ``.venv/bin/python bench/ai_regret.py``.

Games decide strength, but they are slow to measure and noisy (a duel-block round is
mostly luck). For changes that only spend hard's budget differently (how many deals,
which plays get them), a quicker measure is enough: take positions from real games
(hard at 50 ms against medium, seeds ``regret-<n>``), value every candidate play once
with a much larger search (``--reference-deals`` deals, another seed), and for each
budget measured record the *regret* of hard's choice: the reference value of the
reference's best play minus that of the play hard chose (0 when they agree). Values are
hard's utility: a single round's win is worth 1,000, plus the points, so a regret of 10
is one per cent of a win.

``--set name=value`` (repeatable) runs hard a second time with options changed (fields of
``games.ai.HardOptions``: ``playout_eps=0.05``, say), on the same positions and seeds,
and prints the paired change of the regret. The reference is hard as it is: a variant
that changes what hard values (its model, its objective) needs games, not this. With
``--reference-set name=value`` (repeatable) the reference searches with those options
instead (and so does the "hard" row, ``--set`` adding to them): how far a search of another
kind (``block_tree=True``, say) is at a budget from what it finds with many more deals.
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
import math
import multiprocessing
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.ai import SETUPS  # noqa: E402
from games.ai import choose_action  # noqa: E402
from games.ai.base import candidates  # noqa: E402
from games.ai.hard import DEFAULTS, HardOptions, HardPlayer, best_of  # noqa: E402
from games.ai.knowledge import read_view  # noqa: E402
from games.engine import PlayerView, apply_action, new_game, rules_for, view_for  # noqa: E402

# The reference searches with this budget (it stops at --reference-deals first).
REFERENCE_BUDGET_MS = 1e6
REFERENCE_SEED = 10**6


def positions(setup: str, count: int) -> list[dict[str, Any]]:
    """Views (as dicts) where hard, playing against medium, chooses among two plays or more."""
    _label, preset, players, teams = next(s for s in SETUPS if s[0].startswith(setup))
    rules = dataclasses.replace(rules_for(preset, players=players, teams=teams), target=0)
    out: list[dict[str, Any]] = []
    game = 0
    while len(out) < count:
        state = new_game(rules, seed=f"regret-{game}")
        step = 0
        while not state.round_over and len(out) < count:
            seat = state.to_move
            view = view_for(state, seat)
            level = "hard" if seat % 2 == game % 2 else "medium"
            if level == "hard" and len(view.legal) > 1 and len(candidates(list(view.legal), read_view(view))) > 1:
                out.append(view.to_dict())
            state = apply_action(state, choose_action(view, level, seed=step, budget_ms=50))
            step += 1
        game += 1
    return out


def options_with(sets: list[str], base: HardOptions = DEFAULTS) -> HardOptions:
    """``base`` with ``name=value`` changes (fields of ``HardOptions``; values are Python
    literals). Nothing global changes: the options are passed to the player."""
    fields = {f.name for f in dataclasses.fields(HardOptions)}
    changes: dict[str, Any] = {}
    for item in sets:
        name, _, value = item.partition("=")
        if name not in fields:
            raise SystemExit(f"--set {item}: HardOptions has no field {name!r}")
        changes[name] = ast.literal_eval(value)
    return dataclasses.replace(base, **changes)


def values(job: tuple[dict[str, Any], float, int, int, list[str]]) -> tuple[list[float], int]:
    """Hard's value of every candidate of the position and the index of its choice."""
    view_dict, budget_ms, seed, max_deals, sets = job
    options = options_with(sets, dataclasses.replace(DEFAULTS, budget_ms=budget_ms, max_deals=max_deals))
    view = PlayerView.from_dict(view_dict)
    know = read_view(view)
    cands = candidates(list(view.legal), know)
    totals = HardPlayer(options=options).evaluate(know, cands, Random(seed))
    return totals, best_of(know, cands, totals)


def regrets(reference: list[tuple[list[float], int]], chosen: list[int]) -> list[float]:
    return [ref[ref_best] - ref[pick] for (ref, ref_best), pick in zip(reference, chosen, strict=True)]


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, math.inf
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", default="pairs", choices=[s[0].split()[0].rstrip(",") for s in SETUPS],
                        help="setup of the games (default pairs)")
    parser.add_argument("--positions", type=int, default=300, help="positions (default 300)")
    parser.add_argument("--budgets", type=float, nargs="+", default=[50.0, 250.0], help="hard's budgets, ms")
    parser.add_argument("--seeds", type=int, default=2, help="runs of hard per position and budget (default 2)")
    parser.add_argument("--reference-deals", type=int, default=10_000, help="deals of the reference search")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="also measure hard with this option of HardOptions changed (repeatable)")
    parser.add_argument("--reference-set", action="append", default=[], metavar="NAME=VALUE",
                        help="the reference (and the hard row) with this option of HardOptions changed")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    views = positions(args.setup, args.positions)
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        base = list(args.reference_set)
        reference = pool.map(values, [(v, REFERENCE_BUDGET_MS, REFERENCE_SEED + i, args.reference_deals, base)
                                      for i, v in enumerate(views)])
        print(f"{args.setup}: {len(views)} positions, reference of {args.reference_deals:,} deals"
              f"{' with ' + ' '.join(base) if base else ''} ({time.perf_counter() - start:.0f} s); "
              "regret in utility units (a win = 1,000)")
        runs = [(v, i, s) for i, v in enumerate(views) for s in range(args.seeds)]
        ref = [reference[i] for _v, i, _s in runs]
        for budget in args.budgets:
            rows: dict[str, list[float]] = {}
            for label, sets in [("hard", base), *([("with " + " ".join(args.set), base + args.set)] if args.set else [])]:
                picks = pool.map(values, [(v, budget, 7 * i + s, DEFAULTS.max_deals, sets) for v, i, s in runs])
                rows[label] = regrets(ref, [best for _totals, best in picks])
                mean, half = mean_ci(rows[label])
                agree = sum(1 for r in rows[label] if r == 0) / len(runs)
                print(f"  {budget:6.0f} ms  {label:40} regret {mean:7.2f} ± {half:5.2f}   no regret {agree:.1%}",
                      flush=True)
            if args.set:
                mean, half = mean_ci([b - a for a, b in zip(*rows.values(), strict=True)])
                print(f"  {budget:6.0f} ms  paired change {mean:+.2f} ± {half:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
