"""Matchmaking: who plays whom.

``pair_tickets`` is pure: from the players waiting in one mode's queue it forms
groups of close ratings, the accepted spread widening with waiting time.
``run_matcher`` wraps it: it reads the queue (``accounts.QueueEntry``, in the
database, shared by every server process) under a lock that keeps one matcher
at a time, seats each group with ``create_table(kind="ranked")`` and, after the
commit, sends each player ``{"type": "matched", ...}`` on their lobby group.
It runs from the periodic tick (Celery beat, or the in-process loop of the
embedded mode) and right after a member joins a queue.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.modes import RANKED_MODES, RankedMode

logger = logging.getLogger(__name__)

# The accepted rating spread (display points) of a group: WINDOW_START for a
# player who just joined, growing by WINDOW_GROWTH per second of waiting, so
# that after a minute almost anyone is paired rather than left waiting.
WINDOW_START = 100.0
WINDOW_GROWTH = 15.0


@dataclass(frozen=True, slots=True)
class Ticket:
    """One player waiting in a queue: ``rating`` on the display scale,
    ``waited`` in seconds."""

    user_id: int
    rating: float
    waited: float


def rating_window(waited: float) -> float:
    """The spread of ratings a player accepts after ``waited`` seconds."""
    return WINDOW_START + WINDOW_GROWTH * max(waited, 0.0)


def _spread(group: Sequence[Ticket]) -> float:
    ratings = [ticket.rating for ticket in group]
    return max(ratings) - min(ratings)


def _acceptable(group: Sequence[Ticket]) -> bool:
    # Every member must accept the spread: the newest sets the tightest window.
    return _spread(group) <= min(rating_window(ticket.waited) for ticket in group)


def pair_tickets(tickets: Iterable[Ticket], size: int) -> list[tuple[Ticket, ...]]:
    """Groups of ``size`` players of close ratings; each player in one group at most.

    The longest-waiting players are served first: each picks, among the
    unmatched players, the run of ``size`` neighbours in rating order around
    them with the smallest spread, kept if every member's window accepts it.
    A player with several tickets counts once (never paired with themself).
    """
    if size < 2:
        raise ValueError("a game needs at least two players")
    unique: dict[int, Ticket] = {}
    for ticket in tickets:
        kept = unique.get(ticket.user_id)
        if kept is None or ticket.waited > kept.waited:
            unique[ticket.user_id] = ticket
    by_rating = sorted(unique.values(), key=lambda t: (t.rating, -t.waited, t.user_id))
    by_wait = sorted(unique.values(), key=lambda t: (-t.waited, t.user_id))
    matched: set[int] = set()
    groups: list[tuple[Ticket, ...]] = []
    for anchor in by_wait:
        if anchor.user_id in matched:
            continue
        free = [t for t in by_rating if t.user_id not in matched]
        if len(free) < size:
            break
        index = free.index(anchor)
        best: tuple[Ticket, ...] | None = None
        for start in range(max(0, index - size + 1), min(index, len(free) - size) + 1):
            group = tuple(free[start : start + size])
            if best is None or _spread(group) < _spread(best):
                best = group
        if best is not None and _acceptable(best):
            groups.append(best)
            matched.update(ticket.user_id for ticket in best)
    return groups


def seat_order(group: Sequence[Ticket], *, teams: bool, rng: random.Random) -> list[Ticket]:
    """The group in seat order. With pairs (seats 0+2 against 1+3) the teams
    are balanced: the strongest and the weakest against the two middle ones.
    Otherwise the seats are drawn at random."""
    if teams:
        if len(group) != 4:
            raise ValueError("pairs need four players")
        strong, second, third, weak = sorted(group, key=lambda t: -t.rating)
        pair_a, pair_b = [strong, weak], [second, third]
        if rng.random() < 0.5:
            pair_a, pair_b = pair_b, pair_a
        return [pair_a[0], pair_b[0], pair_a[1], pair_b[1]]
    seats = list(group)
    rng.shuffle(seats)
    return seats


# --- The queue and the matcher (database) ----------------------------------


def join_queue(*, user: Any, mode: str, channel_name: str = "") -> Any:
    """Put ``user`` in the queue of ``mode`` (moving them from any other
    queue), with their current rating in that mode."""
    from accounts.models import QueueEntry
    from accounts.selectors import display_rating_of

    if mode not in RANKED_MODES:
        raise ValueError(f"unknown ranked mode {mode!r}")
    entry, _created = QueueEntry.objects.update_or_create(
        user=user,
        defaults={
            "mode": mode,
            "rating": display_rating_of(user, mode),
            "channel_name": channel_name,
            "joined_at": timezone.now(),
        },
    )
    return entry


def leave_queue(*, user_id: int, channel_name: str | None = None) -> bool:
    """Take the member out of the queue at once. With ``channel_name`` only if
    that socket queued them (another tab's disconnect keeps them queued)."""
    from accounts.models import QueueEntry

    entries = QueueEntry.objects.filter(user_id=user_id)
    if channel_name is not None:
        entries = entries.filter(channel_name=channel_name)
    deleted, _details = entries.delete()
    return deleted > 0


def live_ranked_table(user_id: int) -> Any:
    """The member's ranked table still being played, if any."""
    from games.models import Table

    return (
        Table.objects.filter(
            kind=Table.Kind.RANKED,
            status__in=[Table.Status.WAITING, Table.Status.PLAYING],
            seats__user_id=user_id,
        )
        .order_by("-created_at")
        .first()
    )


def user_group(user_id: int) -> str:
    """The channel group of one member's lobby sockets."""
    return f"lobby.user.{user_id}"


def matched_frame(table: Any) -> dict[str, Any]:
    return {"type": "matched", "table": table.pk, "url": f"/table/{table.pk}/", "mode": table.mode}


def run_matcher(*, now: datetime | None = None) -> list[Any]:
    """Pair the waiting players of every ranked mode; returns the new tables.
    Only one matcher runs at a time (a lock per mode, skipped by the
    others; SQLite serialises writers anyway)."""
    tables = []
    for mode in RANKED_MODES.values():
        tables.extend(_match_mode(mode, now=now))
    return tables


def _match_mode(mode: RankedMode, *, now: datetime | None) -> list[Any]:
    from accounts.models import QueueEntry
    from accounts.periodic import try_lock
    from games.models import Table
    from games.services import SeatSpec, create_table

    tables: list[Any] = []
    with transaction.atomic():
        if not try_lock(f"matcher:{mode.key}"):
            return tables
        entries = {
            entry.user_id: entry
            for entry in QueueEntry.objects.select_for_update().filter(mode=mode.key).select_related("user")
        }
        if len(entries) < mode.players:
            return tables
        moment = now or timezone.now()
        tickets = [
            Ticket(entry.user_id, entry.rating, (moment - entry.joined_at).total_seconds())
            for entry in entries.values()
        ]
        rng = random.SystemRandom()
        for group in pair_tickets(tickets, mode.players):
            users = [entries[ticket.user_id].user for ticket in seat_order(group, teams=mode.teams, rng=rng)]
            QueueEntry.objects.filter(user_id__in=[user.pk for user in users]).delete()
            table = create_table(
                kind=Table.Kind.RANKED,
                rules=mode.rules,
                preset=mode.preset,
                seats=[SeatSpec(user=user) for user in users],
                public=True,
                mode=mode.key,
            )
            tables.append(table)
            frame = matched_frame(table)
            user_ids = [user.pk for user in users]
            transaction.on_commit(lambda frame=frame, user_ids=user_ids: _announce_match(frame, user_ids))
    if tables:
        logger.info("matched %d %s table(s)", len(tables), mode.key)
    return tables


def _announce_match(frame: dict[str, Any], user_ids: list[int]) -> None:
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        for user_id in user_ids:
            await layer.group_send(user_group(user_id), {"type": "lobby.frame", "frame": frame})

    try:
        async_to_sync(send)()
    except Exception:
        # The players' lobby sockets also hear of their table when they reconnect.
        logger.exception("could not announce table %s", frame["table"])
