"""The computer's turns: the body of the ``compute_ai_move`` task.

A turn is decided, then applied. Deciding reads the computer seat's view
only and chooses the action; applying goes through ``play_move`` with
``expected_seq``. Both are idempotent: nothing happens unless the game is
still at event ``seq`` and waits for the computer, so a repeated or late
task changes nothing.

Between the two, the move waits until ``AI_MOVE_DELAY_MS`` after the
previous move (the thinking time and the queue's latency count in it), so
that it reads like a person's. The wait is scheduled (a delayed task, a
timer), never slept by a worker: a worker's time goes to thinking only.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import jobs
from games.engine import action_from_json, action_to_json, view_for
from games.models import Table
from games.play import selectors
from games.play.services.errors import GameError
from games.play.services.moves import play_move, start_next_round

logger = logging.getLogger(__name__)


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


@dataclass(frozen=True, slots=True)
class ComputerDecision:
    """What the computer will do at ``game_id`` after event ``seq``: play
    ``action`` (a client frame with its seat) for ``seat``, or (``seat``
    None) deal the next round; ``wait_ms`` is the pause still due.
    JSON-serialisable through ``to_dict`` (a Celery argument)."""

    game_id: int
    seq: int
    seat: int | None
    action: dict[str, Any] | None = None
    computer: dict[str, Any] = field(default_factory=dict)
    wait_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ComputerDecision:
        return cls(**data)


def _wait_ms(since: datetime, delay_ms: float) -> float:
    """What remains of ``delay_ms`` after ``since`` (the last move)."""
    elapsed_ms = (timezone.now() - since).total_seconds() * 1000
    return max(0.0, min(delay_ms, delay_ms - elapsed_ms))


def decide_computer_turn(*, game_id: int, seq: int) -> ComputerDecision | None:
    """The computer's decision if the game still waits for it at event
    ``seq`` (else None: a stale task, a person's turn, a finished game)."""
    from games.ai import choose_action, decision_record

    game = selectors.get_game(game_id)
    if game is None or game.seq != seq or game.finished or game.table.status != Table.Status.PLAYING:
        return None
    state = selectors.game_state(game)
    if state is None:
        return None
    job = selectors.computer_job(state, selectors.table_seat_info(game.table_id))
    if job is None:
        return None
    if job.seat is None:
        return ComputerDecision(game_id, seq, None, wait_ms=_wait_ms(game.updated_at, round_pause_ms()))
    # The computer reads its seat's view only, never the real state. The hard
    # level counts its budget in simulated work, not wall time: with the
    # seed, the budget and the version of the computer recorded, anyone can
    # recompute the move.
    budget_ms = ai_budget_ms()
    view = view_for(state, job.seat)
    action = choose_action(view, job.level, seed=selectors.ai_seed(game, seq), budget_ms=budget_ms)
    return ComputerDecision(
        game_id,
        seq,
        job.seat,
        action=action_to_json(action, with_seat=True),
        computer=decision_record(job.level, budget_ms),
        wait_ms=_wait_ms(game.updated_at, move_delay_ms()),
    )


def apply_computer_turn(decision: ComputerDecision) -> str:
    """Apply a decision (through the services, with ``expected_seq``).
    Returns "played", "dealt", or "nothing" if the game moved on meanwhile."""
    try:
        if decision.seat is None:
            start_next_round(game_id=decision.game_id, seat=None, expected_seq=decision.seq)
            return "dealt"
        assert decision.action is not None
        play_move(
            game_id=decision.game_id,
            seat=decision.seat,
            action=action_from_json(decision.action),
            expected_seq=decision.seq,
            by="computer",
            computer=decision.computer,
        )
        return "played"
    except GameError as error:
        # Someone else moved first (a duplicate task, a resignation): nothing to do.
        logger.info("computer turn of game %s at %s skipped: %s", decision.game_id, decision.seq, error.reason)
        return "nothing"


def apply_computer_turn_later(decision: ComputerDecision) -> None:
    """Embedded mode: apply a decided computer move once its pause is over,
    from a timer, so that the pool's threads never sleep through it. In
    "queue" mode (tests): at once (games.jobs.run_later)."""
    jobs.run_later(
        decision.wait_ms / 1000,
        lambda: apply_computer_turn(decision),
        "computer move of game %s at event %s failed",
        decision.game_id,
        decision.seq,
    )


def take_computer_turn(*, game_id: int, seq: int) -> str:
    """Decide, wait in this thread, apply: the whole turn at once (scripts,
    tests). The task does the same without sleeping (games.tasks)."""
    decision = decide_computer_turn(game_id=game_id, seq=seq)
    if decision is None:
        return "nothing"
    if decision.wait_ms > 0:
        time.sleep(decision.wait_ms / 1000)
    return apply_computer_turn(decision)
