"""How many tables one visitor may open, and the client's address.

One guest opened 20 tables in 3 seconds: each is listed on the live page and
each holds a hint budget. New tables (against the computer, private ones, room
tables opened from a room page, and rematches: the ask that makes the new
table counts for its asker) are limited per visitor (a member by account, a guest by session) and per client
address (a guest who drops their cookies is still one address), in a window
of ``TABLE_LIMIT_WINDOW`` seconds: ``TABLES_PER_VISITOR`` and
``TABLES_PER_ADDRESS`` (several people may share one address).

Two fixed-window counters on the cache the site already has (Redis in
production, shared by every process); a rate-limiting package would bring a
dependency for the same two counters.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext as _


def client_ip(request: HttpRequest) -> str:
    """The client's address: the ``X-Forwarded-For`` entry written by the
    last of ``TRUSTED_PROXY_COUNT`` proxies (never one the client wrote),
    else the connection's address."""
    count = int(settings.TRUSTED_PROXY_COUNT)
    forwarded = request.headers.get("x-forwarded-for", "")
    if count > 0 and forwarded:
        entries = [entry.strip() for entry in forwarded.split(",")]
        if len(entries) >= count:
            return entries[-count]
    return str(request.META.get("REMOTE_ADDR", ""))


def visitor_id(*, user_id: int | None, session_key: str | None) -> str:
    """The one name of a visitor across the site's counters: "user:<id>" for a
    member (every device), "guest:<session key>" for a guest."""
    if user_id is not None:
        return f"user:{user_id}"
    return f"guest:{session_key or ''}"


def visitor_key(request: HttpRequest) -> str:
    user_id = request.user.pk if request.user.is_authenticated else None
    return visitor_id(user_id=user_id, session_key=request.session.session_key)


def _within(key: str, limit: int, window: int) -> bool:
    cache.add(key, 0, timeout=window)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, timeout=window)
        count = 1
    return count <= limit


def too_many_tables() -> str:
    """What a visitor over the limit is told."""
    return _("You have opened many tables in a short time: finish one, or wait a few minutes.")


def allow_new_table(request: HttpRequest) -> bool:
    """Count one new table for this visitor and address; False (nothing to
    create) when either is over its limit."""
    window = int(settings.TABLE_LIMIT_WINDOW)
    per_visitor = int(settings.TABLES_PER_VISITOR)
    per_address = int(settings.TABLES_PER_ADDRESS)
    visitor_ok = _within(f"games:new-tables:{visitor_key(request)}", per_visitor, window)
    address_ok = _within(f"games:new-tables:ip:{client_ip(request)}", per_address, window)
    return visitor_ok and address_ok
