"""Receivers: a profile for every new member, ratings when a ranked game ends."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts import services
from games.signals import game_finished

logger = logging.getLogger(__name__)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender: Any, instance: Any, created: bool, **_kwargs: Any) -> None:
    if created:
        services.ensure_profile(user=instance)


@receiver(game_finished)
def rate_game(sender: Any, game: Any, table: Any, **_kwargs: Any) -> None:
    # Sent after the commit that ended the game: a failure here must not
    # break the move that ended it; the periodic sweep rates missed games.
    try:
        record = services.rate_finished_game(game_id=game.pk)
    except Exception:
        logger.exception("rating game %s failed", game.pk)
        return
    if record is not None:
        services.announce_rating_changes(record=record)
