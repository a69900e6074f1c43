"""The production stack as real processes, for fault tests and load runs.

A ``Stack`` runs Daphne (or uvicorn) processes, Celery workers and beat
against one PostgreSQL database made for it and one Redis database number
claimed for it, each process in its own process group so that a test can
kill it (and its children) with SIGKILL like a crashed machine would.

    database = create_database(postgres_url, "dominoes_stack")   # fresh, migrated
    stack = Stack(workdir, database_url=database, redis_url=claim_redis_db(redis_url))
    a, b = stack.start_webs("a", "b"); stack.start_worker()
    ...
    stack.kill("a")            # SIGKILL to the whole process group
    stack.stop_all(); drop_database(postgres_url, database)
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

from tests.support.site import free_port, wait_until_healthy

ROOT = Path(__file__).resolve().parents[2]

# The production web server (the Procfile's): the stack runs it unless told.
WEB_SERVER = "uvicorn"

# Redis database numbers the stack may claim (the test passes use 0 and 1).
REDIS_DBS = range(8, 16)
CLAIM_KEY = "dominoes:stack:claimed-by"


# --- PostgreSQL -------------------------------------------------------------


def _with_database(url: str, name: str) -> str:
    parsed = urlparse(url)
    return urlunparse(parsed._replace(path="/" + name))


def create_database(admin_url: str, prefix: str = "dominoes_stack", *, migrate: bool = True) -> str:
    """Create a fresh database on the server of ``admin_url``, migrate it, and
    return its URL. Drop it with ``drop_database``."""
    import psycopg

    name = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(admin_url, name)
    if migrate:
        env = django_env(database_url=url, redis_url="")
        result = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            drop_database(admin_url, url)
            raise RuntimeError(f"migrate failed on {name}:\n{result.stdout}\n{result.stderr}")
    return url


def drop_database(admin_url: str, url: str) -> None:
    import psycopg

    name = urlparse(url).path.lstrip("/")
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- Redis --------------------------------------------------------------------


def claim_redis_db(redis_url: str) -> str:
    """Claim an empty Redis database number (8-15) on the server of
    ``redis_url`` and return its URL; ``release_redis_db`` empties it."""
    import redis

    owner = f"{os.getpid()}-{uuid.uuid4().hex[:6]}"
    for number in REDIS_DBS:
        url = _redis_db_url(redis_url, number)
        client = redis.Redis.from_url(url, socket_timeout=5)
        try:
            if client.dbsize() == 0 and client.set(CLAIM_KEY, owner, nx=True, ex=6 * 3600):
                return url
        finally:
            client.close()
    raise RuntimeError(f"no empty Redis database among {list(REDIS_DBS)} on {redis_url}")


def release_redis_db(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        client.flushdb()
    finally:
        client.close()


def _redis_db_url(redis_url: str, number: int) -> str:
    return urlunparse(urlparse(redis_url)._replace(path=f"/{number}"))


@dataclass
class PrivateRedis:
    """A throwaway ``redis-server`` on a free port, without persistence, that
    a test may kill and restart (never the machine's own Redis)."""

    workdir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = (self.workdir / f"redis-{self.port}.log").open("ab")
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        _wait_for(lambda: _redis_answers(self.url), timeout=15, what=f"redis-server on {self.port}")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        self.kill()


def _redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1).ping())
    except Exception:
        return False


