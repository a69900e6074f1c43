"""Where computer turns run.

- With a broker (``REDIS_URL``, not eager): ``compute_ai_move.apply_async`` to
  the Celery workers.
- Embedded mode (``CELERY_TASK_ALWAYS_EAGER``): the same task code runs in
  this process on a small pool of background threads, after the caller's
  commit and never inside the caller's thread or transaction.
- ``GAMES_DISPATCH = "queue"`` (tests): jobs wait in ``PENDING`` until
  ``run_pending()`` runs them one by one in the calling thread.

Post-game reviews (``queue_review``, on ``game_finished``) go the same way.

Tasks are idempotent, so queueing a turn twice is harmless: the sweep uses
that to resume games after a restart (``requeue_stalled_games``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from django.conf import settings
from django.db import OperationalError, close_old_connections, connection
from django.utils import timezone

from games.coach import review
from games.play import selectors, services

logger = logging.getLogger(__name__)

PENDING: deque[tuple[int, int]] = deque()
# Attempts of an in-process computer turn when the database is locked.
LOCKED_RETRIES = 5
_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()
_sweeper_started = False


def mode() -> str:
    """"celery", "thread" or "queue" (``GAMES_DISPATCH``, default by the eager flag)."""
    configured = getattr(settings, "GAMES_DISPATCH", "auto")
    if configured != "auto":
        return configured
    return "thread" if settings.CELERY_TASK_ALWAYS_EAGER else "celery"


def _pool() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=int(getattr(settings, "GAMES_EMBEDDED_WORKERS", 8)),
                thread_name_prefix="computer-turn",
            )
        return _executor


def _in_pool_thread(work: Callable[[], object], failure: str, *args: object) -> None:
    """Run ``work`` on a pool thread: again (with a growing pause) while
    SQLite is busy beyond its timeout (the computer's work is idempotent),
    logging ``failure % args`` if it fails for good; no connection is kept
    between turns (pool threads are few and long-lived)."""
    close_old_connections()
    try:
        for attempt in range(LOCKED_RETRIES):
            try:
                work()
                return
            except OperationalError:
                if attempt == LOCKED_RETRIES - 1:
                    raise
                connection.close()
                time.sleep(0.05 * 2**attempt)
    except Exception:
        logger.exception(failure, *args)
    finally:
        connection.close()


def _run_in_thread(game_id: int, seq: int) -> None:
    from games.tasks import compute_ai_move

    _in_pool_thread(
        lambda: compute_ai_move(game_id, seq), "computer turn of game %s at event %s failed", game_id, seq
    )


def queue_computer_turn(game_id: int, seq: int) -> None:
    """Have the computer act at ``game_id`` if it still waits at event ``seq``.
    Call after the commit (``transaction.on_commit``)."""
    how = mode()
    if how == "queue":
        PENDING.append((game_id, seq))
    elif how == "thread":
        _pool().submit(_run_in_thread, game_id, seq)
    else:
        from games.tasks import compute_ai_move

        try:
            compute_ai_move.apply_async((game_id, seq))
        except Exception:
            # The broker is away: the periodic sweep queues the turn again.
            logger.exception("could not queue the computer turn of game %s", game_id)


# Post-game reviews waiting in "queue" mode (tests): game ids.
PENDING_REVIEWS: deque[int] = deque()


def _review_in_thread(game_id: int) -> None:
    from games.tasks import review_game

    close_old_connections()
    try:
        review_game(game_id)
    except Exception:
        logger.exception("the review of game %s failed", game_id)
    finally:
        close_old_connections()


def queue_review(game_id: int) -> None:
    """Have the post-game review of a finished game computed (games.coach.review),
    like a computer turn: a Celery task, a background thread, or the test
    queue. Idempotent, so queueing it twice is harmless."""
    how = mode()
    if how == "queue":
        PENDING_REVIEWS.append(game_id)
    elif how == "thread":
        _pool().submit(_review_in_thread, game_id)
    else:
        from games.tasks import review_game

        try:
            review_game.apply_async((game_id,))
        except Exception:
            # The broker is away: the periodic sweep queues it again.
            logger.exception("could not queue the review of game %s", game_id)


def run_pending_reviews() -> int:
    """Run the queued reviews ("queue" mode); returns how many ran."""
    from games.tasks import review_game

    ran = 0
    while PENDING_REVIEWS:
        review_game(PENDING_REVIEWS.popleft())
        ran += 1
    return ran


def apply_computer_turn_later(decision: services.ComputerDecision) -> None:
    """Embedded mode: apply a decided computer move once its pause is over,
    from a timer, so that the pool's threads never sleep through it. In
    "queue" mode (tests): at once."""
    if mode() == "queue":
        services.apply_computer_turn(decision)
        return
    timer = threading.Timer(decision.wait_ms / 1000, lambda: _pool().submit(_apply_in_thread, decision))
    timer.daemon = True
    timer.start()


def _apply_in_thread(decision: services.ComputerDecision) -> None:
    _in_pool_thread(
        lambda: services.apply_computer_turn(decision),
        "computer move of game %s at event %s failed",
        decision.game_id,
        decision.seq,
    )


def run_pending(*, limit: int = 100_000) -> int:
    """Run the queued jobs ("queue" mode) until none is left; returns how many ran."""
    from games.tasks import compute_ai_move

    ran = 0
    while PENDING and ran < limit:
        game_id, seq = PENDING.popleft()
        compute_ai_move(game_id, seq)
        ran += 1
    return ran


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
        queue_computer_turn(game.pk, game.seq)
    if games:
        logger.info("resumed %d stalled game(s)", len(games))
    return len(games)


def requeue_missing_reviews() -> int:
    """Queue the reviews of finished games that have none, or whose
    computation was abandoned (a few per sweep, newest first)."""
    missing = review.missing_reviews()
    for game_id in missing:
        queue_review(game_id)
    return len(missing)


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
    queue_computer_turn(game.pk, game.seq)
    return True


def _sweep_forever(every: float) -> None:
    stop = threading.Event()
    while not stop.wait(every):
        close_old_connections()
        try:
            requeue_stalled_games()
            requeue_missing_reviews()
        except Exception:
            logger.exception("the stalled-games sweep failed")
        finally:
            close_old_connections()


def start_embedded_sweeper() -> None:
    """In embedded mode (no Celery beat), sweep stalled games from a daemon
    thread of this process: once now, then every ``GAMES_SWEEP_SECONDS``
    (0 disables it, as in the tests). Started by the first table socket."""
    global _sweeper_started
    every = float(getattr(settings, "GAMES_SWEEP_SECONDS", 30))
    if mode() != "thread" or every <= 0:
        return
    with _executor_lock:
        if _sweeper_started:
            return
        _sweeper_started = True

    def first_then_forever() -> None:
        close_old_connections()
        try:
            requeue_stalled_games(idle_for=timedelta(seconds=2))
        except Exception:
            logger.exception("the startup sweep failed")
        finally:
            close_old_connections()
        _sweep_forever(every)

    threading.Thread(target=first_then_forever, name="stalled-games-sweep", daemon=True).start()
