"""What the puzzles app hears from games: the periodic tick (search the
finished games) and the home page (the puzzle of the day); and what it
answers the members' pages: the puzzle rating over time on a profile."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.dispatch import receiver
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.hooks import profile_panels
from games.signals import home_page_panels, periodic_tick, review_mistake_puzzles
from puzzles import selectors, services


@receiver(periodic_tick, dispatch_uid="puzzles.search")
def search_on_tick(sender: Any, **kwargs: Any) -> dict[str, int]:
    limit = int(getattr(settings, "PUZZLES_GAMES_PER_TICK", 2))
    if limit <= 0:
        return {}
    return {"puzzles": services.search_finished_games(limit=limit)}


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
