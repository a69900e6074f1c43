"""Room chips on the real stack (PostgreSQL, Redis, a Celery worker): the
settlement of a room game is a task, and it pays exactly once when the task
is delivered twice and when the worker is killed in the middle of it."""

from __future__ import annotations

import re
import time

import psycopg
import pytest

from tests.stack.conftest import VISIBILITY_TIMEOUT_S
from tests.support.stack import Stack

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.timeout(240)]

CONSUMING = r"sweep_stalled_games\[[0-9a-f-]+\] succeeded"
# The settlement and the periodic tick go to the lobby's queue (config.settings).
QUEUES = "celery,periodic"

# Two members at a passport duel; once a tile beyond the opening is laid (an
# earlier resignation would be an abort), the second resigns (the first wins
# 38 chips of a 40-chip pot). The end of the game queues the settlement task.
PLAY_AND_RESIGN = """
from django.contrib.auth import get_user_model
from games.play import services
from games.tests.helpers import play_past_the_opening
from games.play import services
from lobby import room_tables
User = get_user_model()
alice = User.objects.create_user(username="alice{n}", password="x")
bob = User.objects.create_user(username="bob{n}", password="x")
table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
room_tables.join_table(table_id=table.pk, user=bob)
play_past_the_opening(table)
services.resign(game_id=table.game.pk, seat=1)
result = {{"table": table.pk, "alice": alice.pk, "bob": bob.pk}}
"""

LEDGER = """
from lobby import chips
from lobby.models import ChipEntry, ChipWallet, RoomTable
game = RoomTable.objects.get(pk={table}).table.game
result = {{
    "settled": RoomTable.objects.get(pk={table}).settled_at is not None,
    "entries": sorted(  # the house as member 0
        [e.user_id or 0, e.reason, e.amount] for e in ChipEntry.objects.filter(game=game) if e.reason != "stake"
    ),
    "balances": dict(ChipWallet.objects.filter(user_id__in=[{alice}, {bob}]).values_list("user_id", "balance")),
    "balanced": chips.totals().balanced,
    "wrong": chips.check_wallets(),
}}
"""

REQUEUE = """
from lobby.tasks import settle_room_table
settle_room_table.delay({table})
"""



def ledger(stack: Stack, game: dict) -> dict:
    record = stack.django(LEDGER.format(**game))
    assert isinstance(record, dict)
    return record


def wait_for_log(stack: Stack, pattern: str, *, start: int, count: int = 1, timeout: float = 30) -> list[re.Match]:
    compiled = re.compile(pattern)
    deadline = time.monotonic() + timeout
    while True:
        found = list(compiled.finditer(stack.log("worker")[start:]))
        if len(found) >= count:
            return found
        assert time.monotonic() < deadline, f"{pattern!r} seen {len(found)} time(s):\n{stack.log('worker')[-4000:]}"
        time.sleep(0.1)


def assert_paid_once(record: dict, game: dict) -> None:
    alice, bob = game["alice"], game["bob"]
    assert record["settled"]
    assert record["entries"] == sorted([[alice, "payout", 38], [bob, "payout", 0], [0, "fee", 2]])
    assert record["balances"] == {str(alice): 1018, str(bob): 980}  # JSON keys
    assert record["balanced"]
    assert record["wrong"] == []


def test_a_settlement_task_delivered_twice_pays_once(stack: Stack) -> None:
    stack.stop("worker")
    stack.start_worker("worker", queues=QUEUES, wait_for=CONSUMING)
    start = len(stack.log("worker"))
    game = stack.django(PLAY_AND_RESIGN.format(n=1))
    assert isinstance(game, dict)
    stack.django(REQUEUE.format(table=game["table"]))  # the end-of-game task, a second time
    done = wait_for_log(
        stack, r"settle_room_table\[[0-9a-f-]+\] succeeded in [0-9.]+s: '(settled|nothing)'", start=start, count=2
    )
    assert sorted(match.group(1) for match in done) == ["nothing", "settled"]
    assert_paid_once(ledger(stack, game), game)


