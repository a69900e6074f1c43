"""An arena on the real stack (PostgreSQL, Redis, a Celery worker running the
periodic tick) when the worker is killed mid-tournament: no game lost, none
counted twice, the pairing resumes, the end is computed once and the
published standings verify (docs/tournaments.md, "Tests").

The games are played by Django snippets (tests/support/stack.py), the way a
web process plays a move: a game's end is scored and its players paired again
in the process that made the last move. The worker runs the periodic tick
(``lobby.tasks.lobby_tick``, sent here by the test rather than by beat, so
that each tick is one the test knows of), which starts, pairs, scores the
games whose end signal was lost and ends the tournament.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psycopg
import pytest

from tests.stack.conftest import assert_core_loaded
from tests.support.stack import PrivateRedis, Stack

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.timeout(300)]

# The tick goes to the lobby's queue (config.settings).
QUEUES = "celery,periodic"
CONSUMING = r"sweep_stalled_games\[[0-9a-f-]+\] succeeded"
TICK_DONE = re.compile(r"lobby_tick\[[0-9a-f-]+\] succeeded in [0-9.]+s: (\{.*\})")
PLAYERS = 6

CREATE = """
from django.contrib.auth import get_user_model
from tournaments import services
User = get_user_model()
members = [User.objects.create_user(username=f"{name}{{index}}", password="x") for index in range({players})]
tournament = services.create_tournament(
    user=members[0], format="arena", mode="duel-block", minutes=30, starts_in=0, rated=True
)
for member in members:
    services.join(tournament=tournament, user=member)
result = tournament.pk
"""

TICK = """
from lobby.tasks import lobby_tick
lobby_tick.delay()
"""

# The tournament as the database holds it.
STATE = """
from django.db.models import Count
from accounts.models import RatedGame
from games.models import Table
from tournaments.models import Player, Score, Tournament, TournamentGame
tournament = Tournament.objects.get(pk={tournament})
games = TournamentGame.objects.filter(tournament=tournament).order_by("pk")
result = {{
    "status": tournament.status,
    "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
    "final": tournament.final_standings,
    "tables": [
        {{"table": game.table_id, "status": game.table.status,
          "users": sorted(game.table.seats.values_list("user_id", flat=True))}}
        for game in games.select_related("table")
    ],
    "scores": {{str(row["game__table_id"]): row["n"] for row in
               Score.objects.filter(game__tournament=tournament).values("game__table_id").annotate(n=Count("id"))}},
    "players": [
        [player.user.username, player.score, player.wins, player.games]
        for player in Player.objects.filter(tournament=tournament).select_related("user")
        .order_by("-score", "-wins", "joined_at", "pk")
    ],
    "rated": RatedGame.objects.filter(game__table__tournament_game__tournament=tournament).count(),
}}
"""

# A table played to its end as a web process would play it; with ``lost``,
# the process "stops" between the commit and the end signal's receiver (the
# tournaments' scoring and pairing of that game never run there).
PLAY_OUT = """
from games.models import Table
from games.tests.helpers import play_out
from tournaments import services
if {lost}:
    services.after_game = lambda **_kwargs: {{}}
