"""The puzzles' reads: the next puzzle for a viewer, the puzzle of the day,
a member's rating and history, the public JSON and CSV rows."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.charts import time_chart
from accounts.ratings import MU, SIGMA, display_rating, format_rating
from puzzles.models import Attempt, Puzzle, PuzzleRating

HISTORY_LENGTH = 50


def get_puzzle(puzzle_id: int) -> Puzzle | None:
    return Puzzle.objects.filter(pk=puzzle_id).first()


def member_skill(user_id: int) -> tuple[float, float]:
    row = PuzzleRating.objects.filter(user_id=user_id).first()
    return (row.mu, row.sigma) if row is not None else (MU, SIGMA)


def member_rating(user_id: int) -> str:
    """The member's puzzle rating as shown ("1500?" while provisional)."""
    mu, sigma = member_skill(user_id)
    return format_rating(mu, sigma)


def puzzle_rating(puzzle: Puzzle) -> int:
    return display_rating(puzzle.mu)


def next_puzzle(*, user_id: int | None, seen: Iterable[int] = ()) -> Puzzle | None:
    """A member: the puzzle nearest their rating among those they have not
    answered (the lowest id on a tie). A guest: the first puzzle not in
    ``seen`` (the ones their session answered). None when none is left."""
    queryset: QuerySet[Puzzle] = Puzzle.objects.all()
    if user_id is None:
        return queryset.exclude(pk__in=list(seen)).order_by("id").first()
    mu, _sigma = member_skill(user_id)
    answered = Attempt.objects.filter(user_id=user_id).values("puzzle_id")
    remaining = queryset.exclude(pk__in=answered)
    above = remaining.filter(mu__gte=mu).order_by("mu", "id").first()
    below = remaining.filter(mu__lt=mu).order_by("-mu", "id").first()
    if above is None or below is None:
        return above or below
    return above if above.mu - mu <= mu - below.mu else below


def daily_puzzle(day: dt.date | None = None) -> Puzzle | None:
    """The puzzle of the day: among the puzzles made before the day began
    (so that none made during the day changes it), the one a hash of the
    date picks. None while there is none."""
    day = day or timezone.localdate()
    start = timezone.make_aware(dt.datetime.combine(day, dt.time.min))
    before = Puzzle.objects.filter(created_at__lt=start).order_by("id")
    count = before.count()
    if not count:
        return None
    index = int.from_bytes(hashlib.sha256(day.isoformat().encode()).digest()[:8], "big") % count
    return before[index]


def history(user_id: int, limit: int = HISTORY_LENGTH) -> list[Attempt]:
    """A member's answers, newest first, with their puzzles."""
    return list(Attempt.objects.filter(user_id=user_id).select_related("puzzle")[:limit])


# The newest rated answers the profile's chart of the puzzle rating draws.
RATING_POINTS = 200


def rating_history(user_id: int, *, limit: int = RATING_POINTS) -> dict[str, Any] | None:
    """The member's puzzle rating over time, for their profile: the shown rating
    after each of their last ``limit`` rated answers (a member's first answer to
    a puzzle, ``Attempt.rated``), oldest first, the one before the first, and
    the chart's JSON; None before any rated answer."""
    rows = list(
        Attempt.objects.filter(user_id=user_id, rated=True, rating_after__isnull=False)
        .order_by("-created_at", "-pk")
        .values_list("created_at", "rating_before", "rating_after", "correct")[:limit]
    )
    if not rows:
        return None
    rows.reverse()
    points = [(moment, display_rating(after), correct) for moment, _before, after, correct in rows if after is not None]
    first_before = rows[0][1]
    return {
        "points": points,
        "start": display_rating(first_before if first_before is not None else MU),
        "last": points[-1][1],
        "solved": sum(1 for point in points if point[2]),
        "chart": time_chart(
            [moment for moment, _value, _correct in points],
            [(_("Puzzle rating"), [value for _moment, value, _correct in points], "line")],
            y_label=_("Rating"),
        ),
    }


