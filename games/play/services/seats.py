"""One game at a time: a member holds at most one seat that is a game.

A seat is its member's game (``Seat.engaged``) while its table is live
(waiting for players or playing) and has other people or open seats:
ranked tables, room tables, private tables, and whatever seats people
through ``create_table`` or the waiting tables (``games.play.services.waiting``),
tournaments included. Not a seat: watching a table, a finished or aborted
table, a table against the computer, a private table that started with one
person and computers only (practice, like a computer table: no clock ends
it when its player leaves, so it must not hold them).

The database keeps the rule (a partial unique index: one engaged seat per
member), so two seatings of one member at once cannot both commit; the
services check it first to refuse with the address of the table the member
is at (``InGame``), and nothing changes. Every change of a table's life
here: ``engage`` when members sit down, ``release`` when the table ends or
a member leaves it. A table opened with ``hold_seats`` (``create_table``:
a tournament's table, where the one person may be playing the computer)
holds its members even with one person: it is their game until it ends.
A seat left engaged at a table that is no longer live
(a row changed by hand) does not hold its member: ``engage`` frees it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.models import Seat, Table
from games.play.services.errors import InGame

# Kinds of tables whose seats are games (a computer table never is).
GAME_KINDS = (Table.Kind.RANKED, Table.Kind.ROOM, Table.Kind.PRIVATE)


def is_game(table: Table, seats: Iterable[Seat], *, held: bool = False) -> bool:
    """Whether the members' seats at ``table`` are their game (see above);
    ``held``: a table opened with ``hold_seats``, whose one person against
    computers is held too."""
    if table.kind not in GAME_KINDS or not table.live:
        return False
    seats = list(seats)
    people = sum(1 for seat in seats if seat.is_human)
    return people >= 2 or any(seat.kind == "open" for seat in seats) or (held and people >= 1)


def _refusal(user_id: int, table: Table, actor_id: int | None) -> InGame:
    """The refusal for a member already at ``table``: its number and address
    for the member themself, only their name for the others."""
    if actor_id == user_id:
        message = _(
            "You already have a seat at table %(table)s: one game at a time. "
            "Finish that game, or leave that table, before you sit at another."
        ) % {"table": table.pk}
        return InGame(message, user_id=user_id, table_id=table.pk)
    name = get_user_model().objects.filter(pk=user_id).values_list("username", flat=True).first() or ""
    return InGame(
        _("%(name)s is already playing at another table: one game at a time.") % {"name": name},
        user_id=user_id,
        table_id=None,
    )


def check_free(user_ids: Iterable[int], *, table_id: int | None = None, actor_id: int | None = None) -> None:
    """Refuse (``InGame``) if one of the members holds a game at another
    table than ``table_id``; a stale mark (its table no longer live) is
    cleared on the way."""
    ids = [user_id for user_id in user_ids if user_id is not None]
    if not ids:
        return
    held = Seat.objects.filter(user_id__in=ids, engaged=True).select_related("table")
    if table_id is not None:
        held = held.exclude(table_id=table_id)
    for seat in held:
        if seat.table.live:
            raise _refusal(seat.user_id or 0, seat.table, actor_id)
        Seat.objects.filter(pk=seat.pk).update(engaged=False)


def engage(*, table: Table, user_ids: Iterable[int], actor_id: int | None = None) -> None:
    """Mark the seats of these members at ``table`` as their game (inside
    the transaction that seats them). Refused (``InGame``) when one of them
    already has a game elsewhere, also when another seating of theirs
    committed meanwhile (the unique index)."""
    ids = [user_id for user_id in user_ids if user_id is not None]
    if not ids:
        return
    check_free(ids, table_id=table.pk, actor_id=actor_id)
    try:
        with transaction.atomic():
            Seat.objects.filter(table_id=table.pk, user_id__in=ids).update(engaged=True)
    except IntegrityError:
        # Another seating of one of them committed between the check and now:
        # the check names it now; else (it ended meanwhile) a plain refusal.
        check_free(ids, table_id=table.pk, actor_id=actor_id)
        raise InGame(
            _("A player of this table has just sat at another one: one game at a time."),
            user_id=ids[0],
            table_id=None,
        ) from None


def engage_table(*, table: Table, actor_id: int | None = None, held: bool = False) -> None:
    """Engage every member seated at ``table`` if its seats are a game
    (``held``: see ``is_game``)."""
    seats = list(Seat.objects.filter(table_id=table.pk))
    if is_game(table, seats, held=held):
        engage(table=table, user_ids=[seat.user_id for seat in seats if seat.user_id], actor_id=actor_id)


def release(*, table_id: int, user_id: int | None = None) -> None:
    """The table ended (or ``user_id`` left it): its seats are nobody's game."""
    seats = Seat.objects.filter(table_id=table_id, engaged=True)
    if user_id is not None:
        seats = seats.filter(user_id=user_id)
    seats.update(engaged=False)
