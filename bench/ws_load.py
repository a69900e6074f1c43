"""Websocket load benchmark of the live tables (``make bench`` runs it).

Real processes on 127.0.0.1: the site under Daphne or uvicorn on a fresh
PostgreSQL database and a Redis database number of its own (the Redis channel
layer), Celery for computer moves, and the load generator (bench/load_client.py)
in a separate process (uvloop when installed). Tables are seated with guests
by bench/seed_tables.py through the games services.

Scenarios (``--only`` picks some; every one is bounded by the flags):

- ``saturate``: N tables of computer-speed people (a move as soon as it is
  their turn), on one process of every server of ``--paced-servers``: the
  relay yardstick (bench/relay_app), then the site, side by side on the same
  server and channel layer (``--layer``); ``--two-processes`` adds the site
  on two Daphne processes (seats split, every broadcast crosses Redis);
  ``--profile DIR`` samples each server process with py-spy meanwhile
  (bench/profile_summary.py reads the stacks);
- ``hold``: one Daphne holding 4 x ``--hold-tables`` sockets with heartbeats
  (websocket pings and the protocol's ``ping``) for ``--hold-seconds``, every
  table still moving now and then;
- ``paced``: tables each moving every 2 s, more and more of them
  (``--paced-steps``, ``--relay-paced-steps``), on one process of every
  server of ``--paced-servers``, the relay yardstick then the site: the most
  tables with p99 move-to-broadcast under ``--paced-p99-ms`` (100), nothing
  lost and every socket held;
- ``computer``: a person against a computer (AI_MOVE_DELAY_MS=0 unless ``--computer-delay-ms``; worker pool and
  concurrency from ``--worker-pool`` and ``--worker-concurrency``): the
  computer's move-to-broadcast latency through Celery + Redis, and in-process,
  the difference being the queueing overhead.

Prints connections held, moves per second, move-to-broadcast latency
p50/p99/max (ms), server CPU per move, errors, for each run, and the site's
ratios to the yardstick. ``--json FILE`` writes the summary that other
programs read (docs/performance.md, "JSON output"). ``--trace DIR`` writes
each run's every latency sample, warm-up included (``{"window": [start, end],
"samples": [[wall clock of the send, ms, table], ...]}``), to find when the
slow moves happened (bench/trace_summary.py prints them); bench/gc_log logs
the garbage collector's pauses of a server run with it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import machine  # noqa: E402
from tests.support.stack import (  # noqa: E402
    Stack,
    claim_redis_db,
    create_database,
    drop_database,
    release_redis_db,
)

SCENARIOS = ("saturate", "hold", "paced", "computer")
RELAY_APP = "bench.relay_app.asgi:application"


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of processes and their children so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            pass
    return total


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.workdir = Path(tempfile.mkdtemp(prefix="ws-load-"))
        self.redis_url = claim_redis_db(args.redis_url)
        self.database_url = create_database(args.postgres_url, "dominoes_bench")
        self.stack = Stack(self.workdir, database_url=self.database_url, redis_url=self.redis_url)
        self.tables: list[dict[str, Any]] = []
        self.computer_tables: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []
        # What --json writes (docs/performance.md, "JSON output").
        self.summary: dict[str, Any] = {"paced": [], "saturate": [], "variants": []}

    def close(self) -> None:
        self.stack.stop_all()
        drop_database(self.args.postgres_url, self.database_url)
        release_redis_db(self.redis_url)

    # --- setup -------------------------------------------------------------

    def seed(self, count: int, *, players: int = 4, computers: int = 0) -> list[dict[str, Any]]:
        argv = [
            sys.executable,
            "bench/seed_tables.py",
            "--tables",
            str(count),
            "--players",
            str(players),
            "--computers",
            str(computers),
        ]
        done = subprocess.run(
            argv, cwd=ROOT, env=self.stack.env(), capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"seed_tables failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])["tables"]

    def ensure_tables(self, count: int) -> list[dict[str, Any]]:
        if len(self.tables) < count:
            started = time.perf_counter()
            self.tables += self.seed(count - len(self.tables))
            print(
                f"  (seated {count} tables of 4 guests in {time.perf_counter() - started:.1f} s)", flush=True
            )
        return self.tables[:count]

    @contextmanager
    def servers(self, *specs: tuple[str, str, str], **env: str):
        """Start web processes (name, server, app); stop them and empty the
        Redis database afterwards (dead channels would stay in the groups)."""
        release_redis_db(self.redis_url)
        urls = []
        try:
            for name, server, app in specs:
                urls.append(self.stack.start_web(name, server=server, app=app, **env))
                if app == "config.asgi:application":
                    self.core_loaded(name)
            yield urls
        finally:
            for name, _server, _app in specs:
                self.stack.stop(name)
            release_redis_db(self.redis_url)

    def core_loaded(self, name: str, timeout: float = 30) -> None:
        """Wait until web process ``name`` has loaded the computer players' compiled core
        (from the build that ``main`` made sure of: nothing is compiled), so that this
        start-up work is done before any warm-up or measured window; say so if it did not."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = [line for line in self.stack.log(name).splitlines() if line.startswith("compiled core:")]
            if lines:
                if not lines[0].startswith("compiled core: loaded from numba's cache"):
                    print(f"  ({name}: {lines[0]})", flush=True)
                return
            time.sleep(0.1)
        print(f"  ({name} said nothing of the compiled core within {timeout:g} s)", flush=True)

    # --- one run -------------------------------------------------------------

    def run(
        self,
        label: str,
        server: str,
        urls: list[str],
        tables: list[dict[str, Any]],
        *,
        mode: str,
        duration: float,
        relay: bool = False,
        cpu_names: list[str] = (),
        profile: str = "",
        **spec: Any,
    ) -> dict[str, Any]:
        seats = []
        for table in tables:
            for entry in table["seats"]:
                base = urls[entry["seat"] % len(urls)]
                query = f"?seat={entry['seat']}" if relay else ""
                seats.append(
                    {
                        "url": base.replace("http://", "ws://") + f"/ws/table/{table['table']}/{query}",
                        "origin": base,
                        "cookie": entry["cookie"],
                        "table": table["table"],
                        "seat": entry["seat"],
                    }
                )
        full_spec = {
            "mode": mode,
            "duration": duration,
            "warmup": self.args.warmup,
            "seats": seats,
            "client_gc": self.args.client_gc,
            **spec,
        }
        if self.args.trace:
            Path(self.args.trace).mkdir(parents=True, exist_ok=True)
            name = f"{label}-{server}-{len(tables)}".replace(" ", "-")
            full_spec["trace"] = str(Path(self.args.trace) / f"{name}.json")
        pids = [self.stack.processes[name].process.pid for name in cpu_names]
        client = subprocess.Popen(
            [sys.executable, "bench/load_client.py"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert client.stdin is not None
        assert client.stdout is not None
        client.stdin.write(json.dumps(full_spec))
        client.stdin.close()
        result: dict[str, Any] = {}
        cpu_start = cpu_end = 0.0
        spy: subprocess.Popen | None = None
        for line in client.stdout:
            message = json.loads(line)
            if message.get("window") == "start":
                cpu_start = cpu_seconds(pids)
                if profile:
                    spy = self.start_profile(pids[0], duration, profile)
            elif message.get("window") == "end":
                cpu_end = cpu_seconds(pids)
            else:
                result = message
        client.wait()
        if spy is not None:
            spy.wait(timeout=60)
        if not result:
            raise RuntimeError(
                f"the load client failed: {client.stderr.read()[-3000:] if client.stderr else ''}"
            )
        result.update(label=label, server=server)
        moves = result["moves"]
        result["server_cpu_pct"] = round(100 * (cpu_end - cpu_start) / duration, 1)
        result["cpu_ms_per_move"] = round(1000 * (cpu_end - cpu_start) / moves, 2) if moves else None
        self.results.append(result)
        print_row(result)
        return result

    def start_profile(self, pid: int, duration: float, name: str) -> subprocess.Popen:
        """py-spy samples every thread of the server process through the
        measured window (collapsed stacks: bench/profile_summary.py reads them)."""
        out = Path(self.args.profile) / f"{name}.txt"
        out.parent.mkdir(parents=True, exist_ok=True)
        spy = Path(sys.executable).parent / "py-spy"
        argv = [str(spy), "record", "--pid", str(pid), "--duration", str(max(1, int(duration))),
                "--rate", "200", "--format", "raw", "--nonblocking", "--output", str(out)]  # fmt: skip
        return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    # --- scenarios -----------------------------------------------------------

    def saturate(self) -> None:
        args = self.args
        tables = self.ensure_tables(args.tables)
        print(
            f"\n# saturation: {args.tables} tables of 4, every seat moves as soon as it may "
            f"({args.duration:g} s after {args.warmup:g} s warm-up; {args.layer} layer)",
            flush=True,
        )
        header()
        for server in self.server_names(self.args.saturate_servers or self.args.paced_servers):
            relay = self.saturate_one("relay", server, tables)
            site = self.saturate_one("site", server, tables)
            self.summary["saturate"] += [relay, site]
            for variant in self.variants():
                self.summary["variants"].append(
                    {"scenario": "saturate", **self.saturate_one("site", server, tables, variant)}
                )
            if relay["moves_per_s"]:
                ratio = site["moves_per_s"] / relay["moves_per_s"]
                cpu = (
                    site["cpu_ms_per_move"] / relay["cpu_ms_per_move"]
                    if site["cpu_ms_per_move"] and relay["cpu_ms_per_move"]
                    else None
                )
                print(
                    f"  {server}: site / relay yardstick {site['moves_per_s']:.0f} / {relay['moves_per_s']:.0f} "
                    f"moves/s = {ratio:.2f} (target >= 0.7: {'met' if ratio >= 0.7 else 'NOT met'}); CPU per move "
                    + (
                        f"{cpu:.2f} x the relay's (target <= 1.5: {'met' if cpu <= 1.5 else 'NOT met'})"
                        if cpu is not None
                        else "unknown"
                    ),
                    flush=True,
                )
        if args.two_processes:
            with self.servers(
                ("web-a", "daphne", "config.asgi:application"), ("web-b", "daphne", "config.asgi:application")
            ) as urls:
                self.run(
                    "site",
                    "daphne x2",
                    urls,
                    tables,
                    mode="saturate",
                    duration=args.duration,
                    cpu_names=["web-a", "web-b"],
                )

    def server_names(self, names: str = "") -> list[str]:
        return [name.strip() for name in (names or self.args.paced_servers).split(",") if name.strip()]

    def variants(self) -> list[tuple[str, dict[str, str]]]:
        """``--site-variant NAME:KEY=VALUE,...``: the site again with that environment."""
        found = []
        for text in self.args.site_variant:
            name, _sep, pairs = text.partition(":")
            found.append((name, dict(pair.split("=", 1) for pair in pairs.split(",") if pair)))
        return found

    def app_spec(
        self, app: str, server: str, variant: tuple[str, dict[str, str]] | None = None
    ) -> tuple[tuple[str, str, str], dict[str, str]]:
        """The process of ``app`` ("site" or "relay") on ``server``, and its
        environment (the same channel layer for both; a site variant's on top)."""
        env = {"CHANNEL_LAYER": self.args.layer, **(variant[1] if variant else {})}
        if app == "relay":
            env["DJANGO_SETTINGS_MODULE"] = "bench.relay_app.settings"
            return (f"relay-{server}", server, RELAY_APP), env
        return (f"site-{server}", server, "config.asgi:application"), env

    def saturate_one(
        self,
        app: str,
        server: str,
        tables: list[dict[str, Any]],
        variant: tuple[str, dict[str, str]] | None = None,
    ) -> dict[str, Any]:
        spec, env = self.app_spec(app, server, variant)
        with self.servers(spec, **env) as urls:
            result = self.run(
                "relay yardstick" if app == "relay" else f"site {variant[0]}" if variant else "site",
                f"{server} x1",
                urls,
                tables,
                mode="saturate",
                duration=self.args.duration,
                relay=app == "relay",
                cpu_names=[spec[0]],
                profile=f"{app}-{server}-saturate" if self.args.profile else "",
            )
        return {
            "app": app,
            **({"variant": variant[0], "env": variant[1]} if variant else {}),
            "server": server,
            "tables": len(tables),
            "moves_per_s": result["moves_per_s"],
            "p50_ms": result["p50_ms"],
            "p99_ms": result["p99_ms"],
            "cpu_ms_per_move": result["cpu_ms_per_move"],
            "server_cpu_pct": result["server_cpu_pct"],
            "lost": result["lost"],
            "layer": self.args.layer,
        }

    def hold(self) -> None:
        args = self.args
        tables = self.ensure_tables(args.hold_tables)
        print(
            f"\n# hold: {len(tables) * 4} sockets ({len(tables)} tables) on one Daphne for "
            f"{args.hold_seconds:g} s, websocket pings every {args.ping_interval:g} s and protocol pings "
            f'({{"type": "ping"}}) every {args.app_ping_interval:g} s, each table moving every {args.hold_period:g} s',
            flush=True,
        )
        header()
        with self.servers(("web-a", "daphne", "config.asgi:application")) as urls:
            result = self.run(
                "site hold",
                "daphne x1",
                urls,
                tables,
                mode="paced",
                period=args.hold_period,
                duration=args.hold_seconds,
                ping_interval=args.ping_interval,
                app_ping_interval=args.app_ping_interval,
                connect_concurrency=args.connect_concurrency,
                grace=10,
                cpu_names=["web-a"],
            )
        ok = (
            result["held"] == result["sockets"]
            and not result["errors"]
            and not result["closed_early"]
            and not result["connect_failures"]
            and not result["lost"]
            and result["app_pongs"] >= result["app_pings"] * 0.99
        )
        print(
            f"  {result['held']} of {result['sockets']} sockets held (connected in {result['connect_s']:.0f} s), "
            f"{result['app_pongs']} pongs for {result['app_pings']} pings, errors {result['errors'] or 'none'}, "
            f"closed early {result['closed_early'] or 'none'}, failed connection attempts "
            f"{result['connect_failures'] or 'none'}: {'no error' if ok else 'FAILED'}",
            flush=True,
        )

    def paced(self) -> None:
        """For each server, the site's and the relay yardstick's paced
        capacity: the most tables (each moving every 2 s) with p99
        move-to-broadcast under ``--paced-p99-ms``, nothing lost and every
        socket held. Steps are tried in order until one fails."""
        args = self.args
        steps = [int(step) for step in args.paced_steps.split(",")]
        relay_steps = [int(step) for step in (args.relay_paced_steps or args.paced_steps).split(",")]
        self.ensure_tables(max(steps + relay_steps))
        for server in self.server_names():
            found = {}
            for app, app_steps in (("relay", relay_steps), ("site", steps)):
                print(
                    f"\n# paced, {app} on one {server} process ({args.layer} layer): each table moves every 2 s; "
                    f"p99 < {args.paced_p99_ms:g} ms, nothing lost, every socket held?",
                    flush=True,
                )
                header()
                found[app] = entry = self.paced_one(app, server, app_steps)
                self.summary["paced"].append(entry)
                print(
                    f"  {app} on {server}: {entry['tables']} tables ({entry['tables'] / 2:.0f} moves/s)"
                    + ("" if entry["tables"] < app_steps[-1] else " (the largest step tried; more may pass)"),
                    flush=True,
                )
            for variant in self.variants():
                print(f"\n# paced, site {variant[0]} {variant[1]} on one {server} process", flush=True)
                header()
                entry = self.paced_one("site", server, steps, variant)
                self.summary["variants"].append({"scenario": "paced", **entry})
                print(f"  site {variant[0]} on {server}: {entry['tables']} tables", flush=True)
            if found["relay"]["tables"]:
                ratio = found["site"]["tables"] / found["relay"]["tables"]
                print(
                    f"  {server}: site / relay paced capacity {found['site']['tables']} / "
                    f"{found['relay']['tables']} tables = {ratio:.2f} (targets: >= 150 tables "
                    f"{'met' if found['site']['tables'] >= 150 else 'NOT met'}, >= 0.6 of the relay "
                    f"{'met' if ratio >= 0.6 else 'NOT met'})",
                    flush=True,
                )

    def paced_one(
        self, app: str, server: str, steps: list[int], variant: tuple[str, dict[str, str]] | None = None
    ) -> dict[str, Any]:
        args = self.args
        spec, env = self.app_spec(app, server, variant)
        best: dict[str, Any] = {"app": app, **({"variant": variant[0], "env": variant[1]} if variant else {}),
                                "server": server, "tables": 0, "p99_ms": None,
                                "moves_per_s": 0.0, "cpu_ms_per_move": None, "layer": args.layer,
                                "steps": []}  # fmt: skip
        for count in steps:
            with self.servers(spec, **env) as urls:
                result = self.run(
                    f"{app} {variant[0]} paced" if variant else f"{app} paced",
                    f"{server} x1",
                    urls,
                    self.tables[:count],
                    mode="paced",
                    period=2.0,
                    duration=args.paced_seconds,
                    relay=app == "relay",
                    connect_concurrency=args.connect_concurrency,
                    cpu_names=[spec[0]],
                )
            good = (
                result["p99_ms"] is not None
                and result["p99_ms"] < args.paced_p99_ms
                and not result["lost"]
                and result["held"] == result["sockets"]
            )
            best["steps"].append(
                {"tables": count, "p99_ms": result["p99_ms"], "moves_per_s": result["moves_per_s"],
                 "cpu_ms_per_move": result["cpu_ms_per_move"], "lost": result["lost"],
                 "held": result["held"], "sockets": result["sockets"], "ok": good}
            )  # fmt: skip
            if not good:
                break
            best.update(
                tables=count,
                p99_ms=result["p99_ms"],
                moves_per_s=result["moves_per_s"],
                cpu_ms_per_move=result["cpu_ms_per_move"],
            )
        return best

    def computer(self) -> None:
        args = self.args
        tables = self.seed(args.computer_tables, players=2, computers=1)
        games = {table["table"]: table["game"] for table in tables}
        print(
            f"\n# computer moves: {len(tables)} tables of a person against an easy computer, "
            f"AI_MOVE_DELAY_MS={args.computer_delay_ms}, the person moving at most every {args.computer_period:g} s, one Daphne, "
            f"one worker ({args.worker_pool} pool, concurrency {args.worker_concurrency})",
            flush=True,
        )
        header()
        delay = {"AI_MOVE_DELAY_MS": str(args.computer_delay_ms)}
        probe = self.workdir / "celery-probe.jsonl"
        with self.servers(("web-a", "daphne", "config.asgi:application"), **delay) as urls:
            worker = self.stack.start_worker(
                "bench-worker",
                concurrency=args.worker_concurrency,
                pool=args.worker_pool,
                app="bench.celery_probe",
                CELERY_PROBE_FILE=str(probe),
                **delay,
            )
            try:
                queued = self.run(
                    "computer, Celery",
                    "daphne x1",
                    urls,
                    tables,
                    mode="paced",
                    period=args.computer_period,
                    duration=max(args.duration, 15),
                    cpu_names=["web-a", "bench-worker"],
                    record_computer_events=True,
                )
            finally:
                self.stack.stop(worker.name)
        # The same task code in-process (no broker hop), for comparison.
        with self.servers(
            ("web-a", "daphne", "config.asgi:application"), CELERY_TASK_ALWAYS_EAGER="1", **delay
        ) as urls:
            inline = self.run(
                "computer, in-process",
                "daphne x1",
                urls,
                tables,
                mode="paced",
                period=args.computer_period,
                duration=max(args.duration, 15),
                cpu_names=["web-a"],
            )
        self.report_queueing(queued, probe, games)
        if inline["computer_p50_ms"] is not None and queued["computer_p50_ms"] is not None:
            print(
                f"  computer move latency, Celery vs in-process: p50 {queued['computer_p50_ms']:.1f} vs "
                f"{inline['computer_p50_ms']:.1f} ms, p99 {queued['computer_p99_ms']:.1f} vs "
                f"{inline['computer_p99_ms']:.1f} ms",
                flush=True,
            )

    def report_queueing(self, result: dict[str, Any], probe: Path, games: dict[int, int]) -> None:
        """Split each computer move (previous event -> computer event, as the
        player saw them) into the task's own run (task_prerun -> task_postrun,
        thinking included) and the rest: publishing, Redis, the worker taking
        the task, and the broadcast back."""
        runs: dict[tuple[int, int], dict[str, float]] = {}
        if probe.exists():
            for line in probe.read_text().splitlines():
                record = json.loads(line)
                key = (record["args"][0], record["args"][1])
                entry = runs.setdefault(key, {})
                if "start" in record:
                    entry.setdefault("start", record["start"])
                elif record.get("result") == "played":
                    entry["end"] = record["end"]
        overheads, queue_waits, thinking = [], [], []
        for table_id, seq, before, seen in result.get("computer_events", []):
            run = runs.get((games.get(int(table_id), -1), int(seq) - 1))
            if not run or "end" not in run:
                continue
            thinking.append(run["end"] - run["start"])
            overheads.append((seen - before) - (run["end"] - run["start"]))
            queue_waits.append(run["start"] - before)
        if not overheads:
            print("  (no computer move could be matched with its task)", flush=True)
            return

        def pct(values: list[float], p: float) -> float:
            values = sorted(values)
            return 1000 * values[min(len(values) - 1, int(p * len(values)))]

        print(
            f"  {len(overheads)} computer moves: task run (thinking + storing + broadcasting) p50 "
            f"{pct(thinking, 0.5):.1f} ms; the player's event -> task start p50 {pct(queue_waits, 0.5):.1f} ms, "
            f"p99 {pct(queue_waits, 0.99):.1f} ms",
            flush=True,
        )
        p50, p99 = pct(overheads, 0.5), pct(overheads, 0.99)
        print(
            f"  queueing overhead of a computer move (latency minus the task's run): p50 {p50:.1f} ms, "
            f"p99 {p99:.1f} ms, max {pct(overheads, 1.0):.1f} ms (target < 20 ms: "
            f"{'met' if p50 < 20 else 'NOT met'} at p50, {'met' if p99 < 20 else 'not met'} at p99)",
            flush=True,
        )
        result.update(queueing_p50_ms=round(p50, 2), queueing_p99_ms=round(p99, 2))


COLUMNS = [
    ("label", 22),
    ("server", 11),
    ("tables", 6),
    ("sockets", 7),
    ("held", 5),
    ("moves_per_s", 8),
    ("p50_ms", 8),
    ("p99_ms", 8),
    ("max_ms", 8),
    ("computer_p50_ms", 8),
    ("computer_p99_ms", 8),
    ("cpu_ms_per_move", 7),
    ("server_cpu_pct", 6),
    ("lost", 5),
    ("mean_frame_bytes", 6),
]
TITLES = {
    "moves_per_s": "moves/s",
    "computer_p50_ms": "cpt p50",
    "computer_p99_ms": "cpt p99",
    "cpu_ms_per_move": "cpu/mv",
    "server_cpu_pct": "cpu%",
    "mean_frame_bytes": "frameB",
}


def header() -> None:
    print(
        "  "
        + " ".join(
            TITLES.get(key, key).rjust(width) if index > 1 else TITLES.get(key, key).ljust(width)
            for index, (key, width) in enumerate(COLUMNS)
        )
        + "  errors",
        flush=True,
    )


def print_row(result: dict[str, Any]) -> None:
    cells = []
    for index, (key, width) in enumerate(COLUMNS):
        value = result.get(key)
        text = "-" if value is None else str(value)
        cells.append(text.ljust(width) if index <= 1 else text.rjust(width))
    problems = {
        **result.get("errors", {}),
        **{f"close {k}": v for k, v in result.get("closed_early", {}).items()},
        **{f"connect {k}": v for k, v in result.get("connect_failures", {}).items()},
    }
    print("  " + " ".join(cells) + "  " + (json.dumps(problems) if problems else "none"), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description="Websocket load benchmark of the live tables.")
    parser.add_argument("--only", default=",".join(SCENARIOS), help=f"comma-separated, among {SCENARIOS}")
    parser.add_argument("--tables", type=int, default=40, help="tables in the saturation runs")
    parser.add_argument("--duration", type=float, default=10, help="measured seconds of each run")
    parser.add_argument("--warmup", type=float, default=3, help="seconds before measuring")
    parser.add_argument("--hold-tables", type=int, default=500, help="tables (x4 sockets) of the hold run")
    parser.add_argument("--hold-seconds", type=float, default=30)
    parser.add_argument(
        "--hold-period", type=float, default=60, help="each held table moves every this many s"
    )
    parser.add_argument(
        "--ping-interval", type=float, default=20, help="websocket heartbeat (ping) interval, s"
    )
    parser.add_argument(
        "--app-ping-interval",
        type=float,
        default=20,
        help='protocol heartbeat ({"type": "ping"}) interval, s',
    )
    parser.add_argument("--paced-steps", default="50,75,100,125,150,175,200,250")
    parser.add_argument(
        "--relay-paced-steps", default="", help="steps of the relay's paced runs (default: --paced-steps)"
    )
    parser.add_argument("--paced-seconds", type=float, default=10)
    parser.add_argument("--paced-p99-ms", type=float, default=100, help="the paced runs' p99 bound")
    parser.add_argument(
        "--paced-servers", default="daphne,uvicorn", help="servers of the saturation and paced runs"
    )
    parser.add_argument(
        "--saturate-servers", default="", help="servers of the saturation runs (default: --paced-servers)"
    )
    parser.add_argument(
        "--layer",
        choices=("core", "pubsub"),
        default=os.environ.get("CHANNEL_LAYER", "pubsub"),
        help="channel layer of the site and the relay (CHANNEL_LAYER)",
    )
    parser.add_argument(
        "--site-variant",
        action="append",
        default=[],
        help="NAME:KEY=VALUE,...: also run the site with that environment (saturate and paced)",
    )
    parser.add_argument(
        "--two-processes", action="store_true", help="saturation also on two Daphne processes (seats split)"
    )
    parser.add_argument(
        "--profile", default="", help="py-spy the saturation runs' server processes into this directory"
    )
    parser.add_argument(
        "--trace",
        default="",
        help="write every latency sample (send time, ms, table) of each run into this directory",
    )
    parser.add_argument(
        "--json", default="", help="write the summary (paced, saturate, machine) to this file"
    )
    parser.add_argument("--computer-tables", type=int, default=4)
    parser.add_argument(
        "--computer-period", type=float, default=0.3, help="the person moves at most every this many s"
    )
    parser.add_argument(
        "--computer-delay-ms", type=int, default=0, help="AI_MOVE_DELAY_MS of the computer scenario"
    )
    parser.add_argument(
        "--worker-pool", default="prefork", help="Celery pool of the computer scenario's worker"
    )
    parser.add_argument("--worker-concurrency", type=int, default=2)
    parser.add_argument("--connect-concurrency", type=int, default=8)
    parser.add_argument(
        "--client-gc",
        choices=("off", "on"),
        default="off",
        help="the load generator's garbage collector while the moves run: off (as timeit "
        "does, so that its own pauses are not timed) or on",
    )
    parser.add_argument(
        "--postgres-url",
        default=os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--redis-url", default=os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    args = parser.parse_args()

    from tests.support.services import postgres_problem, redis_problem

    problems = [p for p in (postgres_problem(args.postgres_url), redis_problem(args.redis_url)) if p]
    if problems:
        print("ws_load skipped: " + "; ".join(problems))
        return 0
    load = os.getloadavg()
    probe, cpu_before = machine.probe_ms(), machine.cpu_times()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M:%S')} {platform.node()}, {os.cpu_count()} cores, "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; Python {platform.python_version()}; "
        f"speed probe {probe} ms (bench/machine.py)",
        flush=True,
    )
    # The computer players' compiled core, built as `make install` does (a second when it
    # is): the servers then load it as they start, never compile it in a measured window.
    subprocess.run([sys.executable, "-m", "games.ai.build"], cwd=ROOT, check=True)
    bench = Bench(args)
    started = time.perf_counter()
    try:
        for name in args.only.split(","):
            getattr(bench, name.strip())()
    finally:
        bench.close()
    probe_end, steal = machine.probe_ms(), machine.steal_pct(cpu_before, machine.cpu_times())
    print(f"\nspeed probe at the end {probe_end} ms; CPU stolen by the host over the run: {steal} %", flush=True)
    if args.json:
        summary = {
            **bench.summary,
            "machine": {
                "cores": os.cpu_count(),
                "loadavg": [round(value, 2) for value in load],
                "loadavg_end": [round(value, 2) for value in os.getloadavg()],
                "started": time.strftime(
                    "%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - (time.perf_counter() - started))
                ),
                "python": platform.python_version(),
                "probe_ms": probe,
                "probe_ms_end": probe_end,
                "steal_pct": steal,
            },
            "layer": args.layer,
        }
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n")
    print(
        f"\nws_load done in {time.perf_counter() - started:.0f} s; logs and ws_load.json in {bench.workdir}",
        flush=True,
    )
    (bench.workdir / "ws_load.json").write_text(json.dumps(bench.results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
