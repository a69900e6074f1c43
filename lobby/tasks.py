"""Celery tasks of the lobby: the periodic tick (matchmaking, counters, turn
timers), run by beat every ``LOBBY_TICK_SECONDS``."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from lobby import periodic


@shared_task(ignore_result=True, expires=10)
def lobby_tick() -> dict[str, Any]:
    return periodic.tick()
