"""Bench only: the site's Celery app, plus a probe that records when each
computer-move task starts and ends (wall clock, shared by every process on
the machine), so that bench/ws_load.py can split a computer move's latency
into the task's own run time and the queueing around it.

    CELERY_PROBE_FILE=/tmp/probe.jsonl celery -A bench.celery_probe worker ...

Not imported by the site.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from celery.signals import task_postrun, task_prerun

from config.celery import app

__all__ = ["app"]

PROBED = "games.tasks.compute_ai_move"


def _write(record: dict[str, Any]) -> None:
    path = os.environ.get("CELERY_PROBE_FILE")
    if not path:
        return
    # One short line per append: safe across the pool's processes.
    with open(path, "a", encoding="utf-8") as probe:
        probe.write(json.dumps(record) + "\n")


@task_prerun.connect
def task_started(task_id: str, task: Any, args: tuple = (), **_kwargs: Any) -> None:
    if task.name == PROBED:
        _write({"id": task_id, "args": list(args), "start": time.time()})


@task_postrun.connect
def task_ended(task_id: str, task: Any, args: tuple = (), retval: Any = None, **_kwargs: Any) -> None:
    if task.name == PROBED:
        _write({"id": task_id, "args": list(args), "end": time.time(), "result": retval})
