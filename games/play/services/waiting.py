"""Waiting tables: tables whose seats fill before the game starts.

The lobby's private tables and room tables (and tournaments to come) seat
people only here: a table is opened with its owner at seat 0 and the other
seats open (``open_table``); a member takes the first open seat
(``take_seat``), the owner gives an open seat to a computer
(``seat_computer``) or frees one (``free_seat``); the game starts when the
last seat is taken. A member leaving gives their seat back
(``leave_seat``); the owner leaving closes the table, as does a caller that
finds it waited too long (``close_table``): the game is aborted through
``abort_game`` (the table and its game marked aborted and finished now).

Every change runs in one transaction holding the game's, the table's and
the seats' row locks (the order ``start_game`` and ``abort_game`` take), so
two members never take one seat and a table never starts twice. One game at
a time holds here as everywhere (games.play.services.seats): a member who has a
game at another table is refused with its address.

What a higher app keeps about a waiting table (the stakes of a room table)
follows its seats through signals sent inside the same transaction
(games.signals): ``waiting_seat_taking`` before a member's seat is written
(a receiver may refuse it by raising a ``GameError``: nothing is written),
``waiting_seat_left`` after a member's seat is given back, and
``waiting_table_closed`` after the table is aborted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games.ai import LEVELS
from games.engine import Rules
from games.models import Game, Seat, Table
from games.play.services import seats as one_game
from games.play.services.errors import SeatRefused
from games.play.services.moves import abort_game
from games.play.services.tables import SeatSpec, create_table, member_bot_ids, start_game
from games.signals import waiting_seat_left, waiting_seat_taking, waiting_table_closed


@dataclass(frozen=True)
class Locked:
    """A waiting table under its row locks, with its seats in turn order."""

    table: Table
    game: Game
    seats: list[Seat]

    def seat_of(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    def seat_number(self, number: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.number == number), None)


def open_table(
    *,
    kind: str,
    rules: Rules,
    preset: str,
    owner: User,
    public: bool,
    mode: str = "",
    server_seed: str | None = None,
    salt: str = "",
) -> Table:
    """A waiting table of ``kind`` with ``owner`` at seat 0 and every other
    seat open. Refused (``InGame``) when the owner already has a game."""
    seats = [SeatSpec(user=owner), *(SeatSpec() for _ in range(rules.players - 1))]
    return create_table(
        kind=kind,
        rules=rules,
        preset=preset,
        seats=seats,
        public=public,
        created_by=owner,
        mode=mode,
        start=False,
        server_seed=server_seed,
        salt=salt,
    )


def lock(table_id: int, *, kinds: Sequence[str]) -> Locked:
    """The waiting table ``table_id`` (of one of ``kinds``) under its row
    locks; refused when there is none or its game has started (or ended)."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(table_id=table_id, table__kind__in=list(kinds))
        .first()
    )
    if game is None:
        raise SeatRefused(_("This table does not exist."), reason="no_table")
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.status != Table.Status.WAITING:
        raise SeatRefused(_("This game has already started."), reason="started")
    seats = list(Seat.objects.select_for_update().filter(table=table).order_by("number"))
    return Locked(table=table, game=game, seats=seats)


def _start_if_full(locked: Locked) -> bool:
    if any(seat.kind == "open" for seat in locked.seats):
        return False
    start_game(table=locked.table)
    return True


def take_seat(*, table_id: int, user: User, kinds: Sequence[str]) -> Seat:
    """Seat ``user`` at the first open seat (or return the seat they hold
    there); the game starts when the last seat is taken. Refused when the
    table is full (``SeatRefused``), when they have a game elsewhere
    (``InGame``), or by a receiver of ``waiting_seat_taking``."""
    with transaction.atomic():
        locked = lock(table_id, kinds=kinds)
        mine = locked.seat_of(user.pk)
        if mine is not None:
            return mine
        seat = next((seat for seat in locked.seats if seat.kind == "open"), None)
        if seat is None:
            raise SeatRefused(_("Every seat at this table is taken."), reason="full")
        # What the apps above keep first (a room's stake: a member without the
        # chips is told so, whatever else holds them), then one game at a time.
        waiting_seat_taking.send(sender=Table, table=locked.table, game=locked.game, user_id=user.pk, seat=seat.number)
        seat.user = user
        seat.name = user.get_username()
        seat.bot = user.pk in member_bot_ids([user.pk])
        seat.save(update_fields=["user", "name", "bot"])
        one_game.engage(table=locked.table, user_ids=[user.pk], actor_id=user.pk)
        _start_if_full(locked)
        return seat


