"""Receivers of the tournaments: the periodic tick runs their job
(``games.signals.periodic_tick``: the schedule, the starts, the waves, the
ends), the home page shows the next tournament (``home_page_panels``), and a finished game is scored and its
players paired again (``games.signals.game_finished``, after the commit)."""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver
from django.http import HttpRequest
from django.template.loader import render_to_string

from games.models import Game, Table
from games.play.modes import RANKED_MODES
from games.signals import game_finished, home_page_panels, periodic_tick
from tournaments import selectors, services

logger = logging.getLogger(__name__)


@receiver(periodic_tick, dispatch_uid="tournaments.tick")
def tournaments_tick(sender: Any, **_kwargs: Any) -> dict[str, dict[str, int]]:
    return {"tournaments": services.tick()}


@receiver(home_page_panels, dispatch_uid="tournaments.next")
def next_tournament_panel(sender: Any, request: HttpRequest, **_kwargs: Any) -> str:
    """The home page's card of the next public tournament (none: nothing)."""
    tournament = selectors.next_tournament()
    if tournament is None:
        return ""
    context = {
        "t": tournament,
        "mode": RANKED_MODES.get(tournament.mode),
        "seconds_left": selectors.seconds_left(tournament),
    }
    return render_to_string("tournaments/_home_panel.html", context, request=request)


@receiver(game_finished, dispatch_uid="tournaments.score")
def score_finished_game(sender: Any, game: Game, table: Table, **_kwargs: Any) -> None:
    try:
        services.after_game(table_id=table.pk)
    except Exception:
        # The periodic tick scores what a lost signal left (services.score_missed).
        logger.exception("could not score the tournament game of table %d", table.pk)
