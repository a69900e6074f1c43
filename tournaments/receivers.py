"""Receivers of the tournaments: the periodic tick runs their job
(``games.signals.periodic_tick``), and a finished game is scored and its
players paired again (``games.signals.game_finished``, after the commit)."""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from games.models import Game, Table
from games.signals import game_finished, periodic_tick
from tournaments import services

logger = logging.getLogger(__name__)


@receiver(periodic_tick, dispatch_uid="tournaments.tick")
def tournaments_tick(sender: Any, **_kwargs: Any) -> dict[str, dict[str, int]]:
    return {"tournaments": services.tick()}


@receiver(game_finished, dispatch_uid="tournaments.score")
def score_finished_game(sender: Any, game: Game, table: Table, **_kwargs: Any) -> None:
    try:
        services.after_game(table_id=table.pk)
    except Exception:
        # The periodic tick scores what a lost signal left (services.score_missed).
        logger.exception("could not score the tournament game of table %d", table.pk)
