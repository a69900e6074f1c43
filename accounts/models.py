"""Members: profiles, ratings per ranked mode, friendships, rated games."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts import ratings
from games.play.modes import MODE_CHOICES


class Profile(models.Model):
    """A member's profile and preferences (the settings page, docs/members.md)."""

    class TileFaces(models.TextChoices):
        PIPS = "pips", _("Pips")
        NUMBERS = "numbers", _("Numbers")

    LANGUAGE_CHOICES = [("", _("The browser's or the one chosen at the foot of the page")), *settings.LANGUAGES]

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    # Ranked games lost by leaving them (counted against the leaver).
    abandoned = models.PositiveIntegerField(_("games abandoned"), default=0)
    # A bot account (docs/api.md): played by a program through the API, marked
    # wherever its name shows, never in the people's ranked queues. Irreversible.
    is_bot = models.BooleanField(_("bot"), default=False)
    created_at = models.DateTimeField(default=timezone.now)
    # Preferences. The table page's own switches (sounds, confirm each move,
    # reactions, tile faces) are kept here for members, in the browser for guests.
    language = models.CharField(_("language"), max_length=8, blank=True, default="", choices=LANGUAGE_CHOICES)
    sounds = models.BooleanField(_("sounds at the table"), default=True)
    confirm_moves = models.BooleanField(_("confirm each move"), default=False)
    mute_reactions = models.BooleanField(_("mute the other players' reactions"), default=False)
    # The table chat turned off for this member at every table (docs/moderation.md).
    chat_off = models.BooleanField(_("turn the table chat off"), default=False)
    tile_faces = models.CharField(
        _("tile faces"), max_length=10, choices=TileFaces.choices, default=TileFaces.PIPS
    )
    # Zen mode: no ratings on the table page while a game is played.
    zen = models.BooleanField(_("hide ratings during a game"), default=False)
    # Browser notifications (static/js/notify.js; docs/members.md says what they cover).
    notifications = models.BooleanField(_("browser notifications"), default=False)
    # When the member closed their account (accounts.services.close_account).
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)


class RatingFigures:
    """How a rating held as ``mu`` and ``sigma`` is shown: a ``Rating`` row, or a
    ``selectors.ModeRating`` (which also stands for a newcomer with no row)."""

    mu: float
    sigma: float

    @property
    def display(self) -> int:
        return ratings.display_rating(self.mu)

    @property
    def provisional(self) -> bool:
        return ratings.is_provisional(self.sigma)

    @property
    def shown(self) -> str:
        return ratings.format_rating(self.mu, self.sigma)


class Pool(models.TextChoices):
    """The rating pools (docs/members.md): a rated game with a bot account in it
    rates in the bots' pool, every other rated game in the people's."""

    PEOPLE = "people", _("People")
    BOTS = "bots", _("Bots")


class Rating(RatingFigures, models.Model):
    """One member's OpenSkill rating in one ranked mode and one pool (see accounts.ratings)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    mode = models.CharField(_("mode"), max_length=20, choices=MODE_CHOICES)
    pool = models.CharField(_("rating pool"), max_length=8, choices=Pool.choices, default=Pool.PEOPLE)
    mu = models.FloatField(default=ratings.MU)
    sigma = models.FloatField(default=ratings.SIGMA)
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "mode", "pool"], name="one_rating_per_mode_and_pool")]
        indexes = [models.Index(fields=["mode", "sigma", "mu"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user} {self.mode} {self.pool} {self.shown}"

    @property
    def skill(self) -> ratings.Skill:
        return ratings.Skill(mu=self.mu, sigma=self.sigma)


class Friendship(models.Model):
    """A friend request from ``from_user`` to ``to_user``; friends once accepted."""

    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_received"
    )
    accepted = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["from_user", "to_user"], name="one_request_per_pair"),
            models.CheckConstraint(condition=~Q(from_user=F("to_user")), name="no_friendship_with_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.from_user} -> {self.to_user}{'' if self.accepted else ' (pending)'}"






class RatedGame(models.Model):
    """The mark that a ranked game was rated: one row per game, so a game is
    rated once even if its end is announced twice."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rating_record")
    mode = models.CharField(_("mode"), max_length=20, choices=MODE_CHOICES)
    pool = models.CharField(_("rating pool"), max_length=8, choices=Pool.choices, default=Pool.PEOPLE)
    rated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")

    def __str__(self) -> str:
        return f"{self.mode} game {self.game_id}"


class RatingChange(models.Model):
    """One member's rating before and after one rated game."""

    class Outcome(models.TextChoices):
        WIN = "win", pgettext_lazy("outcome", "Won")
        DRAW = "draw", pgettext_lazy("outcome", "Draw")
        LOSS = "loss", pgettext_lazy("outcome", "Lost")

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    # How much this game counted (accounts.ratings.repeat_weight): 1, or 1/k
    # for the k-th game of the same two members within a day.
    weight = models.FloatField(default=1.0)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [models.UniqueConstraint(fields=["rated_game", "user"], name="one_change_per_player")]

    def __str__(self) -> str:
        return f"{self.user}: {self.delta:+d} ({self.rated_game})"

    @property
    def delta(self) -> int:
        return ratings.display_rating(self.mu_after) - ratings.display_rating(self.mu_before)


class Abandonment(models.Model):
    """A game a member left (fair conduct, docs/moderation.md): the clock ended
    it while they were away, a computer was still standing in for them at its
    end, or the server played several of their turns in a row. One per game
    and seat; the queue ban (accounts.conduct) is worked out from their times."""

    class Kind(models.TextChoices):
        LEFT = "left", _("left the game")
        STAND_IN = "stand_in", _("a computer played for them to the end")
        TIMEOUTS = "timeouts", _("let the clock run out turn after turn")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="abandonments")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="abandonments")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("abandoned game")
        verbose_name_plural = _("abandoned games")
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_abandonment_per_seat")]
        indexes = [models.Index(fields=["user", "at"], name="abandonment_by_member")]

    def __str__(self) -> str:
        return f"{self.user_id} left game {self.game_id} (seat {self.seat})"
