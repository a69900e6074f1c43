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
from tests.support.site import SiteServer, cpu_seconds, site_env, start_site

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parent.parent

# CPU seconds of a web process from its start until its log says the core is loaded,
# read as that line appears, before any request but /healthz: Python, Daphne, Django and
# the apps, the URLs, the core's loading. 1.7-2.3 s on this machine at load average 13-14
# on its 2 cores (docs/performance.md, "A web process's start"); compiling the core would
# cost 45 s of CPU. 3 s failed twice (3.01 and 3.18 s) in a CI run whose machine also ran
# a benchmark: CPU time grows too when two cores are shared by ten processes.
START_CPU_S = 5.0
# CPU seconds of the web process for the first hint and for each hard move: 0.1-0.45 s
# (0.72-0.83 s for a computer's opening with the table's creation, the first pages
# rendered); compiling the functions a decision needs costs several seconds each. What
# proves that nothing compiled is numba's cache left unchanged (below); these bounds
# catch the cost.
ANSWER_CPU_S = 2.0
LOADED = "compiled core: loaded from numba's cache"


def cache_files(directory: Path) -> dict[str, int]:
    """Numba's own files in its cache (its index and compiled code), with their times.

    Python's bytecode (``*.pyc``) shares the folder when numba caches beside the
    sources, and any process importing ``games.ai`` may write it: it says nothing of
    a compilation, so it is left out (CI saw a parallel worker's ``.pyc`` files)."""
    return {
        str(path.relative_to(directory)): path.stat().st_mtime_ns
        for path in directory.rglob("*")
        if path.is_file() and path.suffix in {".nbi", ".nbc"}
    }


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


# Games against hard played at most to reach a turn of the guest with a choice.
GAMES_FOR_A_CHOICE = 3


async def test_a_fresh_site_answers_its_first_hint_and_hard_move_from_the_built_core(tmp_path: Path) -> None:
    from games.ai import warm
    from games.ai.build import cache_directory

    assert warm.load() in {"cached", "compiled"}  # what `make install` left (the session fixture made sure)
    cache = Path(cache_directory())
    before = cache_files(cache)
    server = start_site(tmp_path)
    try:
        pid = server.process.pid
        # Its start, read when its log says the core is loaded (in the background,
        # from the process's start): nothing but /healthz has been asked yet.
        line = core_line(server)
        started = cpu_seconds(pid)
        print(f"web process CPU at start, the core loaded: {started:.2f} s")
        assert line.startswith(LOADED), server.log()
        assert started < START_CPU_S, server.log()
        # Then a game against hard (the computer may open at once): every computer
        # turn (the opening too, with the table's creation) and the first hint are
        # measured, each in CPU seconds of the web process (and wall seconds, printed).
        # A deal may end the game before the guest ever has a choice (one round can pass
        # 50 points): then another game, still the process's first hint.
        replies: list[tuple[float, float]] = []
        hint: dict[str, Any] | None = None
        guest = Guest(server.url)
        for _game in range(GAMES_FOR_A_CHOICE):
            if hint is not None:
                break
            cpu, wall = cpu_seconds(pid), time.monotonic()
            table_id = guest.start_computer_game(preset="classic-draw", players=2, target=50, level="hard")
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
        assert hint is not None, f"{GAMES_FOR_A_CHOICE} games ended before a turn with a choice"
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


def test_a_web_process_imports_at_start_no_library_needed_only_later(tmp_path: Path) -> None:
    """What a web process loads as it starts (``config/asgi.py``, then its URLs at the
    first request) leaves out the libraries that only some later requests use:
    networkx (a tournament's pairings, ``tournaments.pairing``) and glin-profanity
    (the chat filter, ``community.chat_filter``) cost it 0.3 s of CPU together."""
    later = ("networkx", "glin_profanity")
    code = (
        "import sys\n"
        "import config.asgi\n"
        "from django.urls import get_resolver\n"
        "get_resolver().url_patterns\n"
        f"print(sorted(name for name in {later!r} if name in sys.modules))\n"
    )
    env = site_env(tmp_path)
    started = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert started.returncode == 0, started.stderr[-3000:]
    assert started.stdout.splitlines()[-1] == "[]", started.stdout
