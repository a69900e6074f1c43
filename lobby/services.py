"""Writes of the lobby: the ranked queue and its matcher, invitations to
private tables. (Private tables' seats: lobby.private.)

``run_matcher`` reads the queue (``QueueEntry``, in the database, shared by
every server process) under a lock that keeps one matcher per mode at a time,
pairs the players with the pure ``lobby.matchmaking``, seats each group with
``games.play.services.create_table(kind="ranked")`` and, after the commit, sends
each player ``{"type": "matched", ...}`` on their lobby group. It runs from
the periodic tick (lobby.periodic) and right after a member joins a queue.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime
from functools import partial

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import are_friends, display_rating_of, is_bot
from community.selectors import block_pairs, has_blocked
from games.models import Table
from games.play.locks import try_lock
from games.play.modes import RANKED_MODES, RankedMode
from games.play.selectors import current_tables
from games.play.services import InGame, SeatSpec, create_table
from lobby import broadcast, private, room_tables, selectors
from lobby.matchmaking import Ticket, pair_tickets, seat_order
from lobby.models import Invitation, QueueEntry, RoomTable

logger = logging.getLogger(__name__)


class QueueRefused(ValueError):
    """A member who may not join the people's queues (a bot account: docs/api.md)."""


def refuse_bots(user: User) -> None:
    """Bots never enter the people's ranked queues (``QueueRefused``)."""
    if is_bot(user.pk):
        raise QueueRefused(_("Bot accounts do not play in the ranked queues."))


class InvitationError(ValueError):
    """An invitation that cannot be sent (message for the user)."""


# --- The ranked queue -----------------------------------------------------------


def join_queue(*, user: User, mode: str, channel_name: str = "") -> QueueEntry:
    """Put ``user`` in the queue of ``mode`` (moving them from any other
    queue), with their current rating in that mode; refused with
    ``room_tables.QueueBanned`` while they are kept out for leaving games."""
    if mode not in RANKED_MODES:
        raise ValueError(f"unknown ranked mode {mode!r}")
    refuse_bots(user)
    # Fair conduct: a member who left games lately waits (room_tables.QueueBanned).
    room_tables.check_queue_ban(user_id=user.pk)
    entry, _created = QueueEntry.objects.update_or_create(
        user=user,
        defaults={
            "mode": mode,
            "room": "",
            "rating": display_rating_of(user, mode),
            "channel_name": channel_name,
            "joined_at": timezone.now(),
        },
    )
    return entry


def leave_queue(*, user_id: int, channel_name: str | None = None) -> bool:
    """Take the member out of the queue at once. With ``channel_name`` only if
    that socket queued them (another tab's disconnect keeps them queued)."""
    entries = QueueEntry.objects.filter(user_id=user_id)
    if channel_name is not None:
        entries = entries.filter(channel_name=channel_name)
    deleted, _details = entries.delete()
    return deleted > 0


def run_matcher(*, now: datetime | None = None) -> list[Table]:
    """Pair the waiting players of every ranked mode; returns the new tables.
    Only one matcher runs at a time (a lock per mode, skipped by the
    others; SQLite serialises writers anyway)."""
    tables = []
    for mode in RANKED_MODES.values():
        tables.extend(_match_mode(mode, now=now))
    return tables


def _match_mode(mode: RankedMode, *, now: datetime | None) -> list[Table]:
    tables: list[Table] = []
    with transaction.atomic():
        if not try_lock(f"matcher:{mode.key}"):
            return tables
        entries = {
            entry.user_id: entry
            for entry in QueueEntry.objects.select_for_update().filter(mode=mode.key, room="").select_related("user")
        }
        # Whoever sat at a table meanwhile (one game at a time) leaves the queue.
        for user_id in current_tables(entries):
            entries.pop(user_id).delete()
        if len(entries) < mode.players:
            return tables
        moment = now or timezone.now()
        tickets = [
            Ticket(entry.user_id, entry.rating, (moment - entry.joined_at).total_seconds())
            for entry in entries.values()
        ]
        rng = random.SystemRandom()
        # Members who blocked one another are kept apart while others wait.
        avoid = block_pairs(entries)
        for group in pair_tickets(tickets, mode.players, avoid=avoid):
            users = [entries[ticket.user_id].user for ticket in seat_order(group, teams=mode.teams, rng=rng)]
            try:
                with transaction.atomic():
                    QueueEntry.objects.filter(user_id__in=[user.pk for user in users]).delete()
                    table = create_table(
                        kind=Table.Kind.RANKED,
                        rules=mode.rules,
                        preset=mode.preset,
                        seats=[SeatSpec(user=user) for user in users],
                        public=True,
                        mode=mode.key,
                    )
            except InGame as error:
                # Seated elsewhere since the check: they leave the queue, the others wait on.
                QueueEntry.objects.filter(user_id=error.user_id).delete()
                continue
            tables.append(table)
            frame = selectors.matched_frame(table)
            user_ids = [user.pk for user in users]
            transaction.on_commit(partial(broadcast.send_to_users, user_ids, frame))
    if tables:
        logger.info("matched %d %s table(s)", len(tables), mode.key)
    return tables


def broadcast_counts() -> dict[str, object]:
    """Send the live counters to every lobby socket; returns the frame."""
    frame = selectors.counts()
    broadcast.send_to_lobby(frame)
    return frame


def forget_member(*, user_id: int) -> None:
    """A member closes their account (accounts.hooks.account_closing): out of
    every queue, their invitations (sent and received) withdrawn, and any of
    their room tables that ended unsettled settled now. Their chips and
    ledger stay (play money: nothing is paid out)."""
    leave_queue(user_id=user_id)
    Invitation.objects.filter(Q(from_user_id=user_id) | Q(to_user_id=user_id)).delete()
    unsettled = RoomTable.objects.filter(
        table__seats__user_id=user_id,
        settled_at__isnull=True,
        table__status__in=[Table.Status.FINISHED, Table.Status.ABORTED],
    ).values_list("pk", flat=True)
    for table_id in list(unsettled):
        room_tables.settle(table_id=table_id)


# --- Invitations to private tables ---------------------------------------------


def invite_friend(*, table: Table, from_user: User, friend_id: int) -> Invitation | None:
    """Invite a friend to one's waiting private table; they hear of it at once
    on their lobby socket (``{"type": "invited", ...}``) and on their friends page.
    A friend who blocked the inviter never gets it, and the inviter is not
    told (None: the page says "sent" all the same)."""
    friend = get_user_model().objects.filter(pk=friend_id).first()
    if friend is None or not are_friends(from_user, friend):
        raise InvitationError(_("You can invite only your friends."))
    if table.created_by_id != from_user.pk or table.status != Table.Status.WAITING:
        raise InvitationError(_("This table no longer takes players."))
    if has_blocked(friend.pk, from_user.pk):
        return None
    invitation, _created = Invitation.objects.get_or_create(
        table=table, to_user=friend, defaults={"from_user": from_user}
    )
    frame = {
        "type": "invited",
        "table": table.pk,
        "from": from_user.get_username(),
        "url": reverse("lobby:private_join", args=[private.invite_token(table)]),
    }
    friend_id = friend.pk
    transaction.on_commit(lambda: broadcast.send_to_users([friend_id], frame))
    return invitation
