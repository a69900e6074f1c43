"""Celery tasks of the puzzles app (queued by name through ``puzzles.jobs``)."""

from __future__ import annotations

from celery import shared_task

from puzzles import jobs, services


@shared_task(ignore_result=True)
def search_puzzles(limit: int) -> int:
    """Search up to ``limit`` finished games for puzzles, beginning none after
    ``PUZZLES_SEARCH_SECONDS``; returns the puzzles made (0 when another
    search runs)."""
    jobs.started()
    return services.search_finished_games(limit=limit, seconds=jobs.search_seconds())
