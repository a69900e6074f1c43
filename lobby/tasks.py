"""Celery tasks of the lobby: the periodic tick (matchmaking, counters, turn
timers, missed settlements), run by beat every ``LOBBY_TICK_SECONDS``, and
the settlement of a room game that ended."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from lobby import periodic, room_tables


@shared_task(ignore_result=True, expires=10)
def lobby_tick() -> dict[str, Any]:
    return periodic.tick()


@shared_task(ignore_result=True)
def settle_room_table(table_id: int) -> str:
    """Settle the chips of a room table whose game ended, once: a task
    delivered again (a worker killed mid-settlement, a second delivery)
    finds it settled and returns "nothing"."""
    return "settled" if room_tables.settle(table_id=table_id) else "nothing"
