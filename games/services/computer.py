"""The computer's turns: the body of the ``compute_ai_move`` task.

Idempotent: it acts only if the game is still at event ``seq`` and waits for
the computer, and it applies its move through ``play_move`` with
``expected_seq``, so a repeated or late task changes nothing.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from games import selectors
from games.engine import view_for
from games.models import Table

from .errors import GameError
from .play import play_move, start_next_round

logger = logging.getLogger(__name__)


def _pause(since: datetime, delay_ms: float) -> None:
    """Sleep until ``delay_ms`` after ``since`` (the last move), so that the
    thinking time and the queue's latency count in the pause."""
    elapsed_ms = (timezone.now() - since).total_seconds() * 1000
    remaining = min(delay_ms, delay_ms - elapsed_ms)
    if remaining > 0:
        time.sleep(remaining / 1000)


def move_delay_ms() -> int:
    return int(getattr(settings, "AI_MOVE_DELAY_MS", 0))


def ai_budget_ms() -> float:
    """The hard level's thinking budget (``AI_BUDGET_MS``, default the AI's own)."""
    from games.ai import DEFAULT_BUDGET_MS

    budget = getattr(settings, "AI_BUDGET_MS", None)
    return DEFAULT_BUDGET_MS if budget is None else budget


def round_pause_ms() -> int:
    """The pause before the server deals the next round of a table without people."""
    return int(getattr(settings, "ROUND_PAUSE_MS", 4 * move_delay_ms()))


def take_computer_turn(*, game_id: int, seq: int) -> str:
    """Play the computer's move (or deal the next round of a table without
    people) if the game still waits for it at event ``seq``.

    Returns what happened: "played", "dealt", or "nothing" (stale task, not a
    computer's turn, finished game)."""
    from games.ai import choose_action

    game = selectors.get_game(game_id)
    if game is None or game.seq != seq or game.finished or game.table.status != Table.Status.PLAYING:
        return "nothing"
    state = selectors.game_state(game)
    if state is None:
        return "nothing"
    job = selectors.computer_job(state, selectors.table_seat_info(game.table_id))
    if job is None:
        return "nothing"
    try:
        if job.seat is None:
            _pause(game.updated_at, round_pause_ms())
            start_next_round(game_id=game_id, seat=None, expected_seq=seq)
            return "dealt"
        # The computer reads its seat's view only, never the real state.
        view = view_for(state, job.seat)
        # The hard level counts its budget in simulated work, not wall time:
        # with the seed and the budget recorded, the move can be recomputed.
        budget_ms = ai_budget_ms()
        action = choose_action(view, job.level, seed=selectors.ai_seed(game, seq), budget_ms=budget_ms)
        _pause(game.updated_at, move_delay_ms())
        play_move(
            game_id=game_id,
            seat=job.seat,
            action=action,
            expected_seq=seq,
            by="computer",
            computer={"level": job.level, "budget_ms": budget_ms},
        )
        return "played"
    except GameError as error:
        # Someone else moved first (a duplicate task, a resignation): nothing to do.
        logger.info("computer turn of game %s at %s skipped: %s", game_id, seq, error.reason)
        return "nothing"
