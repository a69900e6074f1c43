"""What brings people to a table: the ranked queue and invitations to
private tables. (Both tables were created by the accounts app; the rows
moved here in the state only, their tables keep their names.)"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.play.modes import MODE_CHOICES


class QueueEntry(models.Model):
    """A member waiting for a ranked game. One queue at a time per member; the
    table is shared by every server process, and the matcher consumes it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry"
    )
    mode = models.CharField(_("mode"), max_length=20, choices=MODE_CHOICES)
    rating = models.FloatField(_("rating"))
    # A room's slug (lobby.rooms) for a room queue; "" for the ranked queue.
    room = models.CharField(_("room"), max_length=20, blank=True, default="")
    # The lobby socket that queued: its disconnect leaves the queue, another
    # tab's does not.
    channel_name = models.CharField(max_length=200, blank=True)
    joined_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        db_table = "accounts_queueentry"  # created by accounts; moved here without moving data
        verbose_name = _("queue entry")
        verbose_name_plural = _("queue entries")
        indexes = [models.Index(fields=["mode", "joined_at"], name="queue_by_mode")]

    def __str__(self) -> str:
        return f"{self.user} in {self.mode}"


class Invitation(models.Model):
    """A member invites a friend to their private table."""

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="invitations")
    from_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_invitations"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "accounts_invitation"  # created by accounts; moved here without moving data
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [models.UniqueConstraint(fields=["table", "to_user"], name="one_invitation_per_friend")]

    def __str__(self) -> str:
        return f"{self.from_user} invites {self.to_user} to table {self.table_id}"


# --- Rooms, chips and levels (docs/rooms.md) --------------------------------------


class ChipWallet(models.Model):
    """A member's chips and experience. ``balance`` and ``xp`` are caches of
    the sums of the member's ``ChipEntry`` rows (lobby.chips.check_wallets
    compares them); only lobby.chips writes them, under this row's lock."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="chip_wallet"
    )
    balance = models.BigIntegerField(_("chips"), default=0)
    xp = models.PositiveIntegerField(_("experience"), default=0)
    # The day (UTC) of the last daily top-up.
    topped_up_on = models.DateField(null=True, blank=True)

    class Meta:
        verbose_name = _("chip wallet")
        verbose_name_plural = _("chip wallets")
        constraints = [models.CheckConstraint(condition=models.Q(balance__gte=0), name="chips_never_negative")]

    def __str__(self) -> str:
        return f"{self.user}: {self.balance} chips, {self.xp} xp"


class ChipEntry(models.Model):
    """One credit or debit of chips (and the experience earned with it).
    Rows are only ever inserted: a correction is a new entry with a reason.
    ``user`` None is the house (the fee of each game)."""

    class Reason(models.TextChoices):
        GRANT = "grant", _("Welcome chips")
        TOPUP = "topup", _("Daily top-up")
        ADMIN = "admin", _("Correction by the staff")
        STAKE = "stake", _("Stake held")
        RELEASE = "release", _("Stake returned: left before the start")
        PAYOUT = "payout", _("Game result")
        REFUND = "refund", _("Stake returned")
        FEE = "fee", _("House fee")
        # What a winner could not take from a new account (docs/rooms.md, "New accounts").
        CAPPED = "capped", _("Returned: winnings from a new account are capped")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="chip_entries"
    )
    amount = models.BigIntegerField(_("chips"))
    xp = models.PositiveIntegerField(_("experience"), default=0)
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="chip_entries"
    )
    # The balance of ``user`` right after this entry (None for the house).
    balance_after = models.BigIntegerField(null=True, blank=True)
    # Why (an admin's words), and what (room, place) for game entries.
    note = models.CharField(_("note"), max_length=200, blank=True, default="")
    detail = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("chip entry")
        verbose_name_plural = _("chip entries")
        ordering = ["-created_at", "-pk"]
        constraints = [
            # Exactly once per game, member and reason; once per game for the house.
            models.UniqueConstraint(
                fields=["game", "user", "reason"],
                condition=models.Q(game__isnull=False, user__isnull=False),
                name="one_chip_entry_per_game_member_reason",
            ),
            models.UniqueConstraint(
                fields=["game", "reason"],
                condition=models.Q(game__isnull=False, user__isnull=True),
                name="one_house_entry_per_game_reason",
            ),
        ]
        indexes = [models.Index(fields=["user", "created_at"], name="chip_history")]

    def __str__(self) -> str:
        return f"{self.user or 'house'} {self.amount:+d} ({self.reason})"


class RoomTable(models.Model):
    """The room facts of a table (games.Table kind "room"): its room, kind of
    game, stake, and whether its chips were settled (exactly once)."""

    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, primary_key=True, related_name="room")
    room = models.CharField(max_length=20, db_index=True)
    kind = models.CharField(max_length=10)
    target = models.PositiveSmallIntegerField()
    stake = models.PositiveIntegerField()
    settled_at = models.DateTimeField(null=True, blank=True)
    # "paid" (played), "drawn" or "refunded" (aborted: never started, stopped,
    # or resigned or agreed drawn before any tile beyond the opening); "" until settled.
    outcome = models.CharField(max_length=10, blank=True, default="")

    class Meta:
        verbose_name = _("room table")
        verbose_name_plural = _("room tables")
        indexes = [models.Index(fields=["settled_at"], name="room_unsettled")]

    def __str__(self) -> str:
        return f"{self.room} table {self.table_id}"
