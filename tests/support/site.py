"""Start the real site (Daphne, ASGI) in a subprocess for end-to-end tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system, every thread) that process ``pid`` has used so far,
    from ``/proc/<pid>/stat`` (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_healthy(url: str, *, timeout: float = 30.0, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except Exception as error:
            last_error = error
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout} s: {last_error}")


@dataclass
class SiteServer:
    url: str
    env: dict[str, str]
    process: subprocess.Popen
    log_path: Path
    extra: list[subprocess.Popen] = field(default_factory=list)

    def stop(self) -> None:
        for process in [self.process, *self.extra]:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def site_env(workdir: Path, **overrides: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        SQLITE_PATH=str(workdir / "site.sqlite3"),
        AI_MOVE_DELAY_MS="0",
        DEBUG="0",
        SECRET_KEY="e2e-tests-only-" + "x" * 40,
        PYTHONUNBUFFERED="1",
        # Every browser test comes from 127.0.0.1: the per-address limit of new
        # tables (games.play.limits) would refuse the later ones of a long run.
        TABLES_PER_ADDRESS="100000",
    )
    env.update(overrides)
    return env


def start_site(workdir: Path, *, port: int | None = None, **env_overrides: str) -> SiteServer:
    env = site_env(workdir, **env_overrides)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    port = port or free_port()
    log_path = workdir / f"daphne-{port}.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    server = SiteServer(url=url, env=env, process=process, log_path=log_path)
    try:
        wait_until_healthy(url + "/healthz", process=process)
    except Exception:
        server.stop()
        raise RuntimeError(f"the site did not start:\n{server.log()}") from None
    return server
