"""Issue 32's experiment: hard with the learned playout policy (``games.ai.learn``,
``HardOptions(learned_playout=True)``) against hard with the fixed playouts, at the same
budget. Both search as hard version 2 did (``options_for("2")``: the playouts everywhere
but in block duels; version 3 searches a tree instead with three or four seats where
nothing can be drawn, where the playouts' policy only finishes the round).

Run from the repository root: ``.venv/bin/python bench/ai_learned.py``.

- ``--cost``: CPU per playout turn of ``learn.playout`` over ``sim.playout`` (pure
  Python, the same positions and random numbers): what ``learn.TURN_COST`` charges.
- games (default): ``learned`` (hard with the learned playouts) against ``hard`` in one
  setup, head to head, duplicate deals (each deal under every seating, seeds
  ``bench-<n>`` as ``bench/ai.py``), so both sides get the same tiles; and, with
  ``--against medium``, each of them against medium on the same deals (paired per deal).
  The learned playouts run on the pure-Python path; hard as it is on the compiled core
  (the same decisions as its Python path, ``test_core.py``). Prints the CPU per decision
  of each.
- ``--cpu N``: CPU per decision of both on the pure-Python path, on N positions of
  ``bench/ai_regret.py``'s games, at the same budget.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import ai as bench_ai  # noqa: E402
from bench.ai import SETUPS, seatings, wilson  # noqa: E402
from games.ai import HardPlayer, choose_action, learn  # noqa: E402
from games.ai.hard import options_for  # noqa: E402
from games.ai.sim import Table, playout  # noqa: E402
from games.engine import PlayerView, State, rules_for, view_for  # noqa: E402

# The search the learned policy was measured in (docs/ai.md, "A learned playout policy").
PLAYOUTS = options_for("2")
LEARNED = replace(PLAYOUTS, learned_playout=True)
CPU: dict[str, list[float]] = {"learned": [], "hard": []}


def act(level: str, state: State, seat: int, seed: int, budget: float | None) -> Any:
    view = view_for(state, seat)
    if level not in CPU:
        return choose_action(view, level, seed=seed, budget_ms=budget)
    options = LEARNED if level == "learned" else PLAYOUTS
    start = time.process_time()
    action = HardPlayer(budget, options=options).choose(view, Random(seed))
    if len(view.legal) > 1:
        CPU[level].append(time.process_time() - start)
    return action


def cost(rounds: int) -> None:
    rng = Random("cost")
    tables = [Table(p, d, False, "opener", t, "all_others", 0) for p, d, t in learn.SETUPS]
    jobs = []
    for r in range(rounds):
        table = tables[r % len(tables)]
        hands, bone = learn._deal(rng, table.players, table.draw)
        jobs.append((table, hands, bone))
    w = learn.weights()
    times = {}
    for name in ("fixed", "learned"):
        rng = Random(1)
        turns = 0
        start = time.process_time()
        for table, hands, bone in jobs:
            if name == "fixed":
                turns += playout(table, hands[:], bone[:], 7, 7, 0, 0, rng, 0.1)[2]
            else:
                turns += learn.playout(table, hands[:], bone[:], 7, 7, 0, 0, rng, 0.1, w)[2]
        times[name] = (time.process_time() - start) / turns * 1e6
        print(f"{name:8} {times[name]:.2f} µs of CPU per turn ({turns} turns)")
    print(f"ratio {times['learned'] / times['fixed']:.2f}")


def cpu(count: int, budget: float, setup: str) -> None:
    from bench.ai_regret import positions

    os.environ["DOMINOES_AI_CORE"] = "python"
    views = positions(setup, count)
    for label, options in (("hard", PLAYOUTS), ("learned", LEARNED)):
        times = []
        for i, v in enumerate(views):
            view = PlayerView.from_dict(v)
            start = time.process_time()
            HardPlayer(budget, options=options).choose(view, Random(i))
            times.append(time.process_time() - start)
        times.sort()
        print(f"{label:8} pure Python, {budget} ms budget: median {times[len(times) // 2] * 1000:.0f} ms, "
              f"mean {sum(times) / len(times) * 1000:.0f} ms of CPU per decision ({len(times)} positions)")


def paired(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else math.inf
    return mean, 1.96 * sd / math.sqrt(n)


def games(args: argparse.Namespace) -> None:
    label, preset, players, teams = next(s for s in SETUPS if s[0].startswith(args.setup))
    rules = replace(rules_for(preset, players=players, teams=teams), target=0)
    print(f"{label}, {args.deals} duplicate deals (bench-{args.first}..), {len(seatings(rules))} seatings each, "
          f"budget {args.budget_ms} ms")
    pairings = [("learned", "hard")] if args.against is None else [("learned", args.against), ("hard", args.against)]
    per_deal: dict[str, list[float]] = {}
    for a, b in pairings:
        start = time.perf_counter()
        won = lost = 0
        score: list[float] = []
        for d in range(args.first, args.first + args.deals):
            out = bench_ai.play_deal((rules, a, b, d, args.budget_ms), act)
            won += sum(1 for g in out if g[0] == 1)
            lost += sum(1 for g in out if g[0] == -1)
            score.append(sum(g[0] for g in out) / len(out))
            if len(score) % 50 == 0:
                mean, half = paired(score)
                print(f"  {len(score)} deals: {won}-{lost}, per deal {mean:+.3f} ± {half:.3f} "
                      f"({time.perf_counter() - start:.0f} s)", flush=True)
        per_deal[a] = score
        low, high = wilson(won, won + lost)
        rate = won / (won + lost) if won + lost else 0.0
        mean, half = paired(score)
        print(f"{a + ' vs ' + b:20} wins decided {rate:.1%} [{low:.1%}, {high:.1%}] {won}-{lost}; "
              f"per deal (won - lost)/rounds {mean:+.3f} ± {half:.3f}  ({time.perf_counter() - start:.0f} s)",
              flush=True)
    if args.against is not None:
        mean, half = paired([x - y for x, y in zip(per_deal["learned"], per_deal["hard"], strict=True)])
        print(f"paired per deal, learned - hard: {mean:+.3f} ± {half:.3f}")
    for level, times in CPU.items():
        if times:
            times = sorted(times)
            print(f"{level:8} CPU per decision: median {times[len(times) // 2] * 1000:.0f} ms, "
                  f"p99 {times[int(len(times) * 0.99)] * 1000:.0f} ms ({len(times)} decisions)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cost", type=int, default=0, metavar="ROUNDS", help="measure the cost of a turn")
    parser.add_argument("--cpu", type=int, default=0, metavar="N", help="CPU per decision on N positions")
    parser.add_argument("--setup", default="pairs", choices=[s[0].split()[0].rstrip(",") for s in SETUPS])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--budget-ms", type=float, default=10.0)
    parser.add_argument("--against", default=None, help="play both against this level instead of head to head")
    args = parser.parse_args(argv)
    if args.cost:
        cost(args.cost)
    elif args.cpu:
        cpu(args.cpu, args.budget_ms, args.setup)
    else:
        games(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
