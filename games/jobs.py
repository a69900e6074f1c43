"""Where the tasks of ``games.tasks`` run. It imports nothing of the site: a
service queues work by the task's name, so that the services, this module and
the tasks (which call the services) make no circle.

- With a broker (``REDIS_URL``, not eager): ``apply_async`` of the Celery task.
- Embedded mode (``CELERY_TASK_ALWAYS_EAGER``): the same task code runs in
  this process on a small pool of background threads, after the caller's
  commit and never inside the caller's thread or transaction.
- ``GAMES_DISPATCH = "queue"`` (tests): jobs wait in ``PENDING`` (computer
  turns) and ``PENDING_REVIEWS`` (post-game reviews) until ``run_pending()``
  and ``run_pending_reviews()`` run them one by one in the calling thread.

Tasks are idempotent, so queueing one twice is harmless: the sweeps use that to
resume games after a restart (``games.play.resume``) and to compute the reviews
that were lost (``games.coach.services``). The tasks are found in Celery's
registry, which ``games.tasks`` fills when the app is ready (``games.apps``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import OperationalError, close_old_connections, connection

logger = logging.getLogger(__name__)

# The names of the tasks (``games.tasks``), which Celery's routes and beat use too.
COMPUTER_TURN = "games.tasks.compute_ai_move"
REVIEW = "games.tasks.review_game"

PENDING: deque[tuple[int, int]] = deque()
# Post-game reviews waiting in "queue" mode (tests): game ids.
PENDING_REVIEWS: deque[int] = deque()
# Attempts of an in-process computer turn when the database is locked.
LOCKED_RETRIES = 5
_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()
_sweeper_started = False


def mode() -> str:
    """"celery", "thread" or "queue" (``GAMES_DISPATCH``, default by the eager flag)."""
    configured: str = getattr(settings, "GAMES_DISPATCH", "auto")
    if configured != "auto":
        return configured
    return "thread" if settings.CELERY_TASK_ALWAYS_EAGER else "celery"


def _task(name: str) -> Any:
    return current_app.tasks[name]


def _pool() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=int(getattr(settings, "GAMES_EMBEDDED_WORKERS", 8)),
                thread_name_prefix="computer-turn",
            )
        return _executor


def _in_pool_thread(work: Callable[[], object], failure: str, *args: object) -> None:
    """Run ``work`` on a pool thread: again (with a growing pause) while
    SQLite is busy beyond its timeout (the computer's work is idempotent),
    logging ``failure % args`` if it fails for good; no connection is kept
    between turns (pool threads are few and long-lived)."""
    close_old_connections()
    try:
        for attempt in range(LOCKED_RETRIES):
            try:
                work()
                return
            except OperationalError:
                if attempt == LOCKED_RETRIES - 1:
                    raise
                connection.close()
                time.sleep(0.05 * 2**attempt)
    except Exception:
        logger.exception(failure, *args)
    finally:
        connection.close()


def _run_in_thread(game_id: int, seq: int) -> None:
    _in_pool_thread(
        lambda: _task(COMPUTER_TURN)(game_id, seq),
        "computer turn of game %s at event %s failed",
        game_id,
        seq,
    )


def queue_computer_turn(game_id: int, seq: int) -> None:
    """Have the computer act at ``game_id`` if it still waits at event ``seq``.
    Call after the commit (``transaction.on_commit``)."""
    how = mode()
    if how == "queue":
        PENDING.append((game_id, seq))
    elif how == "thread":
        _pool().submit(_run_in_thread, game_id, seq)
    else:
        try:
            _task(COMPUTER_TURN).apply_async((game_id, seq))
        except Exception:
            # The broker is away: the periodic sweep queues the turn again.
            logger.exception("could not queue the computer turn of game %s", game_id)


def _review_in_thread(game_id: int) -> None:
    close_old_connections()
    try:
        _task(REVIEW)(game_id)
    except Exception:
        logger.exception("the review of game %s failed", game_id)
    finally:
        close_old_connections()


def queue_review(game_id: int) -> None:
    """Have the post-game review of a finished game computed (games.coach),
    like a computer turn: a Celery task, a background thread, or the test
    queue. Idempotent, so queueing it twice is harmless."""
    how = mode()
    if how == "queue":
        PENDING_REVIEWS.append(game_id)
    elif how == "thread":
        _pool().submit(_review_in_thread, game_id)
    else:
        try:
            _task(REVIEW).apply_async((game_id,))
        except Exception:
            # The broker is away: the periodic sweep queues it again.
            logger.exception("could not queue the review of game %s", game_id)


def run_pending_reviews() -> int:
    """Run the queued reviews ("queue" mode); returns how many ran."""
    ran = 0
    while PENDING_REVIEWS:
        _task(REVIEW)(PENDING_REVIEWS.popleft())
        ran += 1
    return ran


def run_pending(*, limit: int = 100_000) -> int:
    """Run the queued jobs ("queue" mode) until none is left; returns how many ran."""
    ran = 0
    while PENDING and ran < limit:
        game_id, seq = PENDING.popleft()
        _task(COMPUTER_TURN)(game_id, seq)
        ran += 1
    return ran


def run_later(seconds: float, work: Callable[[], object], failure: str, *args: object) -> None:
    """Embedded mode: run ``work`` on the pool once ``seconds`` are over, from
    a timer, so that the pool's threads never sleep through the wait (logging
    ``failure % args`` if it fails). In "queue" mode (tests): at once."""
    if mode() == "queue":
        work()
        return
    timer = threading.Timer(seconds, lambda: _pool().submit(_in_pool_thread, work, failure, *args))
    timer.daemon = True
    timer.start()


def start_sweeper(*, first: Callable[[], object], each: Callable[[], object]) -> None:
    """In embedded mode (no Celery beat), sweep from a daemon thread of this
    process: ``first`` now, then ``each`` every ``GAMES_SWEEP_SECONDS`` (0
    disables it, as in the tests). Once per process."""
    global _sweeper_started
    every = float(getattr(settings, "GAMES_SWEEP_SECONDS", 30))
    if mode() != "thread" or every <= 0:
        return
    with _executor_lock:
        if _sweeper_started:
            return
        _sweeper_started = True

    def first_then_forever() -> None:
        close_old_connections()
        try:
            first()
        except Exception:
            logger.exception("the startup sweep failed")
        finally:
            close_old_connections()
        stop = threading.Event()
        while not stop.wait(every):
            close_old_connections()
            try:
                each()
            except Exception:
                logger.exception("the stalled-games sweep failed")
            finally:
                close_old_connections()

    threading.Thread(target=first_then_forever, name="stalled-games-sweep", daemon=True).start()
