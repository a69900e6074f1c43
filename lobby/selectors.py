"""Reads of the lobby: the live counters, live tables to watch, a member's
ranked table and invitations. Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from accounts.selectors import ratings_in_mode
from games.live.presence import live_presence
from games.models import Game, Seat, Table
from games.play.modes import MODE_KEYS, RANKED_MODES
from games.play.selectors import current_table, game_state, seat_names
from lobby import hooks, rooms
from lobby.models import ChipEntry, ChipWallet, Invitation, QueueEntry, RoomTable


def counts() -> dict[str, Any]:
    """``{"type": "counts", "online": n, "searching": {mode: n}}``: people
    with a live socket (members and guests, each once), and queue sizes."""
    fresh = live_presence()
    members = fresh.filter(user__isnull=False).values("user_id").distinct().count()
    guests = fresh.filter(user__isnull=True).exclude(session_key="").values("session_key").distinct().count()
    anonymous = fresh.filter(user__isnull=True, session_key="").count()
    searching = dict.fromkeys(MODE_KEYS, 0)
    for row in QueueEntry.objects.filter(room="").values("mode").annotate(n=Count("pk")):
        if row["mode"] in searching:
            searching[row["mode"]] = row["n"]
    return {"type": "counts", "online": members + guests + anonymous, "searching": searching}


def queued_mode(user: User) -> str:
    """The ranked mode the member is queued for, or ""."""
    return QueueEntry.objects.filter(user=user, room="").values_list("mode", flat=True).first() or ""


def live_ranked_table(user_id: int) -> Table | None:
    """The member's ranked table still being played, if any."""
    return (
        Table.objects.filter(
            kind=Table.Kind.RANKED,
            status__in=[Table.Status.WAITING, Table.Status.PLAYING],
            seats__user_id=user_id,
        )
        .order_by("-created_at")
        .first()
    )


def table_to_resume(user_id: int) -> Table | None:
    """The table a member opening the lobby is sent back to (the ``matched``
    frame with ``"resume": true``): their ranked table still being played, or
    their room game being played (a room table still waiting for players is
    not a game yet: they may browse the rooms while it waits). Private and
    computer tables are left out: nothing ends a game against computers that
    its player abandoned, so it would send them back to it for ever; but the
    apps above may name one whose end is sure (``hooks.resumable_table``: a
    tournament's table). The newest of these."""
    found = (
        Table.objects.filter(seats__user_id=user_id)
        .filter(
            Q(kind=Table.Kind.RANKED, status__in=[Table.Status.WAITING, Table.Status.PLAYING])
            | Q(kind=Table.Kind.ROOM, status=Table.Status.PLAYING)
        )
        .order_by("-created_at")
        .first()
    )
    tables = [found] if found is not None else []
    for _receiver, table in hooks.resumable_table.send(sender=None, user_id=user_id):
        if isinstance(table, Table):
            tables.append(table)
    return max(tables, key=lambda table: (table.created_at, table.pk), default=None)


def table_address(table: Table) -> str:
    """Where a member finds their table: a private or room table still
    waiting for players has its waiting page in the lobby; else the table page."""
    if table.status == Table.Status.WAITING and table.kind == Table.Kind.ROOM:
        return reverse("lobby:room_table", args=[table.pk])
    if table.status == Table.Status.WAITING and table.kind == Table.Kind.PRIVATE:
        return reverse("lobby:private_table", args=[table.pk])
    return reverse("games:table", args=[table.pk])


def game_in_progress(user_id: int) -> Table | None:
    """The table that keeps a member from queueing or sitting elsewhere (one
    game at a time, games.play.services.seats): their seat at a live table with
    other people or open seats (a room or private table waiting for players
    too), or the game ``table_to_resume`` would send them back to."""
    return current_table(user_id) or table_to_resume(user_id)


def matched_frame(table: Table) -> dict[str, Any]:
    """The ``matched`` frame of ``table``, with what the apps above add to it
    (``lobby.hooks.matched_frame_parts``: a tournament's table names its tournament)."""
    frame: dict[str, Any] = {
        "type": "matched",
        "table": table.pk,
        "url": reverse("games:table", args=[table.pk]),
        "mode": table.mode,
    }
    for _receiver, part in hooks.matched_frame_parts.send(sender=None, table=table):
        if isinstance(part, dict):
            frame.update(part)
    return frame


def resume_frame(user_id: int) -> dict[str, Any] | None:
    """The frame the lobby socket sends a member on connect: the ``matched``
    frame of ``table_to_resume`` with ``"resume": true``, or None."""
    table = table_to_resume(user_id)
    return None if table is None else {**matched_frame(table), "resume": True}


