"""The only writes of live: the ``Presence`` rows, one per live socket (lobby or
table), refreshed while the socket lives (their reads: ``games.live.presence``).

A lobby socket refreshes its own row every ``PRESENCE_REFRESH`` seconds. Table
sockets are recorded when they open and close, and each server process
refreshes all of its open table sockets in one UPDATE every
``PRESENCE_REFRESH`` seconds (``keep_table_socket``), so that the players of
a process that died count as gone within ``PRESENCE_TTL`` (their grace period
starts, games.live.clock) instead of looking connected for ever.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from games.live.presence import PRESENCE_REFRESH, live_presence
from games.models import Presence

logger = logging.getLogger(__name__)

# Channel names per UPDATE of the table-socket refresh.
REFRESH_CHUNK = 500

_table_sockets: set[str] = set()
_sockets_lock = threading.Lock()
_keeper_thread: threading.Thread | None = None


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


def forget_dead_sockets() -> int:
    """Delete the rows of sockets whose process died without closing them."""
    deleted, _details = Presence.objects.exclude(pk__in=live_presence().values("pk")).delete()
    return deleted


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
