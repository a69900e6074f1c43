"""Receivers of the lobby: the embedded mode's periodic loop starts with the
first table socket (the lobby socket starts it itself); a new member gets
the starting chips; the seats of a waiting room table hold and return their
stakes; a room game that ends is settled; the lobby's part of a member's
data file and of closing their account."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts.hooks import account_closing, export_parts, profile_panels
from games import jobs
from games.models import Game, Table
from games.signals import (
    game_finished,
    table_page_panels,
    table_socket_opened,
    waiting_seat_left,
    waiting_seat_taking,
    waiting_table_closed,
)
from lobby import chips, periodic, room_selectors, room_tables, rooms, selectors, services, tasks

logger = logging.getLogger(__name__)


@receiver(table_socket_opened, dispatch_uid="lobby.start_loop")
def start_loop_with_first_socket(sender: Any, **_kwargs: Any) -> None:
    periodic.start_in_process_loop()


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="lobby.welcome_chips")
def welcome_chips(sender: Any, instance: Any, created: bool, **_kwargs: Any) -> None:
    # In the sign-up's transaction: a member exists with their chips, or not at all.
    if created:
        chips.grant_welcome(user_id=instance.pk)


# The seats of a waiting room table (games.play.services.waiting), inside the
# transaction that changes them: the chips move with the seat or not at all.


@receiver(waiting_seat_taking, dispatch_uid="lobby.hold_stake")
def hold_stake(sender: Any, table: Table, game: Game, user_id: int, **_kwargs: Any) -> None:
    # Raises RoomError (the seat is refused) without the level or the chips.
    room_tables.hold_for_seat(table=table, game=game, user_id=user_id)


@receiver(waiting_seat_left, dispatch_uid="lobby.release_stake")
def release_stake(sender: Any, table: Table, game: Game, user_id: int, **_kwargs: Any) -> None:
    room_tables.release_for_seat(table=table, game=game, user_id=user_id)


@receiver(waiting_table_closed, dispatch_uid="lobby.return_stakes")
def return_stakes(sender: Any, table: Table, **_kwargs: Any) -> None:
    room_tables.settle_closed(table=table)


@receiver(game_finished, dispatch_uid="lobby.settle_room")
def settle_room_game(sender: Any, game: Game, table: Table, **_kwargs: Any) -> None:
    # Sent after the commit that ended the game: a failure here must not
    # break the move that ended it; the periodic tick settles what it missed.
    # With Celery the settlement is a task (acknowledged once done, so a
    # worker killed mid-settlement leaves it to be delivered again).
    if table.kind != Table.Kind.ROOM:
        return
    try:
        if jobs.mode() == "celery":
            tasks.settle_room_table.delay(table.pk)
        else:
            room_tables.settle(table_id=table.pk)
    except Exception:
        logger.exception("settling room table %s failed", table.pk)


@receiver(profile_panels, dispatch_uid="lobby.profile_chips")
def profile_chips(sender: Any, request: HttpRequest, member: Any, **_kwargs: Any) -> str:
    """The member's chips, level and progress, the charts of their chips and
    level over time, and their chip history (``?chips=<page>``), on their profile."""
    return render_to_string(
        "lobby/_profile_chips.html",
        {
            "member": member,
            "standing": room_selectors.standing(member.pk),
            "history": room_selectors.history(member.pk, request.GET.get("chips")),
            "show_notes": room_selectors.notes_visible(request.user, member.pk),
            "progress": room_selectors.chip_progress(member.pk),
        },
        request=request,
    )


@receiver(table_page_panels, dispatch_uid="lobby.table_room")
def table_room_panel(sender: Any, request: HttpRequest, table: Table, **_kwargs: Any) -> str:
    """At a room table: the room, the stake, what each place wins, the
    players' levels, and (once settled) what the game paid each of them."""
    room_table = room_selectors.room_of_table(table.pk)
    if room_table is None:
        return ""
    spec = rooms.ROOMS[room_table.room]
    return render_to_string(
        "lobby/_table_room.html",
        {
            "room": spec,
            "room_table": room_table,
            "kind": rooms.KINDS[room_table.kind],
            "length": rooms.LENGTHS[room_table.target],
            "payout": next(row for row in room_selectors.payout_rows(spec) if row.kind.key == room_table.kind),
            "results": room_selectors.seat_results(room_table),
        },
        request=request,
    )


@receiver(export_parts, dispatch_uid="lobby.export")
def export_lobby_data(sender: Any, member: Any, **_kwargs: Any) -> dict[str, Any]:
    """Chips, level, the chip ledger, room tables, the queue, invitations."""
    return selectors.member_data(member.pk)


@receiver(account_closing, dispatch_uid="lobby.account_closing")
def forget_closing_member(sender: Any, member: Any, **_kwargs: Any) -> list[str]:
    # Inside the closing's transaction: undone if the closing is refused.
    services.forget_member(user_id=member.pk)
    return []
