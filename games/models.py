"""Tables, seats, games and their append-only move log.

Only ``games.play.services`` writes these rows. A game's truth is its private seed
plus its numbered moves: ``Game.state`` is a cache of the engine state after
move ``Game.seq`` (``games.play.selectors.rebuild_state`` recomputes it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Table(models.Model):
    """Where a game is played: who sits, who may watch, how far it got."""

    class Kind(models.TextChoices):
        COMPUTER = "computer", _("Against the computer")
        PRIVATE = "private", _("Private table")
        RANKED = "ranked", _("Ranked")
        # A table of a room with stakes in chips (the lobby keeps its room facts).
        ROOM = "room", _("Room table")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    kind = models.CharField(max_length=16, choices=Kind.choices)
    # Public tables may be watched by anyone (spectators see public information only).
    public = models.BooleanField(default=True)
    # The ranked mode key (games.play.modes) for ranked tables, else "".
    mode = models.CharField(max_length=32, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Rematch (games.play.services.rematch): the seats of the people who asked for
    # one after this game, and the table of the rematch once everyone did.
    rematch_seats = models.JSONField(default=list, blank=True)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
        indexes = [models.Index(fields=["status", "kind"])]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.kind}, {self.status})"

    @property
    def ranked(self) -> bool:
        return self.kind == self.Kind.RANKED

    @property
    def staked(self) -> bool:
        """Ranked or played for chips: no hints, no help."""
        return self.kind in (self.Kind.RANKED, self.Kind.ROOM)

    @property
    def live(self) -> bool:
        return self.status in (self.Status.WAITING, self.Status.PLAYING)


class Seat(models.Model):
    """One place at a table, in turn order: a member, a guest (by session key),
    a computer (by level), or still open (none of the three)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    guest_key = models.CharField(max_length=64, blank=True, default="", db_index=True)
    # Computer level ("easy", "medium", "hard"); "" for a person or an open seat.
    level = models.CharField(max_length=16, blank=True, default="")
    # Stored display name: the username for members; "" for guests and
    # computers, whose names are translated when shown (games.play.selectors).
    name = models.CharField(max_length=150, blank=True, default="")
    # A bot account's seat (docs/api.md): its name is marked wherever it shows.
    # Set when a member takes the seat, from the apps above (games.signals.
    # member_bots: the flag is the members' app's); an account becomes a bot only
    # before its first seat, so the flag never changes after.
    bot = models.BooleanField(default=False)
    # One game at a time (games.play.services.seats): True while this seat is its
    # member's game, a seat at a live table with other people or open seats
    # (not a computer table). At most one per member: a partial unique index.
    engaged = models.BooleanField(default=False)
    # This seat's share of the turn time, in percent (games.live.clock): 100
    # for everyone, 50 for a tournament player who went berserk (set when the
    # table is opened, or before the first move: games.play.services.tables).
    turn_percent = models.PositiveSmallIntegerField(default=100)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["user"], condition=models.Q(engaged=True), name="one_game_per_member"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of table {self.table_id}"

    @property
    def is_computer(self) -> bool:
        return bool(self.level)

    @property
    def is_human(self) -> bool:
        return not self.level and (self.user_id is not None or bool(self.guest_key))

    @property
    def kind(self) -> str:
        """"computer", "human" or "open" (nobody sits yet)."""
        if self.level:
            return "computer"
        return "human" if self.is_human else "open"


