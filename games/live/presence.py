"""Who is connected: one ``Presence`` row per live socket (lobby or table),
refreshed while the socket lives (the writes: ``games.live.services``). A row
not refreshed within ``PRESENCE_TTL`` is a socket whose process died: its
player counts as gone (their grace period starts, games.live.clock). Reads only.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from games.models import Presence

PRESENCE_REFRESH = 20
PRESENCE_TTL = 60


def live_presence() -> QuerySet[Presence]:
    """The rows of sockets believed open (refreshed within PRESENCE_TTL)."""
    return Presence.objects.filter(seen_at__gte=timezone.now() - timedelta(seconds=PRESENCE_TTL))