@dataclass(frozen=True)
class LiveTable:
    table_id: int
    kind: str
    label: str
    players: list[str]
    spectators: int
    started_at: datetime | None
    # Public facts for the list's small preview: the line (its last tiles) and the scores.
    line: list[list[int]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    # By seat, as ``players``: the seats of bot accounts (their names are marked).
    bots: list[bool] = field(default_factory=list)

    @property
    def seats(self) -> list[tuple[str, bool]]:
        """Each player's name and whether a bot account plays it, in seat order."""
        return list(zip(self.players, self.bots or [False] * len(self.players), strict=True))


def live_tables(*, limit: int = 50) -> list[LiveTable]:
    """Public tables being played, ranked first, newest first: anyone may
    watch them (spectators see only public information)."""
    # A table nobody plays any more (a guest closed the page against the
    # computer: no clock ends it) is not live: no move for a while and no
    # socket of a seated player.
    idle = timedelta(seconds=getattr(settings, "LIVE_TABLE_IDLE_SECONDS", 600))
    seated = live_presence().filter(seat__isnull=False).values("table_id")
    tables = list(
        Table.objects.filter(status=Table.Status.PLAYING, public=True)
        .filter(Q(game__updated_at__gte=timezone.now() - idle) | Q(pk__in=seated))
        .select_related("game")
        .order_by("-created_at")[: limit * 2]
    )
    tables.sort(key=lambda t: (t.kind != Table.Kind.RANKED, -t.pk))
    tables = tables[:limit]
    ids = [table.pk for table in tables]
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table_id__in=ids).select_related("user").order_by("number"):
        seats.setdefault(seat.table_id, []).append(seat)
    watchers = dict(
        live_presence()
        .filter(table_id__in=ids, seat__isnull=True)
        .values("table_id")
        .annotate(n=Count("pk"))
        .values_list("table_id", "n")
    )
    result = []
    for table in tables:
        mode = RANKED_MODES.get(table.mode)
        game = getattr(table, "game", None)
        names = seat_names(seats.get(table.pk, []))
        if mode is not None:  # ranked: each name with the player's rating in the mode
            members = {seat.number: seat.user_id for seat in seats.get(table.pk, []) if seat.user_id is not None}
            shown = ratings_in_mode(list(members.values()), mode.key)
            for number, user_id in members.items():
                rating, provisional = shown[user_id]
                names[number] = f"{names[number]} ({rating}{'?' if provisional else ''})"
        result.append(
            LiveTable(
                table_id=table.pk,
                kind=table.kind,
                label=str(mode.label) if mode else str(table.get_kind_display()),
                players=list(names.values()),
                bots=[seat.bot for seat in seats.get(table.pk, [])],
                **_preview(game),
                spectators=watchers.get(table.pk, 0),
                started_at=None if game is None else game.started_at,
            )
        )
    return result


PREVIEW_TILES = 9
"""The live list shows the last tiles of each line (a small board preview)."""


def _preview(game: Game | None) -> dict[str, list[Any]]:
    """The line and the scores of a game being played: public facts only."""
    state = None if game is None else game_state(game)
    if state is None:
        return {"line": [], "scores": []}
    return {"line": [list(pair) for _tile, pair in state.line][-PREVIEW_TILES:], "scores": list(state.scores)}


def pending_invitations(user: User) -> QuerySet[Invitation]:
    """Invitations to private tables that still wait for players."""
    return (
        Invitation.objects.filter(to_user=user, table__status=Table.Status.WAITING)
        .select_related("from_user", "table")
        .order_by("-created_at")
    )


def member_data(user_id: int) -> dict[str, Any]:
    """What the lobby keeps about a member, for their data file
    (``/account/export/``, through ``accounts.hooks.export_parts``): chips,
    level and experience, the chip ledger, the room tables they sat at, their
    place in a queue, the invitations they sent and received."""
    wallet = ChipWallet.objects.filter(user_id=user_id).first() or ChipWallet(user_id=user_id)
    progress = rooms.progress(wallet.xp)
    entry = QueueEntry.objects.filter(user_id=user_id).first()
    invitations = Invitation.objects.filter(Q(from_user_id=user_id) | Q(to_user_id=user_id)).select_related(
        "from_user", "to_user"
    )
    return {
        "chips": {
            "balance": wallet.balance,
            "xp": wallet.xp,
            "level": progress.level,
            "xp_to_next_level": progress.to_next,
            "topped_up_on": wallet.topped_up_on,
        },
        "chip_ledger": [
            {
                "at": row.created_at,
                "amount": row.amount,
                "xp": row.xp,
                "reason": row.reason,
                "table": row.game.table_id if row.game is not None else None,
                "balance_after": row.balance_after,
                "note": row.note,
                "detail": row.detail,
            }
            for row in ChipEntry.objects.filter(user_id=user_id).select_related("game").order_by("created_at", "pk")
        ],
        "room_tables": [
            {
                "table": row.table_id,
                "room": row.room,
                "kind": row.kind,
                "target": row.target,
                "stake": row.stake,
                "settled_at": row.settled_at,
                "outcome": row.outcome,
            }
            for row in RoomTable.objects.filter(table__seats__user_id=user_id).distinct().order_by("table_id")
        ],
        "queue": None
        if entry is None
        else {"mode": entry.mode, "room": entry.room, "rating": entry.rating, "joined_at": entry.joined_at},
        "invitations": [_invitation_data(row, user_id) for row in invitations.order_by("created_at", "pk")],
    }


def _invitation_data(row: Invitation, user_id: int) -> dict[str, Any]:
    sent = row.from_user_id == user_id
    other = row.to_user if sent else row.from_user
    return {
        "table": row.table_id,
        "direction": "sent" if sent else "received",
        "member": other.get_username() if other.is_active else "",
        "created_at": row.created_at,
    }