play_out(Table.objects.get(pk={table}), seed={table})
"""

END_NOW = """
from datetime import timedelta
from django.utils import timezone
from tournaments.models import Tournament
Tournament.objects.filter(pk={tournament}).update(ends_at=timezone.now() - timedelta(seconds=1))
"""

# The table a member's lobby socket sends them back to when it opens.
RESUME = """
from lobby.selectors import table_to_resume
result = [table_to_resume(user).pk for user in {users}]
"""

LIVE = {"waiting", "playing"}


def state(stack: Stack, tournament: int) -> dict:
    record = stack.django(STATE.format(tournament=tournament))
    assert isinstance(record, dict)
    return record


def live(record: dict) -> list[dict]:
    return [table for table in record["tables"] if table["status"] in LIVE]


def ticks(stack: Stack, since: int) -> list[str]:
    return TICK_DONE.findall(stack.log("worker")[since:])


def tick(stack: Stack, *, timeout: float = 60) -> str:
    """Send the periodic tick to the worker and wait for its report (sent again
    every 15 s meanwhile: a tick not taken within 10 s expires, like beat's)."""
    since = len(stack.log("worker"))
    deadline = time.monotonic() + timeout
    while True:
        stack.django(TICK)
        again = time.monotonic() + 15
        while time.monotonic() < min(again, deadline):
            if done := ticks(stack, since):
                return done[0]
            time.sleep(0.2)
        assert time.monotonic() < deadline, f"no tick ran:\n{stack.log('worker')[-4000:]}"


def wait_state(stack: Stack, tournament: int, check, *, timeout: float = 60, what: str = "") -> dict:
    deadline = time.monotonic() + timeout
    while not check(record := state(stack, tournament)):
        assert time.monotonic() < deadline, f"{what}: {record}\n{stack.log('worker')[-4000:]}"
        time.sleep(0.3)
    return record


def play(stack: Stack, table: int, *, lost: bool = False) -> None:
    stack.django(PLAY_OUT.format(table=table, lost=lost))


def assert_scored_once(record: dict) -> None:
    """Every finished game has exactly one Score row per seat; nothing else has any."""
    finished = {
        str(table["table"]): len(table["users"])
        for table in record["tables"]
        if table["status"] == "finished"
    }
    assert record["scores"] == finished


def end_once(stack: Stack, tournament: int) -> dict:
    """Time is up: the games still playing finish within the grace and count;
    the worker's tick ends the arena, once. Returns the final state."""
    stack.django(END_NOW.format(tournament=tournament))
    record = state(stack, tournament)
    tick(stack)
    assert state(stack, tournament)["status"] == "started"  # games still playing, within the grace
    for table in live(record):
        play(stack, table["table"])
    ended_at = len(stack.log("worker"))
    tick(stack)
    record = wait_state(stack, tournament, lambda r: r["status"] == "finished", what="never finished")
    assert live(record) == []
    tick(stack)
    tick(stack)
    reports = ticks(stack, ended_at)
    assert sum("'finished': 1" in report for report in reports) == 1, reports
    assert stack.log("worker").count(f"tournament {tournament} finished") == 1
    final = state(stack, tournament)
    assert final["finished_at"] == record["finished_at"]  # the end computed once
    assert_scored_once(final)
    return final


def test_a_worker_killed_mid_tournament_loses_no_game_and_counts_none_twice(
    stack: Stack, stack_database: str, tmp_path: Path
) -> None:
    stack.stop("worker")
    # PYTHONFAULTHANDLER: the stacks of its pool in a failure's report (Stack.dump_stacks).
    stack.start_worker("worker", queues=QUEUES, wait_for=CONSUMING, PYTHONFAULTHANDLER="1")
    tournament = stack.django(CREATE.format(players=PLAYERS, name="arena"))
    assert isinstance(tournament, int)
    # The worker's tick starts the arena and pairs everyone.
    tick(stack)
    record = wait_state(stack, tournament, lambda r: len(live(r)) == PLAYERS // 2, what="the first wave")
    assert record["status"] == "started"
    assert sorted(user for table in live(record) for user in table["users"]) == sorted(
        {user for table in record["tables"] for user in table["users"]}
    )
    # One game ends, and the process that ended it stops before scoring it.
    first = live(record)[0]
    play(stack, first["table"], lost=True)
    record = state(stack, tournament)
    assert str(first["table"]) not in record["scores"]
    assert len(live(record)) == PLAYERS // 2 - 1

    # The worker's tick finds the missed game and starts scoring it: this
    # connection holds the tournament's row, so the worker waits inside the
    # scoring's transaction (after reading the game), and is killed there.
    url = stack_database.replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as blocker:
        blocker.execute("BEGIN")
        blocker.execute("SELECT id FROM tournaments_tournament WHERE id = %s FOR UPDATE", (tournament,))
        stack.django(TICK)
        stack.wait_for_lock_wait(stack_database, what="the tick never reached the scoring")
        stack.kill("worker")
        blocker.execute("ROLLBACK")
    record = state(stack, tournament)
    assert record["scores"] == {}  # nothing of the killed scoring survived
    # The other games are still live while the worker is away.
    assert len(live(record)) == PLAYERS // 2 - 1
    before_restart = max(table["table"] for table in record["tables"])

    restarted_at = len(stack.log("worker"))
    stack.start_worker("worker", queues=QUEUES, wait_for=CONSUMING)
    assert_core_loaded(stack, "worker", since=restarted_at)
    # The restarted worker's tick scores the missed game (once) and pairs
    # whoever is free (the killed tick, delivered again after the visibility
    # timeout, finds it scored or has expired: either way nothing twice).
    tick(stack)
    record = wait_state(
        stack,
        tournament,
        lambda r: str(first["table"]) in r["scores"] and len(live(r)) == PLAYERS // 2,
        what="the missed game never scored and paired",
    )
    assert record["scores"][str(first["table"])] == 2
    assert_scored_once(record)
    # ... and pairs its players again (nobody else is free: together).
    (again,) = [table for table in live(record) if table["table"] > before_restart]
    assert again["users"] == first["users"]
    seated = {user for table in live(record) for user in table["users"]}
    assert len(seated) == PLAYERS  # nobody left out, and nobody at two tables
    assert sum(len(table["users"]) for table in live(record)) == PLAYERS

    # One more wave, then the end.
    for table in live(record):
        play(stack, table["table"])
    final = end_once(stack, tournament)
    finished_games = [table for table in final["tables"] if table["status"] == "finished"]
    # The first wave, the wave after the restart and the last one.
    assert len(finished_games) == len(final["tables"]) >= 1 + 2 * (PLAYERS // 2)
    assert final["rated"] == len(finished_games)
    # The frozen standings are the players' totals, in order; the podium their top three.
    assert [[row["player"], row["score"], row["wins"], row["games"]] for row in final["final"]] == final[
        "players"
    ]
    assert [row["rank"] for row in final["final"]] == list(range(1, PLAYERS + 1))
    assert sum(row["games"] for row in final["final"]) == 2 * len(finished_games)

    # The published file verifies: every game replayed, every score and the standings recomputed.
    with urllib.request.urlopen(
        f"{stack.url('a')}/tournaments/{tournament}/results.json", timeout=30
    ) as response:
        published = json.loads(response.read())
    assert [row["player"] for row in published["standings"][:3]] == [
        row["player"] for row in final["final"][:3]
    ]
    assert len(published["games"]) == len(finished_games)
    path = tmp_path / f"tournament-{tournament}.json"
    path.write_text(json.dumps(published))
    verified = subprocess.run(
        [sys.executable, "-m", "games.engine.verify", "--tournament", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "OK" in verified.stdout


def test_redis_restarted_mid_tournament_loses_no_game_and_the_pairing_resumes(
    stack_database: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # A private redis-server (never the machine's own), with a worker of its own.
    workdir: Path = tmp_path_factory.mktemp("tournament-redis")
    redis = PrivateRedis(workdir)
    redis.start()
    own = Stack(
        workdir,
        database_url=stack_database,
        redis_url=redis.url,
        env_overrides={"CELERY_VISIBILITY_TIMEOUT": "8", "CELERY_RESTORE_INTERVAL": "1"},
    )
    try:
        own.start_worker("worker", queues=QUEUES, wait_for=CONSUMING)
        tournament = own.django(CREATE.format(players=PLAYERS, name="restart"))
        assert isinstance(tournament, int)
        tick(own)
        record = wait_state(own, tournament, lambda r: len(live(r)) == PLAYERS // 2, what="the first wave")
        # Redis goes away (its queues, the channel layer, the cache with it);
        # a game ends meanwhile: it is scored where it ended and its players
        # are paired again at once (the database is the truth); only the
        # frames are lost (the standings' and the ``matched`` one, logged).
        redis.kill()
        first = live(record)[0]
        play(own, first["table"])
        record = state(own, tournament)
        assert record["scores"][str(first["table"])] == 2
        assert_scored_once(record)
        (again,) = [
            table
            for table in live(record)
            if table["table"] > first["table"] and table["users"] == first["users"]
        ]
        # The lost ``matched`` frame: a lobby socket opened again sends each player to it.
        assert own.django(RESUME.format(users=first["users"])) == [again["table"]] * 2
        redis.start()  # empty: whatever was queued is gone
        # The worker reconnects: its ticks run again, and the waves go on.
        tick(own, timeout=90)
        record = state(own, tournament)
        assert len(live(record)) == PLAYERS // 2
        assert sum(len(table["users"]) for table in live(record)) == PLAYERS
        for table in live(record):
            play(own, table["table"])
        final = end_once(own, tournament)
        assert sum(row["games"] for row in final["final"]) == 2 * len(final["tables"])
        assert [[row["player"], row["score"], row["wins"], row["games"]] for row in final["final"]] == final[
            "players"
        ]
    except BaseException:
        print(own.logs())
        raise
    finally:
        own.stop_all()
        redis.stop()
