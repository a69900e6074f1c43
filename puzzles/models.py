"""The puzzles' rows: each puzzle (a position of a finished game, its proven
answer and its rating), the games already searched, the attempts, and a
member's puzzle rating."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from accounts.ratings import MU, SIGMA


class Puzzle(models.Model):
    """A position of ``table``'s game after its event ``seq``: ``to_move``
    wins with ``solution_tile`` on one of ``solution_ends``."""

    class Kind(models.TextChoices):
        BLOCK = "block", "block"
        DOMINO = "domino", "domino"
        COUNT = "count", "count"
        # The second family (puzzles/inference.py): which tiles can the opponent still hold?
        INFER = "infer", "infer"

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="puzzles")
    seq = models.PositiveIntegerField()
    round = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    preset = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    teams = models.BooleanField(default=False)
    to_move = models.PositiveSmallIntegerField()
    # [low, high] and the accepted ends ("left", "right": both when they are one play).
    solution_tile = models.JSONField()
    solution_ends = models.JSONField()
    # Every play: {"tile": [a, b], "ends": [...], "result": "win"|"loss"|"none", "points": n}.
    alternatives = models.JSONField()
    # The best line from the solution to the round's end (generator.best_line's steps).
    line = models.JSONField()
    # What the page draws: {"hands": [[[a, b], ...], ...], "line": [[a, b], ...],
    # "boneyard": [[a, b], ...] (drawing order), "scores": [...]}.
    position = models.JSONField()
    nodes = models.PositiveIntegerField()
    # An inference puzzle's question and answer (inference.Inferred.to_dict(): "seat",
    # "opponent", "unseen", "possible", "held", "history"); None for the others.
    inference = models.JSONField(null=True, blank=True)
    mu = models.FloatField(default=MU)
    sigma = models.FloatField(default=SIGMA)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq", "kind"], name="one_puzzle_per_position_and_kind")
        ]

    def __str__(self) -> str:
        return f"puzzle {self.pk} ({self.kind}, table {self.table_id} after {self.seq})"


class SearchedGame(models.Model):
    """A finished game the generator has searched (once: generation is
    deterministic), and how many puzzles it gave."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="puzzle_search")
    found = models.PositiveSmallIntegerField(default=0)
    nodes = models.PositiveIntegerField(default=0)
    searched_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.found} puzzles"


class PuzzleRating(models.Model):
    """A member's puzzle rating (OpenSkill, as accounts.ratings)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating"
    )
    mu = models.FloatField(default=MU)
    sigma = models.FloatField(default=SIGMA)
    solved = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    # The longest run of right answers in the streak mode (/puzzles/streak/).
    best_streak = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"puzzle rating of {self.user_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class Attempt(models.Model):
    """One answer to a puzzle, by a member or a guest (their session key).
    Only a member's first answer to a puzzle is ``rated``."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True)
    session_key = models.CharField(max_length=64, blank=True, default="")
    tile = models.JSONField()
    end = models.CharField(max_length=8)
    correct = models.BooleanField()
    rated = models.BooleanField(default=False)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "puzzle"])]

    def __str__(self) -> str:
        return f"answer to puzzle {self.puzzle_id}: {'right' if self.correct else 'wrong'}"
