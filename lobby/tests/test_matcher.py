"""The matcher with the database queue: concurrency, windows, one at a time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import Rating
from games.models import Seat
from games.play.locks import try_lock
from lobby import services as matchmaking
from lobby.models import QueueEntry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _quiet(settings):
    settings.LOBBY_TICK_IN_PROCESS = False
    settings.GAMES_DISPATCH = "queue"


def members(n: int, prefix: str = "m"):
    User = get_user_model()
    return [User.objects.create_user(username=f"{prefix}{i}", password="x") for i in range(n)]


def check_each_player_seated_once(mode: str, seats: list[tuple[int, int]], user_ids: list[int]) -> None:
    per_user = Counter(user_id for _table, user_id in seats)
    assert set(per_user) == set(user_ids)
    assert set(per_user.values()) == {1}
    per_table = Counter(table_id for table_id, _user in seats)
    size = 2 if mode.startswith("duel") else 4
    assert set(per_table.values()) == {size}
    assert len(per_table) == len(user_ids) // size


@pytest.mark.one_pass
@pytest.mark.parametrize("mode", ["duel-block", "four"])
def test_concurrent_joins_seat_each_player_once_on_a_sqlite_file(tmp_path, mode: str) -> None:
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(SQLITE_PATH=str(tmp_path / "queue.sqlite3"), DJANGO_SETTINGS_MODULE="config.settings.test")
    result = subprocess.run(
        [sys.executable, "-m", "lobby.tests.concurrent_queue", mode, "16"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["errors"] == []
    assert report["queued"] == 0
    check_each_player_seated_once(mode, [tuple(pair) for pair in report["seats"]], report["users"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mode", ["duel-block", "four"])
def test_concurrent_joins_seat_each_player_once(mode: str) -> None:
    if connection.vendor == "sqlite":
        pytest.skip("threads share the in-memory test database badly; the SQLite-file test covers SQLite")
    users = members(16)
    barrier = threading.Barrier(len(users))
    errors: list[BaseException] = []

    def join(user) -> None:
        try:
            barrier.wait()
            matchmaking.join_queue(user=user, mode=mode)
            matchmaking.run_matcher()
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    matchmaking.run_matcher()
    seats = list(Seat.objects.filter(table__mode=mode).values_list("table_id", "user_id"))
    check_each_player_seated_once(mode, seats, [user.pk for user in users])
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_far_ratings_wait_until_their_window_has_grown() -> None:
    low, high = members(2)
    Rating.objects.create(user=low, mode="duel-draw", mu=20)  # 1200
    Rating.objects.create(user=high, mode="duel-draw", mu=30)  # 1800
    matchmaking.join_queue(user=low, mode="duel-draw")
    matchmaking.join_queue(user=high, mode="duel-draw")
    assert matchmaking.run_matcher() == []
    later = timezone.now() + timedelta(seconds=60)
    tables = matchmaking.run_matcher(now=later)
    assert len(tables) == 1
    assert tables[0].mode == "duel-draw"


@pytest.mark.django_db
def test_a_lone_player_stays_in_the_queue() -> None:
    (alone,) = members(1)
    matchmaking.join_queue(user=alone, mode="duel-block")
    assert matchmaking.run_matcher(now=timezone.now() + timedelta(hours=1)) == []
    assert QueueEntry.objects.filter(user=alone).exists()


@pytest.mark.django_db
def test_pairs_tables_seat_partners_opposite_and_balanced() -> None:
    users = members(4)
    for user, mu in zip(users, (31, 27, 26, 22), strict=True):
        Rating.objects.create(user=user, mode="pairs", mu=mu)
        matchmaking.join_queue(user=user, mode="pairs")
    (table,) = matchmaking.run_matcher(now=timezone.now() + timedelta(seconds=120))
    seat_of = dict(table.seats.values_list("user_id", "number"))
    strongest, weakest = users[0].pk, users[3].pk
    assert seat_of[strongest] % 2 == seat_of[weakest] % 2
    assert table.game.rules["teams"] is True


@pytest.mark.django_db(transaction=True)
def test_only_one_matcher_runs_at_a_time_on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks with SKIP LOCKED need PostgreSQL (SQLite serialises writers instead)")
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with transaction.atomic():
            assert try_lock("matcher:duel-block")
            held.set()
            release.wait(5)
        connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    try:
        with transaction.atomic():
            assert not try_lock("matcher:duel-block")
            assert try_lock("matcher:three")
    finally:
        release.set()
        holder.join()
    with transaction.atomic():
        assert try_lock("matcher:duel-block")
