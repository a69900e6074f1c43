"""Private tables: a member sets the rules, invites friends (by link or from
the friends list), gives empty seats to computers; the game starts when every
seat is taken. Unranked.

The table is a waiting table of the table core (``games.play.services.waiting``):
it opens, seats, frees and closes the seats, under the table's row locks,
and keeps one game at a time. This module keeps what is the lobby's: the
invitation link, and the private kind of the tables it seats at.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core import signing

from games.engine import rules_for
from games.models import Seat, Table
from games.play import services

INVITE_SALT = "dominoes.private-table"


# What the table core raises when a seat cannot be taken, given or freed.
SeatError = services.SeatRefused
KINDS = (Table.Kind.PRIVATE,)


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
    return services.waiting.open_table(
        kind=Table.Kind.PRIVATE,
        rules=rules,
        preset=preset,
        owner=owner,
        public=public,
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


def take_seat(*, table_id: int, user: User) -> Seat:
    """Seat ``user`` at the first open seat (or return their seat). The game
    starts when the last seat is taken."""
    return services.waiting.take_seat(table_id=table_id, user=user, kinds=KINDS)


def seat_computer(*, table_id: int, owner: User, number: int, level: str) -> Seat:
    """The owner gives open seat ``number`` to a computer of ``level``."""
    return services.waiting.seat_computer(table_id=table_id, owner=owner, number=number, level=level, kinds=KINDS)


def free_seat(*, table_id: int, owner: User, number: int) -> Seat:
    """The owner opens seat ``number`` again (a computer or a member who did
    not come); their own seat stays."""
    return services.waiting.free_seat(table_id=table_id, owner=owner, number=number, kinds=KINDS)


def leave_seat(*, table_id: int, user: User) -> None:
    """A member who joined leaves the waiting table; the owner leaving
    cancels it (aborted by the table core)."""
    services.waiting.leave_seat(table_id=table_id, user=user, kinds=KINDS)
