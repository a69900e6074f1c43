"""What brings people to a table: the ranked queue and invitations to
private tables. (Both tables were created by the accounts app; the rows
moved here in the state only, their tables keep their names.)"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.modes import MODE_CHOICES


class QueueEntry(models.Model):
    """A member waiting for a ranked game. One queue at a time per member; the
    table is shared by every server process, and the matcher consumes it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry"
    )
    mode = models.CharField(_("mode"), max_length=20, choices=MODE_CHOICES)
    rating = models.FloatField(_("rating"))
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
