"""Private tables: a member sets the rules, invites friends (by link or from
the friends list), gives empty seats to computers; the game starts when every
seat is taken. Unranked.

The table is created through ``games.play.services.create_table`` (open seats, not
started) and started with ``games.play.services.start_game``; this module only
fills the seats of a table that is still waiting, under the table's row lock.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.utils.translation import gettext as _

from games.engine import rules_for
from games.models import Seat, Table
from games.play import services

INVITE_SALT = "dominoes.private-table"


class SeatError(services.GameError):
    code = "not_allowed"


def create_private_table(
    *,
    owner: User,
    preset: str,
    players: int,
    teams: bool,
    target: int,
    public: bool,
    server_seed: str | None = None,
    salt: str = "",
) -> Table:
    """A waiting table with the owner at seat 0 and the other seats open.
    ``server_seed`` / ``salt``: the owner's salt on a seed the server
    committed to first (games.fairplay.fairness)."""
    rules = rules_for(preset, players=players, teams=teams, target=target)
    seats = [services.SeatSpec(user=owner), *(services.SeatSpec() for _ in range(players - 1))]
    return services.create_table(
        kind=Table.Kind.PRIVATE,
        rules=rules,
        preset=preset,
        seats=seats,
        public=public,
        created_by=owner,
        start=False,
        server_seed=server_seed,
        salt=salt,
    )


def invite_token(table: Table) -> str:
    """The secret of the invitation link: the table number, signed with the
    site's key (it cannot be guessed; the same link every time)."""
    return signing.Signer(salt=INVITE_SALT).sign(str(table.pk))


def table_from_token(token: str) -> Table | None:
    try:
        table_id = int(signing.Signer(salt=INVITE_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None
    return Table.objects.filter(pk=table_id, kind=Table.Kind.PRIVATE).first()


def _locked_waiting(table_id: int) -> tuple[Table, list[Seat]]:
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None or table.kind != Table.Kind.PRIVATE:
        raise SeatError(_("This private table does not exist."))
    if table.status != Table.Status.WAITING:
        raise SeatError(_("This game has already started."))
    return table, list(Seat.objects.select_for_update().filter(table=table).order_by("number"))


def _start_if_full(table: Table, seats: list[Seat]) -> bool:
    if any(seat.kind == "open" for seat in seats):
        return False
    services.start_game(table=table)
    return True


def take_seat(*, table_id: int, user: User) -> Seat:
    """Seat ``user`` at the first open seat (or return their seat). The game
    starts when the last seat is taken."""
    with transaction.atomic():
        table, seats = _locked_waiting(table_id)
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is not None:
            return mine
        seat = next((seat for seat in seats if seat.kind == "open"), None)
        if seat is None:
            raise SeatError(_("Every seat at this table is taken."))
        seat.user = user
        seat.name = user.get_username()
        seat.save(update_fields=["user", "name"])
        _start_if_full(table, seats)
        return seat


def seat_computer(*, table_id: int, owner: User, number: int, level: str) -> Seat:
    """The owner gives open seat ``number`` to a computer of ``level``."""
    if level not in services.LEVELS:
        raise SeatError(_("Unknown computer level."))
    with transaction.atomic():
        table, seats = _locked_waiting(table_id)
        if table.created_by_id != owner.pk:
            raise SeatError(_("Only the table's creator may do this."))
        seat = next((seat for seat in seats if seat.number == number), None)
        if seat is None or seat.kind != "open":
            raise SeatError(_("This seat is not free."))
        seat.level = level
        seat.save(update_fields=["level"])
        _start_if_full(table, seats)
        return seat


def free_seat(*, table_id: int, owner: User, number: int) -> Seat:
    """The owner opens seat ``number`` again (a computer or a guest who did
    not come); their own seat stays."""
    with transaction.atomic():
        table, seats = _locked_waiting(table_id)
        if table.created_by_id != owner.pk:
            raise SeatError(_("Only the table's creator may do this."))
        seat = next((seat for seat in seats if seat.number == number), None)
        if seat is None or seat.user_id == owner.pk:
            raise SeatError(_("This seat cannot be freed."))
        seat.user = None
        seat.level = ""
        seat.guest_key = ""
        seat.name = ""
        seat.save(update_fields=["user", "level", "guest_key", "name"])
        return seat


def leave_seat(*, table_id: int, user: User) -> None:
    """A member who joined leaves the waiting table; the owner leaving
    cancels it."""
    with transaction.atomic():
        table, seats = _locked_waiting(table_id)
        if table.created_by_id == user.pk:
            table.status = Table.Status.ABORTED
            table.save(update_fields=["status"])
            return
        for seat in seats:
            if seat.user_id == user.pk:
                seat.user = None
                seat.name = ""
                seat.save(update_fields=["user", "name"])
