"""The server's move path, measured: ``games.play.services.play_move`` (row lock,
engine check, one Move row, state saved, frames computed for every viewer
and sent to the channel layer after the commit), a socket's catch-up
(``selectors.sync_frames``) and rebuilding a state from seed + moves.

Embedded defaults (a temporary SQLite file, the in-memory layer) unless
``DATABASE_URL`` / ``REDIS_URL`` are set. Prints numbers; asserts nothing.
``python bench/table_services.py [--games N] [--players P]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
_tmp = tempfile.TemporaryDirectory()
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(Path(_tmp.name) / "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from games.engine import legal_actions, rules_for  # noqa: E402
from games.models import Game, Table  # noqa: E402
from games.play import selectors, services  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def show(name: str, values_ms: list[float]) -> None:
    print(
        f"{name:<34} n={len(values_ms):>5}  p50 {statistics.median(values_ms):6.2f} ms"
        f"  p99 {percentile(values_ms, 0.99):6.2f} ms  mean {statistics.fmean(values_ms):6.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    settings.GAMES_DISPATCH = "queue"  # nobody plays for the seats: the bench does
    if os.environ.get("DATABASE_URL") and not os.environ.get("BENCH_MIGRATE"):
        print("DATABASE_URL is set: migrate it first (or set BENCH_MIGRATE=1)")
    if not os.environ.get("DATABASE_URL") or os.environ.get("BENCH_MIGRATE"):
        call_command("migrate", verbosity=0)
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"database {database}, layer {layer}, {args.games} games of {args.players} players (classic-draw to 100)")
    rng = Random(1)
    move_ms: list[float] = []
    games: list[Game] = []
    started = time.perf_counter()
    for number in range(args.games):
        seats = [services.SeatSpec(guest_key=f"bench-{os.getpid()}-{number}-{s}") for s in range(args.players)]
        table = services.create_table(
            kind=Table.Kind.PRIVATE,
            rules=rules_for("classic-draw", players=args.players, target=100),
            preset="classic-draw",
            seats=seats,
            public=True,
        )
        game = Game.objects.get(table=table)
        state = selectors.game_state(game)
        seq = 0
        while not state.game_over:
            t0 = time.perf_counter()
            if state.to_move is None:
                outcome = services.start_next_round(game_id=game.pk, seat=0, expected_seq=seq)
            else:
                action = rng.choice(legal_actions(state))
                outcome = services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=seq)
            move_ms.append((time.perf_counter() - t0) * 1000)
            state, seq = outcome.state, outcome.seq
        games.append(game)
    elapsed = time.perf_counter() - started
    show("play_move (commit + broadcast)", move_ms)
    print(f"{'moves per second, one thread':<34} {len(move_ms) / elapsed:8.1f}")

    sync_ms: list[float] = []
    rebuild_ms: list[float] = []
    for game in games:
        game.refresh_from_db()
        for missed in (1, 10, 40):
            t0 = time.perf_counter()
            selectors.sync_frames(game, after=game.seq - missed, viewer=0, humans={0})
            sync_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        selectors.rebuild_state(game)
        rebuild_ms.append((time.perf_counter() - t0) * 1000)
    show("sync after 1/10/40 missed events", sync_ms)
    show(f"rebuild from seed + ~{games[-1].seq} moves", rebuild_ms)


if __name__ == "__main__":
    main()
