"""Reads of the coach: the reviews the periodic sweep still has to compute.
Nothing here writes."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.models import Game, GameReview, Table


def review_lease() -> timedelta:
    """How long a started review is left to its task before another may take
    it over (``REVIEW_LEASE_SECONDS``; a review of a long game takes a minute)."""
    return timedelta(seconds=float(getattr(settings, "REVIEW_LEASE_SECONDS", 600)))


def missing_reviews(*, limit: int = 5) -> list[int]:
    """Finished games, newest first, whose review is missing (a game finished
    before reviews existed, a lost task) or whose computation was abandoned
    (its lease ran out). Read by the periodic sweep (``services.requeue_missing_reviews``),
    which queues them: a page never queues work while it renders."""
    stale_pending = Q(review__status=GameReview.Status.PENDING) & (
        Q(review__started_at__isnull=True) | Q(review__started_at__lt=timezone.now() - review_lease())
    )
    return list(
        Game.objects.filter(finished_at__isnull=False, table__status=Table.Status.FINISHED, state__isnull=False)
        .filter(Q(review__isnull=True) | stale_pending)
        .order_by("-finished_at")
        .values_list("pk", flat=True)[:limit]
    )
