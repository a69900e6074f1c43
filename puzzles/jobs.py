"""Where the puzzle search runs: its own Celery task
(``puzzles.tasks.search_puzzles``, on the ``reviews`` queue beside the
post-game reviews: long CPU work that must never hold the periodic tick),
queued by name like ``games.jobs`` queues the games' tasks (this module
imports no task):

- With a broker (not eager): ``apply_async`` of the task, which expires if
  no reviewer takes it within ``QUEUED_SECONDS``.
- Embedded mode: the same task on the pool of ``games.jobs`` (a thread of
  this process, after the caller's work, never in its thread).
- ``GAMES_DISPATCH = "queue"`` (tests): in ``PENDING_SEARCHES`` until
  ``run_pending_searches()``.

One search waits at a time (``QUEUED_KEY`` in the cache, taken when it is
queued and given back when it starts): the tick, every few seconds, queues
none while one waits.
"""

from __future__ import annotations

import logging
from collections import deque

from celery import current_app
from django.conf import settings
from django.core.cache import cache

from games import jobs as game_jobs

logger = logging.getLogger(__name__)

SEARCH = "puzzles.tasks.search_puzzles"
QUEUED_KEY = "puzzles:search-queued"
QUEUED_SECONDS = 120

# Searches waiting in "queue" mode (tests): their game limits.
PENDING_SEARCHES: deque[int] = deque()


def search_seconds() -> float:
    """The time cap of one search: no game is begun after it (a game begun is finished)."""
    return float(getattr(settings, "PUZZLES_SEARCH_SECONDS", 20))


def _run(limit: int) -> None:
    current_app.tasks[SEARCH](limit)


def queue_search(limit: int) -> bool:
    """Have up to ``limit`` finished games searched for puzzles, unless a
    search waits already. Returns whether one was queued."""
    if not cache.add(QUEUED_KEY, 1, timeout=QUEUED_SECONDS):
        return False
    how = game_jobs.mode()
    try:
        if how == "queue":
            PENDING_SEARCHES.append(limit)
        elif how == "thread":
            game_jobs.run_later(0, lambda: _run(limit), "the puzzle search failed")
        else:
            current_app.tasks[SEARCH].apply_async((limit,), expires=QUEUED_SECONDS)
    except Exception:
        cache.delete(QUEUED_KEY)
        logger.exception("could not queue the puzzle search")
        return False
    return True


def started() -> None:
    """The task has begun: the next tick may queue another search."""
    cache.delete(QUEUED_KEY)


def run_pending_searches() -> int:
    """Run the queued searches ("queue" mode); returns how many ran."""
    ran = 0
    while PENDING_SEARCHES:
        _run(PENDING_SEARCHES.popleft())
        ran += 1
    return ran
