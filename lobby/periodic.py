"""The periodic tick of the site: matchmaking (ranked and rooms), the turn
timers, ratings and room chips whose signal was lost (and the stakes of
aborted room tables, and of room tables that waited too long), dead
sockets, and the live counters; and the jobs of the apps beside and above it
(the puzzles' search of finished games, the tournaments), through the
``games.signals.periodic_tick`` hook, since the lobby may not import them.

The lobby sits on top of the other apps, so it is the one that runs their
periodic jobs. With Redis, Celery beat runs ``lobby.tasks.lobby_tick`` every
``LOBBY_TICK_SECONDS``; in the embedded mode (no beat) a daemon thread of the
server process runs the same ``tick``, started by the first lobby or table
socket. Each job that must not run twice at once takes a lock
(``games.play.locks.try_lock``): a process that finds it locked skips that round.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from accounts.services import rate_missed_games
from games.live.services import forget_dead_sockets
from games.signals import periodic_tick
from games.timers.expiry import sweep
from lobby import room_tables, services

logger = logging.getLogger(__name__)

_loop_lock = threading.Lock()
_loop_stop = threading.Event()
_loop_thread: threading.Thread | None = None


def tick_seconds() -> float:
    return float(getattr(settings, "LOBBY_TICK_SECONDS", 3))


def in_process() -> bool:
    """Whether this process runs the tick itself (embedded mode: no beat)."""
    configured = getattr(settings, "LOBBY_TICK_IN_PROCESS", None)
    if configured is not None:
        return bool(configured)
    return bool(settings.CELERY_TASK_ALWAYS_EAGER)


def tick() -> dict[str, Any]:
    """One round of every periodic job; each failure is logged, never raised."""
    report: dict[str, Any] = {}
    jobs: tuple[tuple[str, Callable[[], Any]], ...] = (
        ("matched", lambda: len(services.run_matcher())),
        ("room_matched", lambda: len(room_tables.run_room_matcher())),
        ("timers", sweep),
        ("rated", rate_missed_games),
        ("settled", room_tables.settle_missed),
        ("stale_rooms", room_tables.close_stale_tables),
        ("forgotten", forget_dead_sockets),
        ("counts", services.broadcast_counts),
    )
    for name, job in jobs:
        try:
            report[name] = job()
        except Exception:
            logger.exception("the periodic job %r failed", name)
    # The jobs of the apps beside the lobby (puzzles), which it may not import.
    for receiver, result in periodic_tick.send_robust(sender=None):
        if isinstance(result, Exception):
            logger.error("the periodic job of %r failed", receiver, exc_info=result)
        elif isinstance(result, dict):
            report.update(result)
    return report


def _loop(stop: threading.Event) -> None:
    every = tick_seconds()
    while not stop.wait(every):
        close_old_connections()
        try:
            tick()
        finally:
            close_old_connections()


def start_in_process_loop() -> bool:
    """Start the tick in a daemon thread of this process (embedded mode only,
    once). Returns whether a loop was started now."""
    global _loop_thread
    if not in_process() or tick_seconds() <= 0:
        return False
    with _loop_lock:
        if _loop_thread is not None and _loop_thread.is_alive():
            return False
        _loop_stop.clear()
        _loop_thread = threading.Thread(target=_loop, args=(_loop_stop,), name="lobby-tick", daemon=True)
        _loop_thread.start()
    return True


def stop_in_process_loop(timeout: float = 5) -> None:
    """Stop the tick thread (tests; a process shutting down)."""
    global _loop_thread
    with _loop_lock:
        thread, _loop_thread = _loop_thread, None
    _loop_stop.set()
    if thread is not None:
        thread.join(timeout)
