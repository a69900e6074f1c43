"""`make stack`: the whole site under a supervisor that restarts only what dies.

Runs ``migrate``, ``collectstatic`` and the build of the computer players'
compiled core (``python -m games.ai.build``: a second when it is built; the
workers and web processes then load it, docs/ai.md), writes a supervisord
configuration with one program per line of the ``Procfile`` (the Procfile
stays the one list of command lines), and runs supervisord in the foreground. A process
that exits or is killed (a Celery worker, a web process when Redis went away)
is started again on its own; the others keep running, as under the systemd
units of docs/deploy.md. Ctrl-C (or SIGTERM) stops them all: Celery workers
warmly (they finish the move in hand), every program with its children.

Environment: DATABASE_URL and REDIS_URL (required), PORT (first web port,
default 8000; the second is PORT+1), STACK_RUN_DIR (where the configuration,
the control socket and one log per program go; default .stack/<PORT> in
the repository). While it runs::

    .venv/bin/supervisorctl -c $STACK_RUN_DIR/supervisord.conf status
    .venv/bin/supervisorctl -c $STACK_RUN_DIR/supervisord.conf restart worker
    tail -f $STACK_RUN_DIR/logs/*.log
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

# Seconds a program gets to stop on SIGTERM before SIGKILL: Celery workers
# finish the computer move in hand (warm shutdown).
STOP_WAIT = {"web": 10, "default": 60}


def procfile(path: Path) -> list[tuple[str, str]]:
    """(name, command) for each process line of a Procfile."""
    entries = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, separator, command = line.partition(":")
        if not separator or not name.strip().isidentifier():
            raise SystemExit(f"{path}: not a Procfile line: {line!r}")
        entries.append((name.strip(), command.strip()))
    return entries


def supervisor_config(entries: list[tuple[str, str]], run_dir: Path) -> str:
    """A supervisord configuration running each Procfile command through bash
    (which ``exec``s it: the program's pid is the process's own)."""
    logs = run_dir / "logs"
    sections = [
        "[supervisord]",
        "nodaemon=true",
        f"logfile={run_dir / 'supervisord.log'}",
        "logfile_maxbytes=0",
        f"pidfile={run_dir / 'supervisord.pid'}",
        f"childlogdir={logs}",
        "",
        "[unix_http_server]",
        f"file={run_dir / 'supervisor.sock'}",
        "chmod=0700",
        "",
        "[rpcinterface:supervisor]",
        "supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface",
        "",
        "[supervisorctl]",
        f"serverurl=unix://{run_dir / 'supervisor.sock'}",
        "",
    ]
    for name, command in entries:
        kind = "web" if name.startswith("web") else "default"
        # supervisord expands %(...)s in its values: a literal % is %%.
        line = shlex.join(["/bin/bash", "-c", command]).replace("%", "%%")
        sections += [
            f"[program:{name}]",
            f"command={line}",
            f"directory={ROOT}",
            "autostart=true",
            # Restart whatever exits, at once and without giving up: a
            # process that dies while Redis restarts must come back after it.
            "autorestart=true",
            "startsecs=2",
            "startretries=1000",
            "stopsignal=TERM",
            f"stopwaitsecs={STOP_WAIT[kind]}",
            # The signal goes to the process group: Celery's pool and any
            # child go with their program.
            "stopasgroup=true",
            "killasgroup=true",
            "redirect_stderr=true",
            f"stdout_logfile={logs / (name + '.log')}",
            "stdout_logfile_maxbytes=50MB",
            "stdout_logfile_backups=2",
            "",
        ]
    return "\n".join(sections)


def main() -> int:
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        print("Set DATABASE_URL and REDIS_URL", file=sys.stderr)
        return 1
    port = int(os.environ.get("PORT", "8000"))
    run_dir = Path(os.environ.get("STACK_RUN_DIR") or ROOT / ".stack" / str(port))
    (run_dir / "logs").mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "STACK_PORT": str(port)}
    manage = [PYTHON, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run([PYTHON, "-m", "games.ai.build"], cwd=ROOT, env=env, check=True)
    config = run_dir / "supervisord.conf"
    config.write_text(supervisor_config(procfile(ROOT / "Procfile"), run_dir))
    print(f"dominoes stack: web on {port} and {port + 1}; logs in {run_dir / 'logs'}", flush=True)
    print(f"control: {Path(PYTHON).parent / 'supervisorctl'} -c {config} status", flush=True)
    os.chdir(ROOT)
    # supervisord replaces this process: Ctrl-C and SIGTERM reach it directly.
    os.execve(PYTHON, [PYTHON, "-m", "supervisor.supervisord", "-c", str(config)], env)  # noqa: S606
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
