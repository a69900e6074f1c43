"""Computer turns that were lost, found and queued again: a task gone with a
restarted worker or server leaves a game waiting for the computer. The tasks
are idempotent (a turn queued twice plays once), so the sweep (``games.tasks``)
and a socket that connects (``resume_game``) may queue one again safely."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games import jobs
from games.play import selectors

logger = logging.getLogger(__name__)


def stall_after() -> timedelta:
    """How long without a move before a game waiting for the computer is
    deemed stalled (its task lost) and queued again."""
    seconds = getattr(settings, "GAMES_STALL_SECONDS", None)
    if seconds is None:
        seconds = 10 + 5 * settings.AI_MOVE_DELAY_MS / 1000
    return timedelta(seconds=seconds)


def requeue_stalled_games(*, idle_for: timedelta | None = None) -> int:
    """Queue a computer turn for every live game that waits for one and has
    not moved for ``idle_for`` (a lost task, a restarted worker or server)."""
    games = selectors.stalled_games(idle_for=stall_after() if idle_for is None else idle_for)
    for game in games:
        jobs.queue_computer_turn(game.pk, game.seq)
    if games:
        logger.info("resumed %d stalled game(s)", len(games))
    return len(games)


def resume_game(game_id: int) -> bool:
    """Queue the computer's turn at one game if it waits for it and has not
    moved for a while (a socket connected to it: maybe after a restart)."""
    game = selectors.get_game(game_id)
    if game is None or game.finished or game.table.status != game.table.Status.PLAYING:
        return False
    state = selectors.game_state(game)
    if state is None:
        return False
    if selectors.computer_job(state, selectors.table_seat_info(game.table_id)) is None:
        return False
    # Shorter than the sweep's threshold: someone is looking at this game.
    if game.updated_at > timezone.now() - timedelta(seconds=2 + settings.AI_MOVE_DELAY_MS / 1000):
        return False
    jobs.queue_computer_turn(game.pk, game.seq)
    return True
