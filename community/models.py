"""The community's rows: chat lines, mutes, blocks, a member's standing,
reports and the moderators' actions (docs/moderation.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MAX_CHAT_CHARS = 140


class ChatLine(models.Model):
    """A line said at a table or in a tournament, stored before anyone sees
    it. ``room``: the players' or the spectators' chat of a table (apart), or
    a tournament's (``tournament_id``: its players read it; a plain number,
    since the tournaments app sits above this one); ``only_author``: its
    author was marked as a troll, so nobody else sees it; ``filtered``: the
    insult filter masked words of it (``text`` is what was shown)."""

    class Room(models.TextChoices):
        PLAYERS = "players", _("players")
        SPECTATORS = "spectators", _("spectators")
        TOURNAMENT = "tournament", _("tournament")

    table = models.ForeignKey(
        "games.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="chat_lines"
    )
    tournament_id = models.PositiveIntegerField(null=True, blank=True)
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="chat_lines")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_lines")
    room = models.CharField(max_length=10, choices=Room.choices)
    text = models.CharField(max_length=MAX_CHAT_CHARS)
    filtered = models.BooleanField(default=False)
    only_author = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["table", "room", "created"]),
            models.Index(fields=["author", "created"]),
            models.Index(fields=["tournament_id", "created"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(Q(table__isnull=False) & Q(tournament_id__isnull=True))
                | (Q(table__isnull=True) & Q(tournament_id__isnull=False)),
                name="community_line_at_table_or_tournament",
            ),
        ]

    def __str__(self) -> str:
        place = self.table_id if self.table_id is not None else f"t{self.tournament_id}"
        return f"{self.author_id}@{place}: {self.text[:30]}"


class ChatMute(models.Model):
    """``member`` does not see ``muted``'s lines at ``table``, or in the chat
    of the tournament ``tournament_id`` (a plain number, as on ``ChatLine``);
    ``muted`` empty (a table only): the member muted the whole chat of this
    table (no line of it reaches them there, kept when they come back)."""

    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    tournament_id = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["member", "muted", "table"], name="community_one_mute"),
            models.UniqueConstraint(
                fields=["member", "table"], condition=Q(muted__isnull=True), name="community_one_table_mute"
            ),
            models.UniqueConstraint(
                fields=["member", "muted", "tournament_id"],
                condition=Q(tournament_id__isnull=False),
                name="community_one_tournament_mute",
            ),
            models.CheckConstraint(
                condition=(Q(table__isnull=False) & Q(tournament_id__isnull=True))
                | (Q(table__isnull=True) & Q(tournament_id__isnull=False) & Q(muted__isnull=False)),
                name="community_mute_at_table_or_tournament",
            ),
        ]

    def __str__(self) -> str:
        place = self.table_id if self.table_id is not None else f"t{self.tournament_id}"
        if self.muted_id is None:
            return f"{self.member_id} mutes table {place}"
        return f"{self.member_id} mutes {self.muted_id} at {place}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no invitation, no chat line, no ranked
    pairing from them while anyone else waits; they are never told."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="community_one_block"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="community_no_self_block"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Standing(models.Model):
    """What the moderators decided about a member: a chat timeout (until
    when, and why: the member is told), a troll (their lines shown only to
    themselves)."""

    member = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="standing"
    )
    troll = models.BooleanField(default=False)
    chat_timeout_until = models.DateTimeField(null=True, blank=True)
    chat_timeout_reason = models.CharField(max_length=300, blank=True)

    def __str__(self) -> str:
        return f"standing of {self.member_id}"


class Report(models.Model):
    """A member's report of another, with its evidence gathered by the site
    (the reported member's lines at the table, the game)."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Abuse or insults")
        CHEATING = "cheating", _("Cheating")
        RATING = "rating", _("Rating manipulation")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACTED = "acted", _("acted on")
        DISMISSED = "dismissed", _("dismissed")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_about")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    text = models.CharField(max_length=1000, blank=True)
    table = models.ForeignKey("games.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    chat_line = models.ForeignKey(ChatLine, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    evidence = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["status", "created"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reason}"


class ModerationAction(models.Model):
    """One action of a moderator, logged with who took it."""

    class Kind(models.TextChoices):
        WARN = "warn", _("warning")
        CHAT_TIMEOUT = "chat_timeout", _("chat timeout")
        LIFT_TIMEOUT = "lift_timeout", _("chat timeout lifted")
        TROLL = "troll", _("marked as troll")
        UNTROLL = "untroll", _("troll mark lifted")
        CLOSE = "close", _("account closed")
        DISMISS = "dismiss", _("report dismissed")

    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation")
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="moderation_taken"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    reason = models.CharField(max_length=300)
    until = models.DateTimeField(null=True, blank=True)
    report = models.ForeignKey(Report, on_delete=models.SET_NULL, null=True, blank=True, related_name="actions")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["member", "created"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.member_id} by {self.moderator_id}"