class Game(models.Model):
    """One game at a table: its rules, private seed and cached engine state."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    preset = models.CharField(max_length=32)
    rules = models.JSONField()  # Rules.to_dict()
    # The deal comes from this seed: it never leaves the server while the game
    # is live. ``commitment`` (SHA-256 of it) is public from the start.
    seed = models.CharField(max_length=128)
    commitment = models.CharField(max_length=64)
    # A member's salt (private tables; games.fairplay.fairness): the server committed
    # to ``server_seed`` (``commitment`` is then its SHA-256) before the salt
    # was chosen, and ``seed`` = games.engine.salted_seed(server_seed,
    # salt). Both "" for an unsalted game, whose ``seed`` is the server's.
    server_seed = models.CharField(max_length=128, blank=True, default="")
    salt = models.CharField(max_length=64, blank=True, default="")
    # Number of the last move (event); 0 before any move.
    seq = models.PositiveIntegerField(default=0)
    # The hash of the chained move log after move ``seq`` (games.fairplay.move_chain); ""
    # before the first move (the head is then the chain's genesis).
    chain = models.CharField(max_length=64, blank=True, default="")
    # dump_state() after move ``seq``; None until the game starts.
    state = models.JSONField(null=True, blank=True)
    # Denormalised from the state for the stalled-game sweep: the seat to act
    # (None between rounds and after the end) and whether a round is over.
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    round_over = models.BooleanField(default=False)
    # Seats (numbers) that offered a draw in the current round.
    draw_offers = models.JSONField(default=list, blank=True)
    # When the game is over: {"scores", "winner", "reason", "resigned",
    # "rounds", "rounds_played", "aborted"} (games.play.services.moves.finish_result).
    result = models.JSONField(null=True, blank=True)
    # The winning seat, or the winning pair (0 or 1) with pairs; None for a draw.
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # True only for a game stored before commitments were unique whose
    # commitment an earlier game already had (set by migration 0008, never
    # since): every other game's commitment is its own (docs/fair-play.md).
    shared_commitment = models.BooleanField(default=False)
    # A table of a duplicate tournament round (docs/fair-play.md, "Duplicate
    # rounds"): every table of the round deals from the round's seed, whose
    # SHA-256 is ``round_commitment``; the game's own ``commitment`` is
    # games.engine.table_commitment(seed, table). "" for any other game.
    round_commitment = models.CharField(max_length=64, blank=True, default="")
    # While True the seed is not published even once the game is over (the
    # other tables of its round still play the same deal): set by
    # create_table for a round's table, cleared by games.play.services.unseal.
    sealed = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["finished_at", "updated_at"])]
        constraints = [
            # One committed seed deals one game: a second game with the same
            # commitment would deal the same hands as the first.
            models.UniqueConstraint(
                fields=["commitment"], condition=models.Q(shared_commitment=False), name="game_commitment_unique"
            )
        ]

    def __str__(self) -> str:
        return f"game {self.pk} at table {self.table_id} (seq {self.seq})"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def aborted(self) -> bool:
        """Ended without being played (games.outcome): stopped by the server or
        the staff, or resigned or agreed drawn before any tile beyond the
        opening. Not rated, no experience, the stakes return."""
        return bool((self.result or {}).get("aborted"))


class Move(models.Model):
    """One event of a game, numbered from 1; rows are only ever inserted."""

    class Kind(models.TextChoices):
        PLAY = "play", pgettext_lazy("move", "Play")
        DRAW = "draw", pgettext_lazy("move", "Draw")
        PASS = "pass", pgettext_lazy("move", "Pass")
        NEXT_ROUND = "next_round", pgettext_lazy("move", "Next round")
        AGREE_DRAW = "agree_draw", pgettext_lazy("move", "Agreed draw")
        RESIGN = "resign", pgettext_lazy("move", "Resign")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    # The acting seat; None for a move made by nobody in particular (an
    # automatic next round, an agreed draw).
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # play: {"tile": [a, b], "end": "left"|"right"}; draw: {"tile": [a, b]} (the
    # drawn tile, private to the drawer); "by": "computer" or "server" when
    # not the seat's person acted; "computer": {"level", "budget_ms",
    # "version"}, how a computer chose it (games.ai.decision_record; no
    # "version" for moves recorded before versions, docs/fair-play.md).
    payload = models.JSONField(default=dict, blank=True)
    # The chain's head after this move: SHA-256 over the previous head and this
    # move's public part (games.fairplay.move_chain, games.engine.chain).
    chain = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique")]

    def __str__(self) -> str:
        return f"move {self.seq} of game {self.game_id}: {self.kind}"


class GameReview(models.Model):
    """The post-game review of a finished game (games.coach.review): for each move
    of a person, the hard level's choice from their view and its estimated
    cost; for each computer move, its recomputation from the seat's view.
    One row per game, written by the idempotent review task."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Being computed")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    # games.coach.review.build_review(): {"version", "moves": [...], "computer": [...], ...}
    data = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the current computation started: a lease, so that a redelivered
    # task does not compute it again meanwhile (games.coach.services.review_game).
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"review of game {self.game_id} ({self.status})"


class SeedOffer(models.Model):
    """A server seed offered for a member's salt (games.fairplay.fairness): its
    commitment was shown on a form and may deal one game. Claiming it deletes
    this row, so that of two requests that claim it at once only one finds
    it (the session that was shown the seed is loaded by each request
    separately; this row is not)."""

    commitment = models.CharField(max_length=64, primary_key=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"seed offer {self.commitment[:12]}"


class Presence(models.Model):
    """A live socket (lobby or table), refreshed while it lives, counted as
    "online" by distinct member or guest session."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True)
    session_key = models.CharField(max_length=64, blank=True)
    # A table socket: its table, and the seat of its player (None: a spectator).
    table_id = models.PositiveBigIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        db_table = "accounts_presence"  # created by accounts; moved here without moving data
        indexes = [models.Index(fields=["table_id", "seat"], name="presence_by_seat")]

    def __str__(self) -> str:
        # Never the session key: it is a login (the admin shows this text).
        who = self.user or ("guest" if self.session_key else "anonymous")
        return f"{who} @ {self.channel_name}"


class StandIn(models.Model):
    """A computer playing for a person who left a table of three or more
    (games.timers.stand_ins), until they come back."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="stand_ins")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    started_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "accounts_standin"  # created by accounts; moved here without moving data
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="one_stand_in_per_seat")]

    def __str__(self) -> str:
        return f"computer for seat {self.seat} of table {self.table_id}"
