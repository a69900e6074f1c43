"""The cache handle of this process, one for every socket and thread.

Django keeps a cache handle per thread and, under ASGI, per async context.
Every websocket runs in a context of its own, and so does the database
thread's work done on its behalf: ``django.core.cache.cache`` used by a socket
builds a handle for that socket and, with Redis, a connection pool and a
connection that stay open as long as the socket does. Measured with the
benchmark (docs/performance.md): 600 sockets held 603 Redis connections, and
their objects lengthened every full garbage collection of the server.

The backends are safe to share between threads (redis-py's connection pool;
LocMemCache's lock), so the table sockets and what they call use this one
handle instead: ``from games.live.cache import cache``. HTTP views keep Django's
(closed at the end of each request). A change of ``CACHES`` (tests) makes a
new handle.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.signals import setting_changed
from django.dispatch import receiver

_handle: BaseCache | None = None
_lock = threading.Lock()


def shared() -> BaseCache:
    """The process's handle on the default cache (made on first use)."""
    global _handle
    handle = _handle
    if handle is None:
        with _lock:
            if _handle is None:
                _handle = caches.create_connection(DEFAULT_CACHE_ALIAS)
            handle = _handle
    return handle


class _SharedCache:
    """``cache.get(...)``, ``await cache.aincr(...)``...: the shared handle's."""

    def __getattr__(self, name: str) -> Any:
        return getattr(shared(), name)


cache: Any = _SharedCache()


@receiver(setting_changed)
def _forget_on_new_caches(*, setting: str, **kwargs: Any) -> None:
    global _handle
    if setting == "CACHES":
        with _lock:
            if _handle is not None:
                _handle.close()
            _handle = None