def test_a_worker_killed_mid_settlement_settles_once_after_restart(stack: Stack, stack_database: str) -> None:
    # The worker is made to stop in the middle of the settlement: this
    # connection holds the loser's wallet row, so the worker locks the
    # winner's wallet (seat 0: the wallets are locked in the order of the
    # members' ids before anything is written) and waits on the loser's (seat 1), its
    # transaction open, when it is killed.
    stack.stop("worker")
    # PYTHONFAULTHANDLER: the stacks of its pool in a failure's report (Stack.dump_stacks).
    stack.start_worker("worker", queues=QUEUES, wait_for=CONSUMING, PYTHONFAULTHANDLER="1")
    url = stack_database.replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as blocker:
        start = len(stack.log("worker"))
        # The game set up, the loser's wallet locked, then the game ended.
        game = stack.django(PLAY_AND_RESIGN.format(n=2).replace("services.resign(game_id=table.game.pk, seat=1)", ""))
        assert isinstance(game, dict)
        blocker.execute("BEGIN")
        blocker.execute("SELECT balance FROM lobby_chipwallet WHERE user_id = %s FOR UPDATE", (game["bob"],))
        stack.django(
            f"from games.play import services\nfrom games.models import Game\n"
            f"services.resign(game_id=Game.objects.get(table_id={game['table']}).pk, seat=1)"
        )
        received = wait_for_log(stack, r"Task lobby\.tasks\.settle_room_table\[([0-9a-f-]+)\] received", start=start)
        task_id = received[0].group(1)
        # The worker is inside the settlement: its transaction waits for the lock
        # (a generous wait: under the parallel suite the two cores are busy).
        # (Watched from another connection: the blocker's transaction would
        # keep showing the sessions as they were at its first look.)
        stack.wait_for_lock_wait(stack_database, what="the worker never reached the loser's wallet")
        # ... having locked the winner's wallet: it holds her wallet's row.
        with psycopg.connect(url, autocommit=True) as probe, pytest.raises(psycopg.errors.LockNotAvailable):
            probe.execute("SELECT 1 FROM lobby_chipwallet WHERE user_id = %s FOR UPDATE NOWAIT", (game["alice"],))
        stack.kill("worker")
        blocker.execute("ROLLBACK")
    record = ledger(stack, game)
    assert not record["settled"]
    assert record["entries"] == []  # nothing written survived the kill
    assert record["balanced"]
    restarted_at = len(stack.log("worker"))
    stack.start_worker("worker", queues=QUEUES)
    # As in production, beat runs the periodic tick: whichever comes first,
    # the killed task delivered again after the visibility timeout or the
    # tick's settlement of missed tables, settles; the other finds it done.
    stack.start_beat("beat")
    try:
        deadline = time.monotonic() + VISIBILITY_TIMEOUT_S + 45
        while not (record := ledger(stack, game))["settled"]:
            assert time.monotonic() < deadline, f"never settled:\n{stack.log('worker')[-4000:]}"
            time.sleep(0.5)
        assert_paid_once(record, game)
        # The settlement is in the database before its task's line is in the log:
        # the tick goes on with its other jobs (the puzzles' search, the
        # tournaments) before it returns and the worker logs its report.
        logged = time.monotonic() + 30
        while True:
            since = stack.log("worker")[restarted_at:]
            by_task = re.search(rf"settle_room_table\[{task_id}\] succeeded in [0-9.]+s: 'settled'", since)
            by_tick = re.search(r"lobby_tick\[[0-9a-f-]+\] succeeded in [0-9.]+s: \{[^}]*'settled': 1", since)
            if by_task or by_tick or time.monotonic() > logged:
                break
            time.sleep(0.5)
        assert bool(by_task) != bool(by_tick), "settled by both the task and the tick, or by neither"
        time.sleep(2)
        assert_paid_once(ledger(stack, game), game)
    finally:
        stack.stop("beat")
        stack.stop("worker")
        stack.start_worker("worker")
