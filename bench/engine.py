"""Rules-engine benchmark: random-play rounds per second through the public API.

Each round is dealt by ``new_game`` from its own seed and played to its end
with ``legal_actions`` / ``apply_action``, choosing uniformly among the legal
actions with a seeded ``random.Random``. One process, one core. Prints one
line per configuration: rounds/s and actions/s (best of a few repeats).

Run from the repository root: ``.venv/bin/python bench/engine.py``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.engine import Rules, apply_action, legal_actions, new_game, rules_for  # noqa: E402

CONFIGS: list[tuple[str, Rules, int]] = [
    ("duel-block, 2 players", rules_for("duel-block"), 20_000),
    ("4-player draw, 5 tiles (quick)", rules_for("quick", players=4, target=0), 10_000),
    ("4-player pairs block", Rules(draw=False, players=4, teams=True, target=0), 10_000),
]


def play_rounds(rules: Rules, rounds: int, seed: int) -> int:
    """Play ``rounds`` random rounds; returns the number of actions applied."""
    rng = random.Random(seed)
    rand = rng.random  # uniform choice among the legal actions: legal[int(rand() * len(legal))]
    actions = 0
    for number in range(rounds):
        state = new_game(rules, seed=seed * 1_000_003 + number)
        legal = legal_actions(state)
        while legal:  # empty once the round is over
            count = len(legal)
            state = apply_action(state, legal[0] if count == 1 else legal[int(rand() * count)])
            legal = legal_actions(state)
            actions += 1
    return actions


def measure(rules: Rules, seconds: float = 2.4, repeats: int = 6) -> tuple[float, float, float]:
    """Best (rounds per CPU second, actions per CPU second, rounds per wall second).

    CPU time (``time.process_time``) is the number to read on a shared machine:
    wall time also counts the time other processes hold the core.
    """
    best = (0.0, 0.0, 0.0)
    for repeat in range(repeats):
        rounds = actions = 0
        wall = time.perf_counter()
        cpu = time.process_time()
        while time.process_time() - cpu < seconds / repeats:
            actions += play_rounds(rules, 500, repeat * 100_000 + rounds)
            rounds += 500
        cpu_elapsed = time.process_time() - cpu
        wall_elapsed = time.perf_counter() - wall
        if rounds / cpu_elapsed > best[0]:
            best = (rounds / cpu_elapsed, actions / cpu_elapsed, rounds / wall_elapsed)
    return best


def main() -> int:
    play_rounds(CONFIGS[0][1], 2_000, 99)  # warm the caches
    print(
        f"{'configuration':32} {'rounds/s':>9} {'actions/s':>10} {'wall r/s':>9}  target (rounds per CPU s)"
    )
    for name, rules, target in CONFIGS:
        rounds_per_s, actions_per_s, wall_per_s = measure(rules)
        mark = "ok" if rounds_per_s >= target else "below"
        print(f"{name:32} {rounds_per_s:9,.0f} {actions_per_s:10,.0f} {wall_per_s:9,.0f}  >= {target:,} {mark}",
              flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
