"""Tournaments, their players, their games and the scores those games gave
(docs/tournaments.md). Only ``tournaments.services`` writes these rows."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Schedule(models.Model):
    """A tournament created again and again by the periodic tick
    (``tournaments.services.schedule_due``): every hour at ``minute``, every
    day at ``hour``:``minute``, or every week on ``weekday`` at that time (UTC).
    Edited in the admin."""

    class Cadence(models.TextChoices):
        HOURLY = "hourly", _("Hourly")
        DAILY = "daily", _("Daily")
        WEEKLY = "weekly", _("Weekly")

    name = models.CharField(_("name"), max_length=80)
    mode = models.CharField(_("mode"), max_length=32)
    format = models.CharField(_("format"), max_length=16, default="arena")
    # An arena's length, or each duplicate round's.
    minutes = models.PositiveSmallIntegerField(_("length in minutes"))
    # A duplicate tournament's number of rounds (0 for an arena).
    rounds = models.PositiveSmallIntegerField(_("rounds (duplicate)"), default=0)
    rated = models.BooleanField(_("rated"), default=True)
    cadence = models.CharField(_("cadence"), max_length=8, choices=Cadence.choices)
    minute = models.PositiveSmallIntegerField(_("minute (UTC)"), default=0)
    hour = models.PositiveSmallIntegerField(_("hour (UTC), daily and weekly"), default=0)
    # Monday = 0 ... Sunday = 6 (weekly only).
    weekday = models.PositiveSmallIntegerField(_("weekday (0 = Monday), weekly"), default=0)
    # The next tournament is created this long before its start (it shows as
    # "starting soon" and on the home page).
    lead_minutes = models.PositiveSmallIntegerField(_("created minutes before the start"), default=60)
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        ordering = ["cadence", "hour", "minute", "pk"]
        verbose_name = _("tournament schedule")
        verbose_name_plural = _("tournament schedules")
        constraints = [
            models.CheckConstraint(condition=models.Q(minute__lte=59), name="schedule_minute_range"),
            models.CheckConstraint(condition=models.Q(hour__lte=23), name="schedule_hour_range"),
            models.CheckConstraint(condition=models.Q(weekday__lte=6), name="schedule_weekday_range"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.cadence}, {self.mode})"


class Tournament(models.Model):
    class Format(models.TextChoices):
        ARENA = "arena", _("Arena")
        DUPLICATE = "duplicate", _("Duplicate")

    class Status(models.TextChoices):
        CREATED = "created", _("Starting soon")
        STARTED = "started", _("Running")
        FINISHED = "finished", _("Finished")

    format = models.CharField(max_length=16, choices=Format.choices, default=Format.ARENA)
    # A ranked mode key of games.play.modes (the duel modes for an arena).
    mode = models.CharField(max_length=32)
    minutes = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField(default=0)
    rated = models.BooleanField(default=True)
    private = models.BooleanField(default=False)
    # Bot accounts may join (docs/api.md); set at creation, off by default.
    admits_bots = models.BooleanField(_("admits bots"), default=False)
    # The link of a private tournament: /tournaments/<id>/?key=<token>.
    token = models.CharField(max_length=32, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.CREATED)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The standings frozen at the end: [{"rank", "player", "user_id", "score", "wins", "games"}].
    final_standings = models.JSONField(default=list, blank=True)
    # The schedule that created it (None for a member's tournament).
    schedule = models.ForeignKey(
        Schedule, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"])]
        ordering = ["-starts_at"]
        constraints = [
            # One tournament per slot of a schedule, however many ticks run at once.
            models.UniqueConstraint(fields=["schedule", "starts_at"], name="tournament_once_per_slot"),
        ]

    def __str__(self) -> str:
        return f"tournament {self.pk} ({self.format}, {self.mode}, {self.status})"


class Player(models.Model):
    """A member in a tournament: their running score (games/verifier/arena.py)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    score = models.IntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    # Not paired while paused (a player may pause and come back) or withdrawn.
    paused = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    # Berserk for their next game (or the current one, before its first move).
    berserk = models.BooleanField(default=False)
    last_opponent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="tournament_player_once")]
        # The order of the standings (selectors.ranked_players, rank_of): the
        # top ten, the rows around a rank and a rank's count read it, not the table.
        indexes = [models.Index(fields=["tournament", "-score", "-wins", "joined_at", "id"], name="tournament_standings")]

    def __str__(self) -> str:
        return f"player {self.user_id} of tournament {self.tournament_id}"


class Round(models.Model):
    """A round of a duplicate tournament (docs/tournaments.md, "Duplicate"):
    every table of the round deals from ``seed``; ``commitment`` (its
    SHA-256) is public from the tournament's creation, the seed once the
    round is over (``over_at``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="duplicate_rounds")
    number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    started_at = models.DateTimeField(null=True, blank=True)
    over_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_once")]

    def __str__(self) -> str:
        return f"round {self.number} of tournament {self.tournament_id}"

    @property
    def revealed_seed(self) -> str:
        """The seed, once the round is over ("" before)."""
        return self.seed if self.over_at is not None else ""


class TournamentGame(models.Model):
    """A table the tournament opened (one game)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="tournament_game")
    created_at = models.DateTimeField(auto_now_add=True)
    # A duplicate tournament's table: its round (None in an arena).
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="games")
    # The level of the computer that holds the other seat (an odd player's
    # opponent in a duplicate round: it scores nothing), "" for none.
    computer = models.CharField(max_length=8, blank=True, default="")

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"table {self.table_id} of tournament {self.tournament_id}"


class GameSeat(models.Model):
    """Who of the tournament sits at which seat of a tournament game."""

    game = models.ForeignKey(TournamentGame, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    berserk = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="tournament_seat_once")]

    def __str__(self) -> str:
        return f"seat {self.number} of tournament game {self.game_id}"


class Score(models.Model):
    """What one finished game gave one player: written once per game and
    player (a finished game enters the standings exactly once: the unique
    constraint, not a check in Python). In a duplicate tournament ``points``
    is the table's result for the seat, its margin (own final score minus the
    opponent's), and ``outcome`` its outcome: the matchpoints come from
    comparing it with the round's other tables (games/verifier/duplicate.py)."""

    game = models.ForeignKey(TournamentGame, on_delete=models.CASCADE, related_name="scores")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="scores")
    points = models.IntegerField()
    outcome = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="tournament_score_once")]

    def __str__(self) -> str:
        return f"{self.points} for player {self.player_id} in tournament game {self.game_id}"
