"""The API under load, side by side with the websocket (``make bench`` runs it).

One site process (Daphne, ASGI, tests/support/site.py: SQLite, the in-memory
channel layer) holds N two-seat tables of bots playing through the API (each
seat a bot account with a ``bot:play`` token: it reads its game stream,
``/api/bot/game/stream/<id>``, and posts the first legal move,
``/api/bot/game/<id>/move/<token>``, as soon as it is its turn), then, in the
same run and on the same process, N two-seat tables of guests playing at the
same computer speed over the table websocket (bench/load_client.py, the
``saturate`` scenario of bench/ws_load.py). Both use the bench rules (a
classic draw game that never ends, bench/relay_app/frames.bench_rules).

Prints, for each: moves per second, and the latency from a posted action (the
moment the move is sent) to its event on the opponent's stream (API) or
socket (websocket), p50/p99/max in ms, and the server's CPU per move.

    python bench/api_load.py --games 200 --duration 20
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.site import cpu_seconds, start_site  # noqa: E402

SEED_BOTS = """
import json
from accounts.services import become_bot
from api import tokens
from bench.relay_app.frames import bench_rules
from django.contrib.auth import get_user_model
from games.models import Table
from games.play.services import SeatSpec, create_table

users = get_user_model().objects
games = []
for index in range({games}):
    pair = [users.create_user(username=f"loadbot{{index}}x{{seat}}", password=None) for seat in (0, 1)]
    raws = []
    for user in pair:
        raws.append(tokens.create_token(user=user, description="load", scopes=["bot:play"]).raw)
        become_bot(user=user)
    table = create_table(kind=Table.Kind.PRIVATE, rules=bench_rules(2), preset="classic-draw",
                         seats=[SeatSpec(user=user) for user in pair], public=True)
    games.append({{"game": table.pk, "tokens": raws}})
print(json.dumps(games))
"""


def api_load(server: Any, games: list[dict[str, Any]], duration: float, warmup: float) -> dict[str, Any]:
    """Every seat of every game through the API, from bench/api_client.py in its own process."""
    spec = {"url": server.url, "duration": duration, "warmup": warmup, "games": games}
    return _client(server, "bench/api_client.py", spec, len(games))


def _client(server: Any, script: str, spec: dict[str, Any], games: int) -> dict[str, Any]:
    """Run a load generator (its spec on stdin; ``window`` lines around the measured
    window, when the server's CPU is read; its results last)."""
    client = subprocess.Popen([sys.executable, script], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert client.stdin is not None
    assert client.stdout is not None
    client.stdin.write(json.dumps(spec))
    client.stdin.close()
    result: dict[str, Any] = {}
    cpu_start = cpu_end = 0.0
    for line in client.stdout:
        message = json.loads(line)
        if message.get("window") == "start":
            cpu_start = cpu_seconds(server.process.pid)
        elif message.get("window") == "end":
            cpu_end = cpu_seconds(server.process.pid)
        else:
            result = message
    client.wait()
    if not result:
        raise RuntimeError(f"the load client failed: {client.stderr.read()[-3000:] if client.stderr else ''}")
    moves = result["moves"]
    return {
        "games": games, "moves": moves, "moves_per_s": result["moves_per_s"],
        "latency_samples": result["latency_samples"], "p50_ms": result["p50_ms"], "p99_ms": result["p99_ms"],
        "max_ms": result["max_ms"],
        "cpu_ms_per_move": round(1000 * (cpu_end - cpu_start) / moves, 2) if moves else None,
        "errors": result["errors"],
    }


def websocket_load(server: Any, games: int, duration: float, warmup: float) -> dict[str, Any]:
    seeded = subprocess.run(
        [sys.executable, "bench/seed_tables.py", "--tables", str(games), "--players", "2"],
        cwd=ROOT, env=server.env, capture_output=True, text=True, check=True,
    )
    tables = json.loads(seeded.stdout.strip().splitlines()[-1])["tables"]
    ws = server.url.replace("http://", "ws://")
    spec = {
        "mode": "saturate", "duration": duration, "warmup": warmup,
        "seats": [
            {"url": f"{ws}/ws/table/{table['table']}/", "origin": server.url, "cookie": seat["cookie"],
             "table": table["table"], "seat": seat["seat"]}
            for table in tables for seat in table["seats"]
        ],
    }
    return _client(server, "bench/load_client.py", spec, len(tables))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games at once, each of two seats")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured, after the warm-up")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--json", help="write both results to this file")
    parser.add_argument("--profile", help="sample the server with py-spy during the API's run into this file "
                        "(collapsed stacks: bench/profile_summary.py reads them)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="api-load-") as workdir:
        # A bot's every request counts against its token's limit: lifted for the load.
        server = start_site(Path(workdir), API_KEEPALIVE_SECONDS="5", API_RATE_REQUESTS="1000000")
        try:
            made = subprocess.run(
                [sys.executable, "manage.py", "shell", "-c", SEED_BOTS.format(games=args.games)],
                cwd=ROOT, env=server.env, capture_output=True, text=True, check=True,
            )
            games = json.loads(made.stdout.strip().splitlines()[-1])
            spy = None
            if args.profile:
                argv = [str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(server.process.pid),
                        "--duration", str(int(args.warmup + args.duration)), "--rate", "200", "--format", "raw",
                        "--nonblocking", "--output", args.profile]
                spy = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            results = {
                "api": api_load(server, games, args.duration, args.warmup),
            }
            if spy is not None:
                spy.wait(timeout=60)
            results["websocket"] = websocket_load(server, args.games, args.duration, args.warmup)
        finally:
            server.stop()
    print(f"{'':10} {'games':>5} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'cpu ms/move':>11}  errors")
    for name, result in results.items():
        print(f"{name:10} {result['games']:>5} {result['moves_per_s']:>8} {result['p50_ms']!s:>8} {result['p99_ms']!s:>8}"
              f" {result['max_ms']!s:>8} {result['cpu_ms_per_move']!s:>11}  {result['errors']}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
