"""A fresh site (``make run``: Daphne, the embedded defaults) loads the computer players'
compiled core that the install built and never compiles it: its CPU at start stays small,
and its first hint and first hard move are answered without a compilation.

The checks are in CPU seconds of the web process and in what was written to numba's cache,
not in wall time: the machine may be loaded."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.players import Guest, TableClient
from tests.support.site import SiteServer, cpu_seconds, start_site

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parent.parent

# CPU seconds of a web process from its start until the core is loaded (Django, the
# apps, the server and the core's loading: 2.0-2.5 s on a quiet machine, more when
# both cores are shared with the rest of the suite; compiling the core costs 28 s of
# CPU on this machine). The bound sits far from both (it failed once at 3 s in CI).
START_CPU_S = 6.0
# CPU seconds of the web process for one hint or one hard move (0.1 s for a search,
# about 1.2 s for the first computer turn with the table's creation; compiling the
# functions a decision needs costs several seconds each). What proves that nothing
# compiled is numba's cache left unchanged (below); these bounds catch the cost.
ANSWER_CPU_S = 5.0
LOADED = "compiled core: loaded from numba's cache"


def cache_files(directory: Path) -> dict[str, int]:
    return {str(path.relative_to(directory)): path.stat().st_mtime_ns for path in directory.rglob("*") if path.is_file()}


def core_line(server: SiteServer, *, timeout: float = 20) -> str:
    """The web process's log line saying what it did with the compiled core ("" if it
    said nothing within ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in server.log().splitlines():
            if line.startswith("compiled core:"):
                return line
        time.sleep(0.1)
    return ""


def with_a_choice(legal: list[dict[str, Any]]) -> bool:
    """More than one tile to play: the hint and the computer search (one tile is forced)."""
    return len({str(action.get("tile")) for action in legal if action.get("type") == "play"}) > 1


async def until_my_turn(client: TableClient, *, after: int = -1) -> None:
    """Until a state after event ``after`` lets this seat act, or the game is over."""
    await client.wait_for(
        lambda f: (f["type"] == "state" and f["seq"] > after and bool(f["legal"])) or f["type"] == "game_over",
        timeout=60,
        since=0,
    )


async def test_a_fresh_site_answers_its_first_hint_and_hard_move_from_the_built_core(tmp_path: Path) -> None:
    from games.ai import warm
    from games.ai.build import cache_directory

    assert warm.load() in {"cached", "compiled"}  # what `make install` left (the session fixture made sure)
    cache = Path(cache_directory())
    before = cache_files(cache)
    server = start_site(tmp_path)
    try:
        pid = server.process.pid
        # Right after /healthz answers: a game against hard (the computer may open at
        # once) while the process is still loading the core in the background.
        # Every computer turn (the opening too) and the first hint are measured, each in
        # CPU seconds of the web process (and wall seconds, printed).
        replies: list[tuple[float, float]] = []
        hint: dict[str, Any] | None = None
        guest = Guest(server.url)
        cpu, wall = cpu_seconds(pid), time.monotonic()
        table_id = guest.start_computer_game(preset="classic-draw", players=2, target=50, level="hard")
        line = core_line(server)
        # Its start: Django, the server, the core's loading (and the table's creation).
        started = cpu_seconds(pid)
        print(f"web process CPU at start, the core loaded: {started:.2f} s")
        assert started < START_CPU_S, server.log()
        assert line.startswith(LOADED), server.log()
        async with TableClient(server.url, table_id, guest.cookie) as client:
            await until_my_turn(client)
            if client.seq > 0:  # the computer opened
                replies.append((time.monotonic() - wall, cpu_seconds(pid) - cpu))
            while (hint is None or len(replies) < 6) and client.game_over is None:
                if hint is None and with_a_choice(client.state["legal"]):
                    cpu, wall = cpu_seconds(pid), time.monotonic()
                    await client.send({"type": "hint"})
                    hint = await client.wait_for(lambda f: f["type"] in {"hint", "error"}, timeout=60)
                    hint_wall, hint_cpu = time.monotonic() - wall, cpu_seconds(pid) - cpu
                    assert hint["type"] == "hint", hint
                    assert "possible deals" in hint["why"], hint  # a search, not a forced move
                    continue
                cpu, wall = cpu_seconds(pid), time.monotonic()
                sent_at = await client.act()
                await until_my_turn(client, after=sent_at)  # after a draw from the boneyard: at once
                if any(event["seat"] != client.seat for seq, event in client.events.items() if seq > sent_at):
                    replies.append((time.monotonic() - wall, cpu_seconds(pid) - cpu))
        assert hint is not None, "the game ended before a turn with a choice"
        print(f"first hint: {hint_wall:.2f} s ({hint_cpu:.2f} s CPU); computer turns: "
              + ", ".join(f"{w:.2f} s ({c:.2f} s CPU)" for w, c in replies))
        assert hint_cpu < ANSWER_CPU_S, server.log()
        assert replies
        assert max(c for _w, c in replies) < ANSWER_CPU_S, server.log()
        log = server.log()
        for warning in ("not built", "compiled by", "reference decides"):
            assert warning not in log, log
        assert cache_files(cache) == before, "the web process wrote to numba's cache: it compiled"
    finally:
        server.stop()


def test_a_fresh_web_process_without_the_build_never_compiles(tmp_path: Path) -> None:
    """A clone whose install's build step was skipped: the web process says so, keeps
    the pure-Python reference, and spends no more CPU at start than with the build."""
    empty = tmp_path / "numba-cache"
    empty.mkdir()
    server = start_site(tmp_path, NUMBA_CACHE_DIR=str(empty))
    try:
        line = core_line(server)
        started = cpu_seconds(server.process.pid)
        print(f"web process CPU at start, no build: {started:.2f} s")
        assert started < START_CPU_S, server.log()
        assert line.startswith("compiled core: not built"), server.log()
        assert "python -m games.ai.build" in line
        assert cache_files(empty) == {}, "the web process wrote to numba's cache: it compiled"
    finally:
        server.stop()


def test_collecting_the_suite_compiles_nothing(tmp_path: Path) -> None:
    """Collection builds nothing (it used to compile the core: 34 s on a fresh checkout):
    the build is the install's, or a session fixture's before the first test."""
    empty = tmp_path / "numba-cache"
    empty.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env["NUMBA_CACHE_DIR"] = str(empty)
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    assert "tests collected" in collected.stdout
    assert cache_files(empty) == {}, "collecting the tests compiled the computer players' core"