def seen_by_session(session_key: str) -> list[int]:
    if not session_key:
        return []
    return list(
        Attempt.objects.filter(~Q(session_key=""), session_key=session_key).values_list(
            "puzzle_id", flat=True
        )
    )


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """The public description of a puzzle (docs/puzzles.md)."""
    if puzzle.kind == Puzzle.Kind.INFER and puzzle.inference is not None:
        question = puzzle.inference
        return {
            "id": puzzle.pk,
            "kind": puzzle.kind,
            "source_table": puzzle.table_id,
            "seq": puzzle.seq,
            "round": puzzle.round,
            "to_move": puzzle.to_move,
            "opponent": question["opponent"],
            "solution": {"tiles": list(question["possible"])},
            "unseen": list(question["unseen"]),
            "line": [],
            "alternatives": [],
            "preset": puzzle.preset,
            "players": puzzle.players,
            "teams": puzzle.teams,
            "rating": puzzle_rating(puzzle),
            "nodes": 0,
        }
    return {
        "id": puzzle.pk,
        "kind": puzzle.kind,
        "source_table": puzzle.table_id,
        "seq": puzzle.seq,
        "round": puzzle.round,
        "to_move": puzzle.to_move,
        "solution": {"tile": list(puzzle.solution_tile), "end": puzzle.solution_ends[0]},
        "equivalent_ends": list(puzzle.solution_ends),
        "line": list(puzzle.line),
        "alternatives": list(puzzle.alternatives),
        "preset": puzzle.preset,
        "players": puzzle.players,
        "teams": puzzle.teams,
        "rating": puzzle_rating(puzzle),
        "nodes": puzzle.nodes,
    }


CSV_FIELDS = ("id", "kind", "source_table", "seq", "to_move", "solution", "line", "preset", "rating")


def csv_rows() -> Iterator[list[str]]:
    """The header then one row per puzzle (the solution as ``a-b end``, the line as JSON)."""
    yield list(CSV_FIELDS)
    for puzzle in Puzzle.objects.order_by("id").iterator():
        if puzzle.kind == Puzzle.Kind.INFER and puzzle.inference is not None:
            # The solution: the tiles the opponent may hold.
            solution = " ".join(f"{low}-{high}" for low, high in puzzle.inference["possible"])
        else:
            low, high = puzzle.solution_tile
            solution = f"{low}-{high} {puzzle.solution_ends[0]}"
        yield [
            str(puzzle.pk),
            puzzle.kind,
            str(puzzle.table_id),
            str(puzzle.seq),
            str(puzzle.to_move),
            solution,
            json.dumps(puzzle.line, separators=(",", ":")),
            puzzle.preset,
            str(puzzle_rating(puzzle)),
        ]


def streak_next(*, after: tuple[float, int] | None, done: Iterable[int] = ()) -> Puzzle | None:
    """The streak mode's next puzzle: the easiest one (the lowest puzzle
    rating, then the lowest id) harder than ``after`` (the rating and id of
    the run's last puzzle when it was dealt) and not in ``done``; None when
    the run has gone through every puzzle."""
    queryset: QuerySet[Puzzle] = Puzzle.objects.exclude(pk__in=list(done))
    if after is not None:
        mu, pk = after
        queryset = queryset.filter(Q(mu__gt=mu) | Q(mu=mu, pk__gt=pk))
    return queryset.order_by("mu", "id").first()


def best_streak(user_id: int) -> int:
    row = PuzzleRating.objects.filter(user_id=user_id).only("best_streak").first()
    return row.best_streak if row is not None else 0


def puzzles_at_mistakes(table_id: int, mistakes: dict[int, int]) -> dict[int, int]:
    """{a move's seq: the puzzle id} for the moves of ``mistakes`` ({seq: the
    seat that played it}) whose position, just before the move (after the
    event ``seq - 1``), is a puzzle with that seat to play."""
    rows = Puzzle.objects.filter(table_id=table_id, seq__in=[seq - 1 for seq in mistakes]).values_list(
        "seq", "to_move", "id"
    )
    return {seq + 1: pk for seq, to_move, pk in rows if mistakes.get(seq + 1) == to_move}
