"""What the puzzles app hears from games: the periodic tick (search the
finished games) and the home page (the puzzle of the day); and what it
answers the members' pages: the puzzle rating over time on a profile, and
the member's part of their data file (``accounts.hooks.export_parts``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.dispatch import receiver
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.hooks import export_parts, profile_panels
from games.signals import home_page_panels, periodic_tick, review_mistake_puzzles
from puzzles import jobs, selectors, services
from puzzles.models import Attempt, PuzzleRating


@receiver(periodic_tick, dispatch_uid="puzzles.search")
def search_on_tick(sender: Any, **kwargs: Any) -> dict[str, int]:
    """Queue the puzzle search (its own task, ``puzzles.jobs``) when finished
    games wait for it; the tick itself searches nothing."""
    limit = int(getattr(settings, "PUZZLES_GAMES_PER_TICK", 2))
    if limit <= 0 or not services.games_to_search(1):
        return {}
    return {"puzzle_search_queued": int(jobs.queue_search(limit))}


@receiver(home_page_panels, dispatch_uid="puzzles.daily")
def daily_panel(sender: Any, request: HttpRequest, **kwargs: Any) -> str:
    puzzle = selectors.daily_puzzle()
    if puzzle is None:
        return ""
    return render_to_string("puzzles/_daily_card.html", {"puzzle": puzzle}, request=request)


@receiver(profile_panels, dispatch_uid="puzzles.profile_rating")
def profile_rating(sender: Any, request: HttpRequest, member: Any, **kwargs: Any) -> str:
    """The member's puzzle rating over time and their best streak (nothing
    before an answer that counts in either)."""
    history = selectors.rating_history(member.pk)
    best = selectors.best_streak(member.pk)
    if history is None and not best:
        return ""
    return render_to_string(
        "puzzles/_profile_rating.html",
        {"member": member, "history": history, "best_streak": best},
        request=request,
    )


@receiver(review_mistake_puzzles, dispatch_uid="puzzles.review_mistakes")
def mistake_puzzles(sender: Any, game: Any, seqs: dict[int, int], **kwargs: Any) -> dict[int, str]:
    """The review's mistakes whose position is a puzzle: {seq: the puzzle's page}."""
    return {
        seq: reverse("puzzles:puzzle", args=[puzzle_id])
        for seq, puzzle_id in selectors.puzzles_at_mistakes(game.table_id, seqs).items()
    }


@receiver(export_parts, dispatch_uid="puzzles.export")
def export_puzzle_data(sender: Any, member: Any, **kwargs: Any) -> dict[str, Any]:
    """The member's puzzle rating (OpenSkill's mu and sigma, the shown
    rating, the counts, the best streak) and every answer they gave, oldest
    first (the puzzle, the move, right or not, the rating before and after)."""
    rating = PuzzleRating.objects.filter(user_id=member.pk).first()
    attempts = Attempt.objects.filter(user_id=member.pk).order_by("created_at", "pk")
    return {
        "puzzle_rating": None
        if rating is None
        else {
            "rating": selectors.member_rating(member.pk),
            "mu": rating.mu,
            "sigma": rating.sigma,
            "solved": rating.solved,
            "failed": rating.failed,
            "best_streak": rating.best_streak,
            "updated_at": rating.updated_at.isoformat(),
        },
        "puzzle_answers": [
            {
                "puzzle": attempt.puzzle_id,
                "tile": attempt.tile,
                "end": attempt.end,
                "correct": attempt.correct,
                "rated": attempt.rated,
                "rating_before": attempt.rating_before,
                "rating_after": attempt.rating_after,
                "at": attempt.created_at.isoformat(),
            }
            for attempt in attempts
        ],
    }