def _owned(locked: Locked, owner: User) -> None:
    if locked.table.created_by_id != owner.pk:
        raise SeatRefused(_("Only the table's creator may do this."), reason="not_owner")


def seat_computer(*, table_id: int, owner: User, number: int, level: str, kinds: Sequence[str]) -> Seat:
    """The owner gives open seat ``number`` to a computer of ``level``; the
    game starts if it was the last open seat."""
    if level not in LEVELS:
        raise SeatRefused(_("Unknown computer level."), reason="bad_level")
    with transaction.atomic():
        locked = lock(table_id, kinds=kinds)
        _owned(locked, owner)
        seat = locked.seat_number(number)
        if seat is None or seat.kind != "open":
            raise SeatRefused(_("This seat is not free."), reason="taken")
        seat.level = level
        seat.save(update_fields=["level"])
        _start_if_full(locked)
        return seat


def _give_back(locked: Locked, seat: Seat) -> None:
    """Open ``seat`` again; a member who held it hears of it (the stakes)."""
    user_id = seat.user_id
    seat.engaged = False  # nobody's game any more (games.play.services.seats)
    seat.user = None
    seat.level = ""
    seat.guest_key = ""
    seat.name = ""
    seat.bot = False
    seat.save(update_fields=["user", "level", "guest_key", "name", "engaged", "bot"])
    if user_id is not None:
        waiting_seat_left.send(sender=Table, table=locked.table, game=locked.game, user_id=user_id, seat=seat.number)


def free_seat(*, table_id: int, owner: User, number: int, kinds: Sequence[str]) -> Seat:
    """The owner opens seat ``number`` again (a computer, or a member who did
    not come); their own seat stays."""
    with transaction.atomic():
        locked = lock(table_id, kinds=kinds)
        _owned(locked, owner)
        seat = locked.seat_number(number)
        if seat is None or seat.user_id == owner.pk:
            raise SeatRefused(_("This seat cannot be freed."), reason="owner_seat")
        _give_back(locked, seat)
        return seat


@dataclass(frozen=True)
class Left:
    """What leaving did: ``closed`` (the owner left: the table is aborted),
    else ``seat`` is the seat given back (None: the member held none)."""

    closed: bool
    seat: int | None


def leave_seat(*, table_id: int, user: User, kinds: Sequence[str]) -> Left:
    """A member leaves the waiting table: their seat opens again; the owner
    leaving closes the table (``close_table``)."""
    with transaction.atomic():
        locked = lock(table_id, kinds=kinds)
        if locked.table.created_by_id == user.pk:
            _close(locked, reason="owner_left")
            return Left(closed=True, seat=None)
        seat = locked.seat_of(user.pk)
        if seat is None:
            return Left(closed=False, seat=None)
        _give_back(locked, seat)
        return Left(closed=False, seat=seat.number)


def _close(locked: Locked, *, reason: str) -> None:
    abort_game(game_id=locked.game.pk, reason=reason)
    table = Table.objects.get(pk=locked.table.pk)
    waiting_table_closed.send(sender=Table, table=table, game=locked.game, reason=reason)


def close_table(*, table_id: int, reason: str, kinds: Sequence[str]) -> bool:
    """Close a table still waiting for players (aborted through
    ``abort_game``); False if it is no longer waiting."""
    with transaction.atomic():
        try:
            locked = lock(table_id, kinds=kinds)
        except SeatRefused:
            return False
        _close(locked, reason=reason)
        return True
