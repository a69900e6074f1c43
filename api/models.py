"""The API's rows: personal access tokens and challenges (docs/api.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Scope(models.TextChoices):
    BOT_PLAY = "bot:play", _("Play as a bot (bot accounts)")
    BOARD_PLAY = "board:play", _("Play your own games from another program")
    CHALLENGE_WRITE = "challenge:write", _("Send, accept and decline challenges")
    TOURNAMENT_WRITE = "tournament:write", _("Join tournaments")


class AccessToken(models.Model):
    """A personal access token: only its SHA-256 digest is stored; the token
    itself is shown once, when it is made."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    description = models.CharField(_("description"), max_length=100)
    # The scopes, space-separated (Scope values).
    scopes = models.CharField(_("scopes"), max_length=200)
    digest = models.CharField(max_length=64, unique=True)
    # The token's first characters, to tell tokens apart in the list.
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("access token")
        verbose_name_plural = _("access tokens")

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}… {self.scopes}"

    @property
    def scope_list(self) -> list[str]:
        return self.scopes.split()

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class Challenge(models.Model):
    """A challenge from one member to another (or to a bot), with the table's
    choices; accepting it opens the table (games.play.services.create_table)."""

    class Status(models.TextChoices):
        CREATED = "created", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELED = "canceled", _("Canceled")

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    dest = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_challenges")
    preset = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField(default=2)
    teams = models.BooleanField(default=False)
    target = models.PositiveSmallIntegerField(default=100)
    rated = models.BooleanField(default=False)
    # The computers' level at the seats beyond the two members (3 or 4 players).
    level = models.CharField(max_length=16, default="medium")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.CREATED)
    table = models.ForeignKey("games.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [models.Index(fields=["dest", "status"], name="challenge_dest_status")]

    def __str__(self) -> str:
        return f"{self.challenger} -> {self.dest} ({self.status})"
