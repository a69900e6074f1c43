"""Rematch after a game: the same seats and settings, a new deal.

Every person seated asks (``offer_rematch``); when the last one does, the
new table is created and started (a ranked table's rematch is an unranked
private table: a rated game is found by the matcher, docs/members.md) (against the computer alone: at once, the
computers always agree). Each request and the new table are announced to the
old table's sockets as a ``rematch`` notice (docs/protocol.md), so that the
pages of those who asked first go to the new table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from games.live import broadcast
from games.models import Game, Seat, Table
from games.play import limits, selectors
from games.play.services.errors import NotAllowed, NotSeated, TooManyTables
from games.play.services.tables import SeatSpec, create_table


@dataclass(frozen=True)
class Rematch:
    asked: list[int]  # the seats of the people who asked, so far
    waiting: list[int]  # the seats of the people who have not
    table: Table | None  # the new table, once everyone asked


def rematch_frame(old: Table, asked: list[int], waiting: list[int], new: Table | None) -> dict[str, object]:
    return {
        "type": "rematch",
        "seats": asked,
        "waiting": waiting,
        "table": new.pk if new is not None else None,
        "url": f"/table/{new.pk}/" if new is not None else None,
    }


def rematch_state(table: Table) -> dict[str, object] | None:
    """The ``rematch`` frame of a table as it stands (for a page opened later),
    or None when nobody asked."""
    new = Table.objects.filter(rematch_of=table).first()
    if not table.rematch_seats and new is None:
        return None
    people = [seat.number for seat in Seat.objects.filter(table=table) if seat.is_human]
    asked = sorted(table.rematch_seats)
    return rematch_frame(table, asked, [n for n in people if n not in asked], new)


def offer_rematch(*, table_id: int, seat: int, allow_new_table: Callable[[], bool] | None = None) -> Rematch:
    """``seat`` (a person seated at the finished table) asks for a rematch.
    Asking twice changes nothing. The ask that makes the new table counts
    one new table for its asker: ``allow_new_table`` (games.play.limits), and
    ``TooManyTables`` (nothing changed) when it says no. The new table
    seats its members only if none has a game elsewhere (``InGame``)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        game = Game.objects.get(table=table)
        if table.status != Table.Status.FINISHED:
            raise NotAllowed(_("The game is not over yet."), reason="not_over")
        if table.kind == Table.Kind.ROOM:  # its stakes are the lobby's: a new game starts from the room
            raise NotAllowed(_("A room's games start from the room."), reason="room")
        seats = list(Seat.objects.filter(table=table).select_related("user").order_by("number"))
        people = [s.number for s in seats if s.is_human]
        if seat not in people:
            raise NotSeated(_("Only the players of this table can ask for a rematch."), reason="not_seated")
        new = Table.objects.filter(rematch_of=table).first()
        asked = sorted({*table.rematch_seats, seat})
        waiting = [n for n in people if n not in asked]
        if new is not None:
            return Rematch(asked, [], new)
        if not waiting and table.ranked:
            busy = (
                Table.objects.filter(kind=Table.Kind.RANKED, status__in=[Table.Status.WAITING, Table.Status.PLAYING])
                .filter(seats__user_id__in=[s.user_id for s in seats if s.user_id])
                .exists()
            )
            if busy:
                raise NotAllowed(_("A player of this table is already in another ranked game."), reason="busy")
        if asked != sorted(table.rematch_seats):
            table.rematch_seats = asked
            table.save(update_fields=["rematch_seats"])
        if not waiting:
            # A ranked rematch is a friendly game, unranked as a private table
            # is: ratings come only from opponents the matcher chose, never
            # from a series the same players arrange (docs/members.md).
            if allow_new_table is not None and not allow_new_table():
                raise TooManyTables(limits.too_many_tables())
            new = create_table(
                kind=Table.Kind.PRIVATE if table.ranked else table.kind,
                rules=selectors.game_rules(game),
                preset=game.preset,
                seats=[SeatSpec(user=s.user, guest_key=s.guest_key, level=s.level, name=s.name) for s in seats],
                public=table.public,
                created_by=table.created_by,
                mode="" if table.ranked else table.mode,
                actor=seats[seat].user,
            )
            new.rematch_of = table
            new.save(update_fields=["rematch_of"])
        frame = rematch_frame(table, asked, waiting, new)
        facts = selectors.table_facts(table, game)
        transaction.on_commit(
            lambda: broadcast.broadcast_notice(table_id=table.pk, players=len(seats), frame=frame, table=facts)
        )
    return Rematch(asked, waiting, new)
