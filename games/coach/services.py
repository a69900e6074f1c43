"""The only writes of the coach: the stored post-game review (``GameReview``),
computed once per game (``games.coach.review.build_review``) under a lease, so
that a repeated, redelivered or concurrent task does not compute it twice.
``review_game(game_id=...)`` is the body of the Celery task queued when a game
ends (``games.tasks.review_game``)."""

from __future__ import annotations

import logging

from django.db import IntegrityError
from django.db.models import Q
from django.utils import timezone

from games import jobs
from games.coach.review import REVIEW_VERSION, build_review
from games.coach.selectors import missing_reviews, review_lease
from games.fairplay.fairness import is_published
from games.models import Game, GameReview

logger = logging.getLogger(__name__)


def _claim(game: Game) -> GameReview | None:
    """The review row of ``game``, claimed for this task; None when it is
    done already or another task is computing it (within its lease)."""
    now = timezone.now()
    try:
        review, created = GameReview.objects.get_or_create(game=game, defaults={"started_at": now})
    except IntegrityError:  # created meanwhile by a concurrent task
        return None
    if created:
        return review
    if review.status == GameReview.Status.READY and (review.data or {}).get("version") == REVIEW_VERSION:
        return None
    free = (
        Q(status=GameReview.Status.FAILED)
        | Q(status=GameReview.Status.READY)  # an older version of the review
        | Q(started_at__isnull=True)
        | Q(started_at__lt=now - review_lease())
    )
    if not GameReview.objects.filter(pk=review.pk).filter(free).update(status=GameReview.Status.PENDING, started_at=now):
        return None
    return review


def review_game(*, game_id: int) -> str:
    """Compute and store the review of a finished game, once: "reviewed",
    "exists" (already done), "running" (another task is on it), "not_finished"
    or "no_game". Idempotent: a repeated, redelivered or concurrent task
    leaves one row with the same content and does not compute it twice."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return "no_game"
    if not is_published(game):
        return "not_finished"
    review = _claim(game)
    if review is None:
        done = GameReview.objects.filter(game=game, status=GameReview.Status.READY).exists()
        return "exists" if done else "running"
    try:
        data = build_review(game)
    except Exception:
        logger.exception("the review of game %s failed", game_id)
        GameReview.objects.filter(pk=review.pk).update(status=GameReview.Status.FAILED, finished_at=timezone.now())
        raise
    GameReview.objects.filter(pk=review.pk).update(
        status=GameReview.Status.READY, data=data, finished_at=timezone.now()
    )
    return "reviewed"


def requeue_missing_reviews() -> int:
    """Queue the reviews of finished games that have none, or whose
    computation was abandoned (a few per sweep, newest first)."""
    missing = missing_reviews()
    for game_id in missing:
        jobs.queue_review(game_id)
    return len(missing)
