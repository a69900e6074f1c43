"""The chip ledger: the only code that writes chips and experience.

Every change is one ``ChipEntry`` row (append-only) and the matching change
of the member's cached ``ChipWallet.balance`` / ``xp``, both in one
transaction under the wallet's row lock (``select_for_update``), so two
requests of one member never spend the same chips twice; the database
refuses a negative balance (a check constraint) as a last guard. The house
is the entries without a member (the fee). Invariant (docs/rooms.md): the
sum of every balance, plus the house, plus the stakes held at unsettled
tables, equals every grant, top-up and correction ever made.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Table
from lobby import rooms
from lobby.models import ChipEntry, ChipWallet, RoomTable

Reason = ChipEntry.Reason

# Entries that bring chips into the game (every other entry moves them).
SOURCES = (Reason.GRANT, Reason.TOPUP, Reason.ADMIN)


class ChipError(ValueError):
    """A move of chips that is refused (message for the member); nothing changed."""

    def __init__(self, message: str, *, code: str = "chips") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def wallet_for_update(user_id: int) -> ChipWallet:
    """The member's wallet, locked until the end of the transaction (created
    empty if missing)."""
    ChipWallet.objects.get_or_create(user_id=user_id)
    return ChipWallet.objects.select_for_update().get(user_id=user_id)


def post(
    *,
    user_id: int,
    amount: int,
    reason: str,
    game: Game | None = None,
    xp: int = 0,
    note: str = "",
    detail: dict[str, Any] | None = None,
    created_by: User | None = None,
) -> ChipEntry:
    """Append one entry for a member and move their cached balance and
    experience with it. Refuses (``ChipError``) an entry that would make the
    balance negative. Call inside a transaction when it must be atomic with
    other writes; it opens its own otherwise."""
    if xp < 0:
        raise ValueError("experience is never taken away")
    with transaction.atomic():
        wallet = wallet_for_update(user_id)
        if wallet.balance + amount < 0:
            raise ChipError(
                _("Not enough chips: you have %(balance)s, this needs %(needed)s.")
                % {"balance": wallet.balance, "needed": -amount},
                code="no_chips",
            )
        wallet.balance += amount
        wallet.xp += xp
        wallet.save(update_fields=["balance", "xp"])
        return ChipEntry.objects.create(
            user_id=user_id,
            amount=amount,
            xp=xp,
            reason=reason,
            game=game,
            balance_after=wallet.balance,
            note=note,
            detail=detail or {},
            created_by=created_by,
        )


def post_house(*, amount: int, reason: str, game: Game | None, detail: dict[str, Any] | None = None) -> ChipEntry:
    return ChipEntry.objects.create(user=None, amount=amount, reason=reason, game=game, detail=detail or {})


def grant_welcome(*, user_id: int) -> ChipEntry | None:
    """The starting grant, once per member (at sign-up)."""
    with transaction.atomic():
        wallet_for_update(user_id)
        if ChipEntry.objects.filter(user_id=user_id, reason=Reason.GRANT).exists():
            return None
        return post(user_id=user_id, amount=rooms.STARTING_GRANT, reason=Reason.GRANT)


def held_waiting(user_id: int) -> int:
    """The member's stakes held at room tables not yet started (returned if
    they leave them, so still theirs)."""
    waiting = RoomTable.objects.filter(settled_at__isnull=True, table__status=Table.Status.WAITING).values(
        "table__game"
    )
    total = (
        ChipEntry.objects.filter(user_id=user_id, game__in=waiting, reason__in=[Reason.STAKE, Reason.RELEASE])
        .aggregate(total=Sum("amount"))["total"]
        or 0
    )
    return -total


def topup_due(wallet: ChipWallet, *, today: date | None = None) -> int:
    """Chips the member may claim today: what brings their chips back to the
    floor, counting the stakes they hold at tables not yet started (0 when
    not below the floor, or already topped up today). A member at the floor
    who parks their chips at waiting tables is not below it."""
    today = today or timezone.now().date()
    chips = wallet.balance + held_waiting(wallet.user_id)
    if chips >= rooms.DAILY_FLOOR or wallet.topped_up_on == today:
        return 0
    return rooms.DAILY_FLOOR - chips


def claim_topup(*, user_id: int, today: date | None = None) -> ChipEntry:
    """The daily top-up: back up to the floor, once a day, when below it."""
    today = today or timezone.now().date()
    with transaction.atomic():
        wallet = wallet_for_update(user_id)
        due = topup_due(wallet, today=today)
        if due <= 0:
            if wallet.balance >= rooms.DAILY_FLOOR:
                raise ChipError(
                    _("The daily top-up is for balances below %(floor)s chips.") % {"floor": rooms.DAILY_FLOOR},
                    code="above_floor",
                )
            held = held_waiting(user_id)
            if wallet.balance + held >= rooms.DAILY_FLOOR:
                raise ChipError(
                    _(
                        "The daily top-up is for balances below %(floor)s chips, and the %(held)s chips of your "
                        "stakes at tables not yet started are yours: leave those tables, or play them."
                    )
                    % {"floor": rooms.DAILY_FLOOR, "held": held},
                    code="held",
                )
            raise ChipError(_("You already had today's top-up. Come back tomorrow."), code="already_today")
        wallet.topped_up_on = today
        wallet.save(update_fields=["topped_up_on"])
        return post(user_id=user_id, amount=due, reason=Reason.TOPUP, detail={"day": today.isoformat()})


def check_correction(*, user_id: int, amount: int, note: str) -> None:
    """Refuse (``ChipError``, for the staff) a correction without a reason,
    of no chip, or that would take the balance below zero. The wallet is
    locked for the rest of the transaction, so that the correction then
    posted in it finds the balance checked here."""
    if not note.strip():
        raise ChipError(_("Give the reason of the correction."), code="no_reason")
    if amount == 0:
        raise ChipError(_("A correction moves at least one chip."), code="zero")
    wallet = wallet_for_update(user_id)
    if wallet.balance + amount < 0:
        raise ChipError(
            _("A balance never goes below zero: this member has %(balance)s chips, the correction takes %(needed)s.")
            % {"balance": wallet.balance, "needed": -amount},
            code="no_chips",
        )


def admin_entry(*, user_id: int, amount: int, note: str, created_by: User) -> ChipEntry:
    """A grant (positive) or correction (negative) by the staff, with its
    reason; never below zero."""
    with transaction.atomic():
        check_correction(user_id=user_id, amount=amount, note=note)
        return post(user_id=user_id, amount=amount, reason=Reason.ADMIN, note=note.strip(), created_by=created_by)


# --- Checks ----------------------------------------------------------------------


@dataclass(frozen=True)
class Totals:
    balances: int
    house: int
    held: int
    sources: int

    @property
    def balanced(self) -> bool:
        return self.balances + self.house + self.held == self.sources


def totals() -> Totals:
    """The ledger's totals: every chip is in a balance, in the house, or held
    at an unsettled table, and came from a grant, top-up or correction."""

    entries = ChipEntry.objects
    balances = ChipWallet.objects.aggregate(total=Sum("balance"))["total"] or 0
    house = entries.filter(user__isnull=True).aggregate(total=Sum("amount"))["total"] or 0
    sources = entries.filter(reason__in=SOURCES).aggregate(total=Sum("amount"))["total"] or 0
    unsettled = RoomTable.objects.filter(settled_at__isnull=True).values("table__game")
    held = -(
        entries.filter(game__in=unsettled, user__isnull=False)
        .filter(Q(reason=Reason.STAKE) | Q(reason=Reason.RELEASE))
        .aggregate(total=Sum("amount"))["total"]
        or 0
    )
    return Totals(balances=balances, house=house, held=held, sources=sources)


def check_wallets() -> list[tuple[int, int, int]]:
    """Wallets whose cached balance disagrees with the sum of their entries:
    (user id, cached, summed). Empty when the ledger is sound."""
    sums = dict(
        ChipEntry.objects.filter(user__isnull=False)
        .values("user_id")
        .annotate(total=Sum("amount"))
        .values_list("user_id", "total")
    )
    wrong = []
    for user_id, balance in ChipWallet.objects.values_list("user_id", "balance"):
        summed = sums.get(user_id, 0)
        if summed != balance:
            wrong.append((user_id, balance, summed))
    return wrong
