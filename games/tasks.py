"""Celery tasks of the games app. Thin: they call services.

``compute_ai_move(game_id, seq)`` is queued after every commit that leaves a
computer to act; ``review_game(game_id)`` after a game ends (on
``game_finished``); both are queued by name through ``games.jobs``, which
runs them on Celery, a thread of this process or the tests' queue.
``sweep_stalled_games`` runs periodically (Celery beat; without it, the thread
of ``start_embedded_sweeper``) and when a worker starts, and requeues lost
computer turns and missing reviews. Task names are ``games.tasks.<function>``
(the routes and beat schedule of the settings name them).
"""

from __future__ import annotations

import time
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings

from games import jobs
from games.coach import services as coach
from games.play import resume, services


@shared_task(ignore_result=True)
def compute_ai_move(game_id: int, seq: int) -> str:
    """Decide the computer's move at ``game_id`` if it still waits at event
    ``seq`` (a stale or repeated task does nothing: "nothing"), wait out the
    rest of its pause, and apply it ("played", "dealt"). In the embedded
    mode the pause is a timer instead ("scheduled"): the few in-process
    threads do not sleep. (A Celery worker sleeps through it: delayed ETA
    tasks did not survive a broker restart reliably, a sleeping task does;
    give the workers enough concurrency, e.g. ``--pool threads``.)"""
    decision = services.decide_computer_turn(game_id=game_id, seq=seq)
    if decision is None:
        return "nothing"
    if decision.wait_ms > 0:
        if jobs.mode() != "celery":
            services.apply_computer_turn_later(decision)
            return "scheduled"
        time.sleep(decision.wait_ms / 1000)
    return services.apply_computer_turn(decision)


@shared_task(ignore_result=True)
def review_game(game_id: int) -> str:
    """Compute the post-game review of a finished game once (games.coach.services);
    a repeated task finds it done and returns "exists"."""
    return coach.review_game(game_id=game_id)


@shared_task(ignore_result=True)
def sweep_stalled_games(idle_seconds: float | None = None) -> int:
    """Requeue the computer turns of games that have not moved for a while
    (``idle_seconds``, default ``resume.stall_after()``)."""
    idle = None if idle_seconds is None else timedelta(seconds=idle_seconds)
    requeued = resume.requeue_stalled_games(idle_for=idle)
    coach.requeue_missing_reviews()
    return requeued


def _sweep() -> None:
    resume.requeue_stalled_games()
    coach.requeue_missing_reviews()


def start_embedded_sweeper() -> None:
    """In embedded mode (no Celery beat), the sweep from a daemon thread of this
    process (``games.jobs.start_sweeper``): the games that wait for the computer
    at once, then everything every ``GAMES_SWEEP_SECONDS``. Started by the first
    table socket."""
    jobs.start_sweeper(first=lambda: resume.requeue_stalled_games(idle_for=timedelta(seconds=2)), each=_sweep)


@worker_ready.connect
def resume_games_when_a_worker_starts(**_kwargs: object) -> None:
    # A (re)started worker resumes every game that waits for the computer,
    # with a short threshold: a duplicate turn is harmless (idempotent tasks).
    sweep_stalled_games.delay(idle_seconds=2 + settings.AI_MOVE_DELAY_MS / 1000)
