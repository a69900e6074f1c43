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
    # The lobby's own jobs, and those of the apps beside and above it
    # (games.signals.periodic_tick): the tournaments'.
    assert set(report) >= {
        "matched", "room_matched", "timers", "rated", "settled", "stale_rooms", "forgotten", "counts", "tournaments",
    }
    assert report["counts"]["type"] == "counts"


def test_the_tick_runs_the_jobs_of_the_apps_beside_it_through_its_hook(db) -> None:
    from games.signals import periodic_tick

    def job(sender, **kwargs):
        return {"beside": 7}

    def broken(sender, **kwargs):
        raise RuntimeError("a job beside the lobby failed")

    periodic_tick.connect(job, dispatch_uid="test.beside")
    periodic_tick.connect(broken, dispatch_uid="test.broken")
    try:
        report = periodic.tick()
    finally:
        periodic_tick.disconnect(dispatch_uid="test.beside")
        periodic_tick.disconnect(dispatch_uid="test.broken")
    assert report["beside"] == 7
