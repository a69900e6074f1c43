"""Reads of the rooms: a member's chips and level, their chip history, the
tables of a room, the payout tables shown before sitting, the weekly
leaderboard of chips won. Nothing here writes."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db import models
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.charts import time_chart
from games.models import Seat
from games.play.selectors import seat_names
from lobby import chips, rooms
from lobby.models import ChipEntry, ChipWallet, QueueEntry, RoomTable

HISTORY_PAGE = 20


@dataclass(frozen=True)
class Standing:
    """A member's chips and level, as every page shows them."""

    chips: int
    xp: int
    progress: rooms.Progress
    topup: int  # chips the daily top-up would give now (0: none)

    @property
    def level(self) -> int:
        return self.progress.level


def standing(user_id: int) -> Standing:
    wallet = ChipWallet.objects.filter(user_id=user_id).first() or ChipWallet(user_id=user_id)
    return Standing(
        chips=wallet.balance, xp=wallet.xp, progress=rooms.progress(wallet.xp), topup=chips.topup_due(wallet)
    )


def history(user_id: int, page: Any) -> Page[ChipEntry]:
    """The member's chip entries, newest first, ``HISTORY_PAGE`` a page.
    (A staff correction's note is shown only to the staff and the member:
    ``notes_visible``.)"""
    entries = ChipEntry.objects.filter(user_id=user_id).select_related("game__table__room")
    return Paginator(entries.order_by("-created_at", "-pk"), HISTORY_PAGE).get_page(page)


# The newest chip entries the profile's charts draw.
PROGRESS_POINTS = 200


@dataclass(frozen=True)
class ChipProgress:
    """A member's chips and level over time: after each of their last chip
    entries (oldest first), the balance and the level its experience reached;
    the two charts' JSON."""

    points: list[tuple[datetime.datetime, int, int]]
    chips_chart: dict[str, Any]
    level_chart: dict[str, Any]

    @property
    def first(self) -> tuple[datetime.datetime, int, int]:
        return self.points[0]

    @property
    def last(self) -> tuple[datetime.datetime, int, int]:
        return self.points[-1]


def chip_progress(user_id: int, *, limit: int = PROGRESS_POINTS) -> ChipProgress | None:
    """The member's chips and level after each of their last ``limit`` chip
    entries (ChipEntry rows: ``balance_after``, the experience added up), or
    None before any entry."""
    rows = list(
        ChipEntry.objects.filter(user_id=user_id)
        .order_by("-created_at", "-pk")
        .values_list("pk", "created_at", "balance_after", "xp")[:limit]
    )
    if not rows:
        return None
    rows.reverse()
    first_pk, first_at = rows[0][0], rows[0][1]
    # The experience of the entries older than the window (same order as above).
    older = ChipEntry.objects.filter(user_id=user_id).filter(
        models.Q(created_at__lt=first_at) | models.Q(created_at=first_at, pk__lt=first_pk)
    )
    xp = int(older.aggregate(total=Sum("xp"))["total"] or 0)
    points = []
    for _pk, moment, balance, gained in rows:
        xp += gained
        points.append((moment, int(balance or 0), rooms.level_for(xp)))
    times = [moment for moment, _balance, _level in points]
    return ChipProgress(
        points=points,
        chips_chart=time_chart(times, [(_("Chips"), [p[1] for p in points], "line")], y_label=_("Chips")),
        level_chart=time_chart(times, [(_("Level"), [p[2] for p in points], "steps")], y_label=_("Level")),
    )


def notes_visible(viewer: Any, member_id: int) -> bool:
    """Whether ``viewer`` may read the staff's notes in ``member_id``'s chip
    history: the member themself and the staff only (a correction's reason
    may name an abuse, another account, a complaint)."""
    if viewer is None or not viewer.is_authenticated:
        return False
    return bool(viewer.pk == member_id or viewer.is_staff)


@dataclass(frozen=True)
class PayoutRow:
    kind: rooms.GameKind
    places: list[tuple[int, int, int]]  # (place, chips, net)
    fee: int
    xp: list[int]  # per place, for each round played


def payout_rows(room: rooms.Room) -> list[PayoutRow]:
    """The room's payout table, per kind of game, as the room page shows it."""
    rows = []
    for kind in rooms.KINDS.values():
        places = [
            (index + 1, paid, net)
            for index, (paid, net) in enumerate(zip(room.payouts(kind.key), room.net(kind.key), strict=True))
        ]
        xp = [rooms.xp_for(kind.key, place) for place in range(1, len(kind.xp) + 1)]
        rows.append(PayoutRow(kind=kind, places=places, fee=room.fee(kind.key), xp=xp))
    return rows


@dataclass(frozen=True)
class RoomTableRow:
    table_id: int
    kind: rooms.GameKind
    target: int
    length: rooms.Length
    players: list[str]
    open_seats: int
    mine: bool


def room_tables(room: str, *, status: str, viewer_id: int | None, limit: int = 30) -> list[RoomTableRow]:
    """Tables of ``room`` waiting for players (``status`` "waiting") or being
    played ("playing"), newest first."""
    tables = list(
        RoomTable.objects.filter(room=room, table__status=status).order_by("-table__created_at")[:limit]
    )
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table_id__in=[t.pk for t in tables]).order_by("number"):
        seats.setdefault(seat.table_id, []).append(seat)
    rows = []
    for room_table in tables:
        table_seats = seats.get(room_table.pk, [])
        names = seat_names(table_seats)
        rows.append(
            RoomTableRow(
                table_id=room_table.pk,
                kind=rooms.KINDS[room_table.kind],
                target=room_table.target,
                length=rooms.LENGTHS[room_table.target],
                players=[names[seat.number] for seat in table_seats if seat.kind != "open"],
                open_seats=sum(1 for seat in table_seats if seat.kind == "open"),
                mine=viewer_id is not None and any(seat.user_id == viewer_id for seat in table_seats),
            )
        )
    return rows


