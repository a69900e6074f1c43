"""The periodic tick of the lobby: matchmaking, the live counters, the turn
timers, and ratings whose signal was lost.

With Redis, Celery beat runs ``accounts.tasks.lobby_tick`` every
``LOBBY_TICK_SECONDS``; in the embedded mode (no beat) a daemon thread of the
server process runs the same ``tick``, started by the first lobby or table
socket. Each job takes a lock (``try_lock``) so that several processes
never run it at once; a process that finds it locked skips that round.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone

from accounts.models import Presence, QueueEntry
from games.modes import MODE_KEYS

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
# A lobby socket refreshes its presence every PRESENCE_REFRESH seconds; a row
# older than PRESENCE_TTL belongs to a socket whose process died. Table
# sockets record themselves when they open and close (games.signals) and
# each server process refreshes all of its open table sockets in one UPDATE
# every PRESENCE_REFRESH seconds (``keep_table_socket``), so that the players
# of a process that died count as gone within PRESENCE_TTL (their grace
# period starts, games.clock) instead of looking connected for ever.
PRESENCE_REFRESH = 20
PRESENCE_TTL = 60
# Channel names per UPDATE of the table-socket refresh.
REFRESH_CHUNK = 500

_table_sockets: set[str] = set()
_sockets_lock = threading.Lock()
_keeper_thread: threading.Thread | None = None

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


def try_lock(name: str) -> bool:
    """Lock the job ``name`` until the current transaction ends; False if
    another process holds it. PostgreSQL: a transaction-level advisory lock
    (``pg_try_advisory_xact_lock``). SQLite takes the database's write lock
    at the start of each transaction (IMMEDIATE mode), so there the jobs
    simply run one after the other and this always succeeds."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("try_lock needs a transaction")
    if connection.vendor != "postgresql":
        return True
    key = int.from_bytes(hashlib.sha256(f"dominoes:{name}".encode()).digest()[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [key])
        return bool(cursor.fetchone()[0])


# --- Presence and counters ---------------------------------------------------


def touch_presence(
    *,
    channel_name: str,
    user_id: int | None,
    session_key: str = "",
    table_id: int | None = None,
    seat: int | None = None,
) -> None:
    """Record (or refresh) a live socket: a lobby socket, or a table socket
    with its table and its player's seat (None for a spectator)."""
    # One INSERT ... ON CONFLICT UPDATE (PostgreSQL and SQLite), not a
    # SELECT then an INSERT or UPDATE in savepoints: sockets connect in bursts.
    Presence.objects.bulk_create(
        [
            Presence(
                channel_name=channel_name,
                user_id=user_id,
                session_key=session_key or "",
                table_id=table_id,
                seat=seat,
                seen_at=timezone.now(),
            )
        ],
        update_conflicts=True,
        unique_fields=["channel_name"],
        update_fields=["user_id", "session_key", "table_id", "seat", "seen_at"],
    )


def drop_presence(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def live_presence() -> QuerySet[Presence]:
    """The rows of sockets believed open (refreshed within PRESENCE_TTL)."""
    return Presence.objects.filter(seen_at__gte=timezone.now() - timedelta(seconds=PRESENCE_TTL))


def keep_table_socket(channel_name: str) -> None:
    """Refresh this table socket's presence with the others of this process
    (``refresh_table_sockets``) until ``forget_table_socket``. Starts the
    process's refresh thread the first time (unless ``PRESENCE_KEEPER`` is
    off: the tests call ``refresh_table_sockets`` themselves)."""
    global _keeper_thread
    with _sockets_lock:
        _table_sockets.add(channel_name)
        if not getattr(settings, "PRESENCE_KEEPER", True):
            return
        if _keeper_thread is None or not _keeper_thread.is_alive():
            _keeper_thread = threading.Thread(target=_keep_table_sockets, name="table-presence", daemon=True)
            _keeper_thread.start()


def forget_table_socket(channel_name: str) -> None:
    with _sockets_lock:
        _table_sockets.discard(channel_name)


def refresh_table_sockets() -> int:
    """Mark every open table socket of this process as seen now; returns how
    many rows were refreshed."""
    with _sockets_lock:
        names = sorted(_table_sockets)
    now = timezone.now()
    refreshed = 0
    for start in range(0, len(names), REFRESH_CHUNK):
        chunk = names[start : start + REFRESH_CHUNK]
        refreshed += Presence.objects.filter(channel_name__in=chunk).update(seen_at=now)
    return refreshed


def _keep_table_sockets() -> None:
    while True:
        time.sleep(PRESENCE_REFRESH)
        close_old_connections()
        try:
            refresh_table_sockets()
        except Exception:
            logger.exception("refreshing the presence of the table sockets failed")
        finally:
            connection.close()


def counts() -> dict[str, Any]:
    """``{"type": "counts", "online": n, "searching": {mode: n}}``: people
    with a live socket (members and guests, each once), and queue sizes."""
    fresh = live_presence()
    members = fresh.filter(user__isnull=False).values("user_id").distinct().count()
    guests = fresh.filter(user__isnull=True).exclude(session_key="").values("session_key").distinct().count()
    anonymous = fresh.filter(user__isnull=True, session_key="").count()
    searching = dict.fromkeys(MODE_KEYS, 0)
    for row in QueueEntry.objects.values("mode").annotate(n=Count("pk")):
        if row["mode"] in searching:
            searching[row["mode"]] = row["n"]
    return {"type": "counts", "online": members + guests + anonymous, "searching": searching}


def broadcast_counts(frame: dict[str, Any] | None = None) -> dict[str, Any]:
    frame = frame or counts()
    layer = get_channel_layer()
    if layer is not None:
        try:
            async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.frame", "frame": frame})
        except Exception:
            logger.exception("could not send the lobby counters")
    return frame


def forget_dead_sockets() -> int:
    deleted, _details = Presence.objects.exclude(pk__in=live_presence().values("pk")).delete()
    return deleted


# --- The tick ----------------------------------------------------------------


def tick() -> dict[str, Any]:
    """One round of every periodic job; each failure is logged, never raised."""
    from accounts import services
    from games import clock, matchmaking

    report: dict[str, Any] = {}
    jobs = (
        ("matched", lambda: len(matchmaking.run_matcher())),
        ("timers", clock.sweep),
        ("rated", services.rate_missed_games),
        ("forgotten", forget_dead_sockets),
        ("counts", broadcast_counts),
    )
    for name, job in jobs:
        try:
            report[name] = job()
        except Exception:
            logger.exception("the periodic job %r failed", name)
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