def _wait_for(check, *, timeout: float, what: str, interval: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(interval)
    raise RuntimeError(f"{what} not ready after {timeout} s")


# --- Processes ----------------------------------------------------------------


def django_env(*, database_url: str, redis_url: str, **overrides: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DEBUG="0",
        SECRET_KEY="stack-tests-only-" + "x" * 40,
        AI_MOVE_DELAY_MS="0",
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="INFO",
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
        env["CELERY_TASK_ALWAYS_EAGER"] = "0"
    env.update(overrides)
    return env


@dataclass
class Managed:
    name: str
    kind: str  # "web", "worker", "beat"
    process: subprocess.Popen
    log_path: Path
    url: str = ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@dataclass
class Stack:
    workdir: Path
    database_url: str
    redis_url: str
    env_overrides: dict[str, str] = field(default_factory=dict)
    processes: dict[str, Managed] = field(default_factory=dict)
    _snippets: subprocess.Popen | None = field(default=None, init=False, repr=False)
    _snippets_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def env(self, **overrides: str) -> dict[str, str]:
        return django_env(
            database_url=self.database_url, redis_url=self.redis_url, **{**self.env_overrides, **overrides}
        )

    def _spawn(self, name: str, kind: str, argv: list[str], env: dict[str, str], url: str = "") -> Managed:
        if name in self.processes and self.processes[name].alive():
            raise RuntimeError(f"{name} is already running")
        log_path = self.workdir / f"{name}.log"
        with log_path.open("ab") as log:
            log.write(f"\n===== start {name}: {' '.join(argv)} =====\n".encode())
            log.flush()
            process = subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        managed = Managed(name=name, kind=kind, process=process, log_path=log_path, url=url)
        self.processes[name] = managed
        return managed

    def start_web(
        self,
        name: str,
        *,
        port: int | None = None,
        server: str = "",
        app: str = "config.asgi:application",
        **env: str,
    ) -> str:
        """Start a web process (``server``: "daphne" or "uvicorn", by default
        ``STACK_SERVER`` or the production server, ``WEB_SERVER``) serving
        ``app`` and wait until /healthz answers; returns its base URL."""
        managed = self._spawn_web(name, port=port, server=server, app=app, **env)
        self._wait_healthy(managed)
        return managed.url

    def start_webs(self, *names: str, **env: str) -> list[str]:
        """Start several web processes as ``start_web`` does, all at once (they
        load at the same time), and wait until each answers; their base URLs."""
        started = [self._spawn_web(name, **env) for name in names]
        for managed in started:
            self._wait_healthy(managed)
        return [managed.url for managed in started]

    def _spawn_web(
        self,
        name: str,
        *,
        port: int | None = None,
        server: str = "",
        app: str = "config.asgi:application",
        **env: str,
    ) -> Managed:
        server = server or os.environ.get("STACK_SERVER") or WEB_SERVER
        port = port or free_port()
        if server == "daphne":
            argv = [
                sys.executable,
                "-m",
                "daphne",
                "--websocket_connect_timeout",
                "30",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                app,
            ]
        elif server == "uvicorn":
            argv = [
                sys.executable,
                "-m",
                "uvicorn",
                "--loop",
                "uvloop",
                "--http",
                "httptools",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--no-access-log",
                "--lifespan",
                "off",
                "--ws-per-message-deflate",
                "false",
                app,
            ]
        else:
            raise ValueError(server)
        return self._spawn(name, "web", argv, self.env(**env), f"http://127.0.0.1:{port}")

    def _wait_healthy(self, managed: Managed) -> None:
        try:
            wait_until_healthy(managed.url + "/healthz", timeout=60, process=managed.process)
        except Exception as error:
            raise RuntimeError(f"{managed.name} did not start: {error}\n{managed.log()[-4000:]}") from None

    def start_worker(
        self,
        name: str = "worker",
        *,
        concurrency: int = 1,
        pool: str = "prefork",
        queues: str = "celery",
        wait_for: str = "",
        app: str = "config",
        **env: str,
    ) -> Managed:
        """Start a Celery worker and wait until it is ready to take tasks (and,
        with ``wait_for``, until that regular expression shows in its log)."""
        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            app,
            "worker",
            "--loglevel=INFO",
            f"--concurrency={concurrency}",
            f"--pool={pool}",
            f"--queues={queues}",
            f"--hostname={name}-{uuid.uuid4().hex[:6]}@%h",
            "--without-gossip",
            "--without-mingle",
        ]
        managed = self._spawn(name, "worker", argv, self.env(**env))
        start = len(managed.log())
        try:
            _wait_for(
                lambda: not managed.alive() or " ready." in managed.log()[start:], timeout=60, what=name
            )
        except RuntimeError:
            raise RuntimeError(f"{name} did not get ready:\n{managed.log()[-4000:]}") from None
        if not managed.alive():
            raise RuntimeError(f"{name} exited:\n{managed.log()[-4000:]}")
        if wait_for:
            pattern = re.compile(wait_for)
            try:
                _wait_for(
                    lambda: bool(pattern.search(managed.log()[start:])),
                    timeout=60,
                    what=f"{name}: {wait_for}",
                )
            except RuntimeError:
                raise RuntimeError(f"{name} never logged {wait_for!r}:\n{managed.log()[-4000:]}") from None
        return managed

    def start_beat(self, name: str = "beat", **env: str) -> Managed:
        schedule = self.workdir / f"{name}-schedule"
        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel=INFO",
            f"--schedule={schedule}",
        ]
        return self._spawn(name, "beat", argv, self.env(**env))

    def url(self, name: str) -> str:
        return self.processes[name].url

    def log(self, name: str) -> str:
        return self.processes[name].log()

    def children(self, name: str) -> list[int]:
        """The pids of the processes whose parent is ``name``'s process (a
        prefork worker's pool), read from /proc (Linux)."""
        leader = self.processes[name].process.pid
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                # "pid (comm) state ppid ...": the command may hold spaces.
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == leader:
                    found.append(int(stat.parent.name))
        return sorted(found)

    def dump_stacks(self, name: str) -> str:
        """Where a Celery worker started with ``PYTHONFAULTHANDLER=1`` is: its
        main process logs every thread's stack on SIGUSR1 (Celery's own
        handler), each pool process dumps its stack on SIGABRT (faulthandler)
        and dies: the pool starts another, and a task that process held is
        delivered again (late acknowledgement, rejected on a lost worker).
        Returns what they wrote to the log."""
        managed = self.processes[name]
        start = len(managed.log())
        with contextlib.suppress(ProcessLookupError):
            os.kill(managed.process.pid, signal.SIGUSR1)
        for pid in self.children(name):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGABRT)
        time.sleep(3)
        return managed.log()[start:]

    def wait_for_lock_wait(self, database_url: str, *, name: str = "worker", what: str, timeout: float = 60) -> None:
        """Wait until a session of the database waits for a lock (``name``'s
        process, blocked by a row the test holds). The test's own connection
        that holds the row cannot watch: inside a transaction, PostgreSQL
        reads pg_stat_activity once and shows that picture until the
        transaction ends, so a look taken before the worker reached the lock
        never sees it wait. Here each look is a transaction of its own. On a
        timeout, fails with every session and the stacks of ``name``'s
        processes (started with ``PYTHONFAULTHANDLER=1`` for its pool's)."""
        import psycopg

        url = database_url.replace("postgres://", "postgresql://", 1)
        with psycopg.connect(url, autocommit=True) as watcher:
            deadline = time.monotonic() + timeout
            while not watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            ).fetchone()[0]:  # type: ignore[index]
                if time.monotonic() > deadline:
                    activity = watcher.execute(
                        "SELECT pid, state, wait_event_type, wait_event, left(query, 200) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    ).fetchall()
                    raise AssertionError(
                        f"{what}: no session waits for a lock after {timeout:.0f} s\n"
                        + "\n".join(map(str, activity))
                        + f"\n{self.dump_stacks(name)}"
                    )
                time.sleep(0.1)

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to the process group of ``name`` (the process and its
        children: a prefork worker's pool dies with it) and wait for it."""
        managed = self.processes[name]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(managed.process.pid, sig)
        try:
            managed.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(managed.process.pid, signal.SIGKILL)
            managed.process.wait()
        # Children (prefork pool) may outlive the leader for a moment.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(managed.process.pid, signal.SIGKILL)

    def stop(self, name: str) -> None:
        """SIGTERM to the process only (a Celery worker then shuts down warmly:
        its pool finishes the task in hand), SIGKILL to the group after 15 s."""
        managed = self.processes[name]
        if managed.alive():
            managed.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                managed.process.wait(timeout=15)
        self.kill(name)

    def stop_all(self) -> None:
        """Every process stopped as ``stop`` stops one, all at once: SIGTERM to
        each, up to 15 s for them all, then SIGKILL to every process group."""
        running = [managed for managed in self.processes.values() if managed.alive()]
        for managed in running:
            with contextlib.suppress(ProcessLookupError):
                managed.process.terminate()
        deadline = time.monotonic() + 15
        for managed in running:
            with contextlib.suppress(subprocess.TimeoutExpired):
                managed.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        for name in list(self.processes):
            self.kill(name)
        self._stop_snippets()

    def logs(self) -> str:
        """Every process's log tail, for failure messages."""
        return "\n".join(
            f"--- {name} ---\n{managed.log()[-3000:]}" for name, managed in self.processes.items()
        )

    def django(self, code: str, **env: str) -> object:
        """Run Python ``code`` with Django set up on the stack's database and
        Redis, in a new process (forked from the stack's snippet runner,
        tests/support/snippets.py, or with ``env`` overrides started anew);
        the code assigns ``result``, returned as JSON."""
        if env:
            return self._django_process(code, env)
        with self._snippets_lock:
            if self._snippets is None or self._snippets.poll() is not None:
                self._snippets = self._spawn_snippets()
            runner = self._snippets
            assert runner.stdin is not None
            assert runner.stdout is not None
            try:
                runner.stdin.write(json.dumps({"code": code}) + "\n")
                runner.stdin.flush()
                line = runner.stdout.readline()
            except OSError:
                line = ""
        if not line:
            log = (self.workdir / "snippets.log").read_text(errors="replace")
            raise RuntimeError(f"the snippet runner ended:\n{log[-4000:]}")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"django snippet failed:\n{answer['output']}\n{answer['error']}")
        return answer["result"]

    def _spawn_snippets(self) -> subprocess.Popen:
        with (self.workdir / "snippets.log").open("ab") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "tests.support.snippets"],
                cwd=ROOT,
                env=self.env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                start_new_session=True,
            )

    def _stop_snippets(self) -> None:
        with self._snippets_lock:
            runner, self._snippets = self._snippets, None
        if runner is None:
            return
        if runner.stdin is not None:
            with contextlib.suppress(OSError):
                runner.stdin.close()
        try:
            runner.wait(timeout=10)
        except subprocess.TimeoutExpired:
            runner.kill()
            runner.wait()
        if runner.stdout is not None:
            runner.stdout.close()

    def _django_process(self, code: str, env: dict[str, str]) -> object:
        script = (
            "import django, json\ndjango.setup()\nresult = None\n"
            + code
            + "\nprint('@@RESULT@@' + json.dumps(result))\n"
        )
        completed = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=self.env(**env),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if completed.returncode != 0:
            raise RuntimeError(f"django snippet failed:\n{completed.stdout}\n{completed.stderr}")
        match = re.search(r"@@RESULT@@(.*)$", completed.stdout, re.MULTILINE)
        assert match is not None, completed.stdout
        return json.loads(match.group(1))


@contextlib.contextmanager
def fresh_stack(
    workdir: Path, *, postgres_url: str, redis_url: str, prefix: str, **env_overrides: str
) -> Iterator[Stack]:
    """A Stack on a database and a Redis database number of its own (no
    process started yet): every process's log is printed if the block fails,
    and everything is stopped, released and dropped afterwards."""
    database = create_database(postgres_url, prefix)
    redis = claim_redis_db(redis_url)
    try:
        stack = Stack(workdir, database_url=database, redis_url=redis, env_overrides=dict(env_overrides))
        with guarded(stack) as running:
            yield running
    finally:
        release_redis_db(redis)
        drop_database(postgres_url, database)


@contextlib.contextmanager
def guarded(running: Stack) -> Iterator[Stack]:
    """``running`` for the block: every process's log is printed if the block fails, and
    every process is stopped afterwards."""
    try:
        yield running
    except BaseException:
        print(running.logs())
        raise
    finally:
        running.stop_all()
