"""Computer players: a duplicate tournament between levels, and hard's thinking time.

Run from the repository root: ``.venv/bin/python bench/ai.py`` (``make bench``).

Tournament: each deal (a seed) is played once per seating of the two levels,
so both sides get the same tiles (duplicate deals): two players swap seats;
pairs swap pairs; with three or four players alone, the stronger level takes
each seat in turn against copies of the other. Every game is one round (the
first round of the deal, opened automatically). Printed per preset and
pairing: the stronger level's share of the decided rounds with a 95 % Wilson
interval, the rounds it won and lost and the drawn ones, and its share of the
points scored. The deals are spread over the CPU cores.

Timing: hard's decisions at its default budget, measured in one process on
one core, over positions of real games (decisions with one legal action return
at once and are counted apart).
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.ai import (  # noqa: E402
    DEFAULT_BUDGET_MS,
    choose_action,
    warm,
)
from games.engine import Rules, State, apply_action, new_game, rules_for, view_for  # noqa: E402

# (label, preset, players, teams)
SETUPS: list[tuple[str, str, int, bool]] = [
    ("duel-block", "duel-block", 2, False),
    ("pairs (arena, 4 in pairs)", "arena", 4, True),
    ("classic-draw, 2 players", "classic-draw", 2, False),
    ("classic-block, 3 players", "classic-block", 3, False),
    ("quick, 4 players", "quick", 4, False),
]
PAIRINGS: list[tuple[str, str]] = [("hard", "medium"), ("medium", "easy"), ("easy", "random")]


def act(level: str, view: object, seed: int, budget_ms: float | None) -> object:
    if level == "random":
        legal = view.legal  # type: ignore[attr-defined]
        return legal[Random(seed).randrange(len(legal))]
    return choose_action(view, level, seed=seed, budget_ms=budget_ms)


def seatings(rules: Rules) -> list[list[bool]]:
    """For each game of a deal, which seats the stronger level (A) holds."""
    n = rules.players
    if rules.teams:
        return [[s % 2 == 0 for s in range(n)], [s % 2 == 1 for s in range(n)]]
    if n == 2:
        return [[True, False], [False, True]]
    return [[s == k for s in range(n)] for k in range(n)]


def act_on_view(level: str, state: State, seat: int, seed: int, budget_ms: float | None) -> object:
    """``act`` from the seat's view: all an honest player reads."""
    return act(level, view_for(state, seat), seed, budget_ms)


Move = Callable[[str, State, int, int, float | None], object]


def play_deal(job: tuple[Rules, str, str, int, float | None], move: Move = act_on_view) -> list[tuple[int, int, int]]:
    """Play one deal under every seating: per game (A won 1/lost -1/draw 0, A's points, B's points).
    ``move(level, state, seat, seed, budget)`` decides for a seat (the view only, by default)."""
    rules, level_a, level_b, deal, budget = job
    out = []
    for seating in seatings(rules):
        state = new_game(rules, seed=f"bench-{deal}")
        step = 0
        while not state.round_over:
            seat = state.to_move
            level = level_a if seating[seat] else level_b
            action = move(level, state, seat, deal * 1000 + step, budget)
            state = apply_action(state, action)
            step += 1
        result = state.round_result
        if result.winner is None:
            out.append((0, 0, 0))
        elif seating[result.winner]:
            out.append((1, result.points, 0))
        else:
            out.append((-1, 0, result.points))
    return out


