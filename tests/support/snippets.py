"""Django snippets of the stack tests (``Stack.django``), each run in a new
process forked from this one.

A snippet used to start a Python process of its own: most of a second of
CPU to import Django and set it up, several seconds on a loaded machine,
dozens of times per run of the stack tests. This process, started with the
stack's environment, sets Django up once and forks a child per snippet. The
child starts from the state of a new process right after ``django.setup()``:
no connection open and no thread but the main one (checked before each
fork), nothing left by an earlier snippet, its own random state (Python
reseeds ``random`` in a forked child). It runs the code, which assigns
``result``, and sends back that result as JSON, or the error with what the
code printed.

One JSON object a line: the test writes ``{"code": ...}`` on this process's
standard input; this process answers ``{"result": ...}`` or ``{"error": ...,
"output": ...}`` on the standard output it had at start. Anything else
printed goes to its standard error (a log file of the stack).

    python -m tests.support.snippets
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import signal
import sys
import threading
import time
import traceback
from typing import Any

TIMEOUT_S = 120


def _fresh(django_connections: Any) -> str | None:
    """Why a child forked now would not start like a new process, or None."""
    if threading.active_count() != 1:
        return f"threads are running: {[thread.name for thread in threading.enumerate()]}"
    opened = [alias for alias in django_connections if django_connections[alias].connection is not None]
    if opened:
        return f"database connections are open: {opened}"
    return None


def _child(code: str, answer_fd: int) -> None:
    output = io.StringIO()
    namespace: dict[str, Any] = {"__name__": "__main__"}
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            exec("result = None\n" + code, namespace)
        answer = json.dumps({"result": namespace["result"]})
    except BaseException:
        answer = json.dumps({"error": traceback.format_exc(), "output": output.getvalue()})
    finally:
        from django.db import connections

        with contextlib.suppress(Exception):
            connections.close_all()
    data = answer.encode()
    while data:
        data = data[os.write(answer_fd, data) :]
    os.close(answer_fd)


def run(code: str) -> dict[str, Any]:
    """Run ``code`` in a forked child; its answer."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        status = 0
        try:
            os.close(read_fd)
            _child(code, write_fd)
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(write_fd)
    chunks = []
    deadline = time.monotonic() + TIMEOUT_S
    try:
        while True:
            ready, _, _ = select.select([read_fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                return {"error": f"the snippet took more than {TIMEOUT_S} s", "output": ""}
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        _, status = os.waitpid(pid, 0)
    if not chunks:
        return {"error": f"the snippet's process ended (status {status}) without an answer", "output": ""}
    answer: dict[str, Any] = json.loads(b"".join(chunks))
    return answer


def main() -> None:
    # The answers go to the standard output this process was given; anything
    # printed (here or in a child, from Python or not) to the standard error.
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    import django

    django.setup()
    # What setup started ends first (the computer players' core loads in a
    # thread of every process that serves games: games.apps).
    for thread in threading.enumerate():
        if thread is not threading.main_thread():
            thread.join(timeout=60)
    from django.db import connections

    for line in sys.stdin:
        problem = _fresh(connections)
        if problem:
            answer = {"error": f"cannot fork a fresh process: {problem}", "output": ""}
        else:
            answer = run(json.loads(line)["code"])
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