def room_of_table(table_id: int) -> RoomTable | None:
    return RoomTable.objects.filter(pk=table_id).first()


def queued_room(user_id: int) -> tuple[str, str]:
    """(room, mode) the member is queued for in a room, or ("", "")."""
    entry = QueueEntry.objects.filter(user_id=user_id).exclude(room="").first()
    return (entry.room, entry.mode) if entry else ("", "")


def week_start(now: datetime.datetime | None = None) -> datetime.datetime:
    """Monday 00:00 UTC of the current week."""
    now = now or timezone.now()
    monday = (now - datetime.timedelta(days=now.weekday())).date()
    return datetime.datetime.combine(monday, datetime.time(0, 0), tzinfo=datetime.UTC)


@dataclass(frozen=True)
class Winner:
    username: str
    won: int


def weekly_winners(*, limit: int = 20, now: datetime.datetime | None = None) -> list[Winner]:
    """Members by chips won this week (payouts and returns minus stakes of the
    room games settled since Monday), best first; only those ahead."""
    rows = (
        ChipEntry.objects.filter(
            user__isnull=False,
            user__is_active=True,  # a closed account is never named
            reason__in=[
                ChipEntry.Reason.STAKE,
                ChipEntry.Reason.RELEASE,
                ChipEntry.Reason.PAYOUT,
                ChipEntry.Reason.REFUND,
                ChipEntry.Reason.CAPPED,
            ],
            game__table__room__settled_at__gte=week_start(now),
        )
        .values("user_id")
        .annotate(won=Sum("amount"))
        .filter(won__gt=0)
        .order_by("-won", "user_id")[:limit]
    )
    names = dict(
        get_user_model().objects.filter(pk__in=[row["user_id"] for row in rows]).values_list("pk", "username")
    )
    return [Winner(username=names[row["user_id"]], won=row["won"]) for row in rows]


@dataclass(frozen=True)
class SeatResult:
    """A player of a room table: their level now, and once the table is
    settled, what the game paid them."""

    seat: int
    name: str
    username: str
    level: int
    paid: int | None  # chips paid back (stake included); None until settled
    net: int | None
    xp: int | None
    place: int | None


def seat_results(room_table: RoomTable) -> list[SeatResult]:
    """Each seat of a room table with its player's level and, once settled,
    the payout, its net and the experience earned."""
    seats = list(Seat.objects.filter(table_id=room_table.pk).select_related("user").order_by("number"))
    names = seat_names(seats)
    user_ids = [seat.user_id for seat in seats if seat.user_id is not None]
    xp = dict(ChipWallet.objects.filter(user_id__in=user_ids).values_list("user_id", "xp"))
    paid: dict[int, ChipEntry] = {}
    returned: dict[int, int] = {}  # chips that a cap on new accounts' losses gave back
    if room_table.settled_at is not None:
        for row in ChipEntry.objects.filter(
            game__table_id=room_table.pk,
            user_id__in=user_ids,
            reason__in=[ChipEntry.Reason.PAYOUT, ChipEntry.Reason.REFUND, ChipEntry.Reason.CAPPED],
        ):
            if row.user_id is None:
                continue
            if row.reason == ChipEntry.Reason.CAPPED:
                returned[row.user_id] = row.amount
            else:
                paid[row.user_id] = row
    results = []
    for seat in seats:
        entry: ChipEntry | None = paid.get(seat.user_id) if seat.user_id is not None else None
        back = returned.get(seat.user_id, 0) if seat.user_id is not None else 0
        results.append(
            SeatResult(
                seat=seat.number,
                name=names[seat.number],
                # A closed account's seat has lost its name: no link to it.
                username=seat.user.get_username() if seat.user is not None and seat.name else "",
                level=rooms.level_for(xp.get(seat.user_id, 0)) if seat.user_id is not None else 0,
                paid=None if entry is None else entry.amount + back,
                net=None if entry is None else entry.amount + back - room_table.stake,
                xp=None if entry is None else entry.xp,
                place=None if entry is None else entry.detail.get("place"),
            )
        )
    return results


def result_fields(result: SeatResult) -> dict[str, Any]:
    """A seat's result as the status JSON and the ``settlement`` frame show
    it (without the name: the frame is the same for every viewer, whatever
    their language)."""
    return {
        "seat": result.seat,
        "level": result.level,
        "paid": result.paid,
        "net": result.net,
        "xp": result.xp,
        "place": result.place,
    }


def settlement_frame(room_table: RoomTable) -> dict[str, Any]:
    """``{"type": "settlement", "table": id, "outcome": ..., "results": [...]}``:
    what a settled room game paid each seat, for the table's sockets
    (docs/protocol.md, "Notices")."""
    return {
        "type": "settlement",
        "table": room_table.pk,
        "outcome": room_table.outcome,
        "results": [result_fields(result) for result in seat_results(room_table)],
    }
