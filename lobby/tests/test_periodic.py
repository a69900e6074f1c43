"""The periodic tick that runs every app's periodic jobs (lobby.periodic)."""

from __future__ import annotations

import pytest

from lobby import periodic

pytestmark = pytest.mark.django_db


def test_the_embedded_mode_ticks_in_a_thread(settings, monkeypatch) -> None:
    import threading

    settings.LOBBY_TICK_IN_PROCESS = True
    settings.LOBBY_TICK_SECONDS = 0.05
    ticked = threading.Event()
    monkeypatch.setattr(periodic, "tick", ticked.set)
    try:
        assert periodic.start_in_process_loop()
        assert not periodic.start_in_process_loop()  # one loop per process
        assert ticked.wait(5)
    finally:
        periodic.stop_in_process_loop()
    settings.LOBBY_TICK_IN_PROCESS = False
    assert not periodic.start_in_process_loop()  # with beat (or in tests): no thread


def test_one_tick_runs_every_job(make_member) -> None:
    report = periodic.tick()
    assert set(report) == {
        "matched", "room_matched", "timers", "rated", "settled", "stale_rooms", "forgotten", "counts",
        # The job of an app above the lobby (lobby.signals.periodic_tick): the tournaments.
        "tournaments",
    }
    assert report["counts"]["type"] == "counts"
