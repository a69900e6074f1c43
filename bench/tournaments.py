"""The arena's pure parts at scale (docs/tournaments.md, "Benchmark"): the time to
pair a wave of free players (tournaments/pairing.py) and to score one game and
rank the standings again (games/verifier/arena.py), from 100 to 1,000 players,
with simulated results. Prints numbers; no database (the standings update of the
site is one UPDATE per player plus the ordered read, not measured here)."""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.verifier.arena import Facts, Sheet, standings
from tournaments.pairing import Free, pair_wave


def simulated(players: int, rng: random.Random) -> dict[int, Sheet]:
    sheets = {index: Sheet(player=f"p{index}", order=index) for index in range(players)}
    for _ in range(players * 3):
        a, b = rng.sample(range(players), 2)
        outcome = rng.choice(["win", "draw", "loss"])
        sheets[a].add(Facts(outcome))
        sheets[b].add(Facts({"win": "loss", "loss": "win", "draw": "draw"}[outcome]))
    return sheets


def timed(function, repeat: int = 5) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) * 1000


def main() -> None:
    rng = random.Random(7)
    print(f"{'players':>8} {'wave':>6} {'pair ms':>9} {'score+rank ms':>14}")
    for players in (100, 250, 500, 1000):
        sheets = simulated(players, rng)
        ranked = {index: rank for rank, index in enumerate(sorted(sheets, key=lambda i: -sheets[i].points), 1)}
        free_count = players // 2
        free = [
            Free(index, ranked[index], rng.choice([None, *range(players)]))
            for index in rng.sample(range(players), free_count)
        ]
        free = [item if item.last_opponent != item.player else Free(item.player, item.rank) for item in free]
        pair_ms = timed(lambda free=free: pair_wave(free))

        def update(sheets=sheets, players=players):
            a, b = rng.sample(range(players), 2)
            sheets[a].add(Facts("win"))
            sheets[b].add(Facts("loss"))
            standings(sheets.values())

        print(f"{players:>8} {free_count:>6} {pair_ms:>9.1f} {timed(update, 20):>14.2f}")


if __name__ == "__main__":
    main()