def wilson(wins: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def tournament(args: argparse.Namespace) -> None:
    jobs = max(1, args.jobs)
    print(f"Duplicate tournament, single rounds: {args.hard_deals} deals per setup for hard, {args.deals} for "
          f"the others (each deal played under every seating), {jobs} processes, hard at "
          f"{args.budget_ms or DEFAULT_BUDGET_MS} ms budget")
    header = f"{'setup':28} {'A vs B':16} {'A wins decided':>15} {'95% CI':>15} {'W-L-D':>11} {'A pts share':>11}"
    print(header)
    with multiprocessing.Pool(jobs) as pool:
        for label, preset, players, teams in SETUPS:
            if args.setups and not any(s in label for s in args.setups):
                continue
            rules = replace(rules_for(preset, players=players, teams=teams), target=0)
            for level_a, level_b in PAIRINGS:
                if args.pairings and f"{level_a}-{level_b}" not in args.pairings:
                    continue
                deals = args.hard_deals if "hard" in (level_a, level_b) else args.deals
                work = [(rules, level_a, level_b, d, args.budget_ms) for d in range(deals)]
                start = time.perf_counter()
                games = [g for deal in pool.map(play_deal, work) for g in deal]
                elapsed = time.perf_counter() - start
                won = sum(1 for g in games if g[0] == 1)
                lost = sum(1 for g in games if g[0] == -1)
                drawn = len(games) - won - lost
                decided = won + lost
                low, high = wilson(won, decided)
                pts_a = sum(g[1] for g in games)
                pts_b = sum(g[2] for g in games)
                share = pts_a / (pts_a + pts_b) if pts_a + pts_b else 0.0
                rate = won / decided if decided else 0.0
                fair = "" if players == 2 or teams else f" (even: {1 / players:.0%})"
                print(f"{label:28} {level_a + ' vs ' + level_b:16} {rate:>14.1%} "
                      f"{f'[{low:.1%}, {high:.1%}]':>15} {f'{won}-{lost}-{drawn}':>11} {share:>10.1%}"
                      f"{fair}  ({elapsed:.0f} s)", flush=True)


def timing(args: argparse.Namespace) -> None:
    """Hard's decision time at its default budget, one process (the compiled core loaded
    first, as the server and the workers do at start)."""
    warm.load()
    times: list[float] = []
    cpu: list[float] = []
    forced = 0
    deal = 0
    budget = args.budget_ms
    options = None
    if args.set:
        from bench.ai_regret import options_with

        options = options_with(args.set)
        print(f"hard with {', '.join(args.set)}")
    while len(times) < args.decisions:
        _label, preset, players, teams = SETUPS[deal % len(SETUPS)]
        rules = replace(rules_for(preset, players=players, teams=teams), target=0)
        state = new_game(rules, seed=f"timing-{deal}")
        step = 0
        while not state.round_over and len(times) < args.decisions:
            seat = state.to_move
            view = view_for(state, seat)
            if seat % 2 == 0:
                start = time.perf_counter()
                start_cpu = time.process_time()
                action = choose_action(view, "hard", seed=step, budget_ms=budget, options=options)
                took = time.perf_counter() - start
                took_cpu = time.process_time() - start_cpu
                if len(view.legal) > 1:
                    times.append(took)
                    cpu.append(took_cpu)
                else:
                    forced += 1
            else:
                action = choose_action(view, "medium", seed=step)
            state = apply_action(state, action)
            step += 1
        deal += 1
    times.sort()
    cpu.sort()

    def pct(p: float, values: list[float] = times) -> float:
        return values[min(len(values) - 1, int(p * len(values)))] * 1000

    print(f"\nHard's decision time at {budget or DEFAULT_BUDGET_MS} ms budget, one process, "
          f"{len(times)} decisions with a choice over {deal} deals of all setups "
          f"({forced} forced moves answered at once):")
    print(f"  wall time: median {statistics.median(times) * 1000:.0f} ms, p95 {pct(0.95):.0f} ms, "
          f"p99 {pct(0.99):.0f} ms, max {times[-1] * 1000:.0f} ms")
    print(f"  CPU time:  median {statistics.median(cpu) * 1000:.0f} ms, p95 {pct(0.95, cpu):.0f} ms, "
          f"p99 {pct(0.99, cpu):.0f} ms, max {cpu[-1] * 1000:.0f} ms (wall minus waiting for a busy CPU)")
    print(f"  load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals per setup, pairings without hard (500)")
    parser.add_argument("--hard-deals", type=int, default=24, help="deals per setup for hard vs medium (24)")
    parser.add_argument("--decisions", type=int, default=200, help="hard decisions to time (default 200)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="processes")
    parser.add_argument("--budget-ms", type=float, default=None, help="hard's budget (default: its own)")
    parser.add_argument("--setups", nargs="*", help="only setups whose label contains one of these")
    parser.add_argument("--pairings", nargs="*", help="only these pairings, e.g. hard-medium")
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="time hard with this option of HardOptions changed (repeatable)")
    parser.add_argument("--no-tournament", action="store_true")
    args = parser.parse_args(argv)
    if not args.no_tournament:
        tournament(args)
    if not args.no_timing:
        timing(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
