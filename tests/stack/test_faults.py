"""The production stack with real processes, and what happens when they die.

Daphne A and B, a Celery worker, PostgreSQL and Redis, all real; the players
are websocket clients speaking the table protocol, their guest sessions made
by the home form. Each test checks the database afterwards: every game's move
log replays from its seed to its stored state.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from tests.stack.conftest import VISIBILITY_TIMEOUT_S, assert_core_loaded
from tests.support.players import Guest, TableClient
from tests.support.stack import PrivateRedis, Stack

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.timeout(240)]

# A worker queues this sweep when it is ready: once it has run, the worker
# takes tasks from the queue (a new worker sometimes waits seconds before its
# first one).
CONSUMING = r"sweep_stalled_games\[[0-9a-f-]+\] succeeded"

# The worker-kill test's computer waits this long before moving, so that the
# kill lands mid-task; below the stack's visibility timeout (conftest).
SLOW_MOVE_MS = 6000

# Replays the move log from the seed and compares with the stored state.
REPLAY_CHECK = """
from games.engine import dump_state, view_for
from games.models import Game, Move
from games.play.selectors import game_state, rebuild_state
game = Game.objects.get(table_id={table_id})
moves = list(Move.objects.filter(game=game).order_by("seq").values("seq", "seat", "kind", "payload"))
replayed = rebuild_state(game)
result = {{
    "seq": game.seq,
    "finished": game.finished,
    "same": dump_state(replayed) == dump_state(game_state(game)),
    "moves": moves,
    "views": [view_for(replayed, seat).to_dict() for seat in range(replayed.rules.players)],
}}
"""

SHARED_TABLE = """
from games.engine import rules_for
from games.models import Seat, Table
from games.play.services import SeatSpec, create_table
keys = [Seat.objects.get(table_id=table_id, number=0).guest_key for table_id in {tables}]
table = create_table(
    kind=Table.Kind.PRIVATE, rules=rules_for("duel-block", players=2, target=0), preset="duel-block",
    seats=[SeatSpec(guest_key=key) for key in keys], public=True,
)
result = table.pk
"""


def game_record(stack: Stack, table_id: int) -> dict:
    record = stack.django(REPLAY_CHECK.format(table_id=table_id))
    assert isinstance(record, dict)
    return record


def assert_replays(stack: Stack, table_id: int) -> dict:
    record = game_record(stack, table_id)
    assert record["same"], "the move log replayed from the seed differs from the stored state"
    assert [move["seq"] for move in record["moves"]] == list(range(1, record["seq"] + 1))
    return record


def new_guest_game(base_url: str, **form: object) -> tuple[Guest, int]:
    """A guest's game against the computer, at the hard level unless told: its moves need
    the compiled core, which every (re)started worker loads from the install's build."""
    form.setdefault("level", "hard")
    guest = Guest(base_url)
    table_id = guest.start_computer_game(**form)  # type: ignore[arg-type]
    return guest, table_id


def events_seen(client: TableClient) -> list[int]:
    return sorted(client.events)


def every_event_since_joining(client: TableClient, last: int) -> list[int]:
    assert client.joined_at is not None
    return list(range(client.joined_at + 1, last + 1))


async def until_playable(
    open_table: Callable[[], Awaitable[tuple[int, list[TableClient]]]],
) -> tuple[int, list[TableClient]]:
    """A table opened by ``open_table`` (its id and connected clients) where a move is
    possible: a duel-block deal in which nobody can follow the opening double ends the
    round at once (about one deal in 2,000), and then a new table is dealt."""
    for _ in range(5):
        table_id, clients = await open_table()
        if not clients[0].state["view"]["game_over"]:
            return table_id, clients
        for client in clients:
            await client.close()
    raise AssertionError("five deals in a row ended before the first move")


async def playable_guest_game(base_url: str) -> tuple[int, TableClient]:
    """A guest's duel-block game against the computer, connected, where a move is possible."""

    async def open_table() -> tuple[int, list[TableClient]]:
        guest, table_id = new_guest_game(base_url)
        client = TableClient(base_url, table_id, guest.cookie)
        await client.connect()
        return table_id, [client]

    table_id, (client,) = await until_playable(open_table)
    return table_id, client


async def shared_table(stack: Stack) -> tuple[int, TableClient, TableClient]:
    """A table of two guests, one connected through each Daphne process, where a move is possible."""

    async def open_table() -> tuple[int, list[TableClient]]:
        first, first_table = new_guest_game(stack.url("a"))
        second, second_table = new_guest_game(stack.url("b"))
        table_id = stack.django(SHARED_TABLE.format(tables=[first_table, second_table]))
        assert isinstance(table_id, int)
        on_a = TableClient(stack.url("a"), table_id, first.cookie)
        on_b = TableClient(stack.url("b"), table_id, second.cookie)
        await on_a.connect()
        await on_b.connect()
        return table_id, [on_a, on_b]

    table_id, (on_a, on_b) = await until_playable(open_table)
    return table_id, on_a, on_b


async def test_players_on_two_daphne_processes_see_each_others_moves(stack: Stack) -> None:
    table_id, on_a, on_b = await shared_table(stack)
    try:
        assert {on_a.seat, on_b.seat} == {0, 1}
        while on_a.game_over is None or on_b.game_over is None:
            mover, watcher = (on_a, on_b) if on_a.my_turn() else (on_b, on_a)
            assert mover.my_turn(), f"nobody may move at seq {mover.seq}: {mover.state}"
            sent_at = await mover.act()
            # The other process's player sees the move through the Redis layer.
            event = await watcher.wait_for(lambda f, s=sent_at: f["type"] == "event" and f["seq"] == s + 1)
            assert event["seat"] == mover.seat
            await mover.wait_seq(sent_at + 1)
            await watcher.wait_seq(sent_at + 1)
            if on_a.state["view"]["game_over"]:
                await on_a.wait_for(lambda f: f["type"] == "game_over", since=0)
                await on_b.wait_for(lambda f: f["type"] == "game_over", since=0)
        record = assert_replays(stack, table_id)
        assert record["finished"]
        assert events_seen(on_a) == every_event_since_joining(on_a, record["seq"])
        assert events_seen(on_b) == every_event_since_joining(on_b, record["seq"])
        assert on_a.state["view"]["line"] == on_b.state["view"]["line"]
        assert not on_a.errors
        assert not on_b.errors
    finally:
        await on_a.close()
        await on_b.close()


async def test_a_full_games_move_log_replays_from_its_seed(stack: Stack) -> None:
    # Four seats, several rounds: a person and three computers on Daphne A.
    guest, table_id = new_guest_game(
        stack.url("a"), preset="classic-block", players=4, target=50, level="easy"
    )
    client = TableClient(stack.url("a"), table_id, guest.cookie)
    await client.connect()
    try:
        await client.play_until(lambda c: c.game_over is not None, timeout=240)
        record = assert_replays(stack, table_id)
        assert record["finished"]
        assert len({move["seat"] for move in record["moves"]} - {None}) == 4
        # The person's last view is the view of the state replayed from the seed.
        await client.wait_seq(record["seq"])
        assert client.state["view"] == record["views"][client.seat]
    finally:
        await client.close()


async def test_a_killed_daphne_process_loses_no_move(stack: Stack) -> None:
    guest, table_id = new_guest_game(stack.url("a"), preset="classic-draw", players=2, target=50)
    client = TableClient(stack.url("a"), table_id, guest.cookie)
    await client.connect()
    try:
        await client.play_until(lambda c: c.seq >= 8, timeout=60)
        # The computer may be thinking now: kill the player's process under it.
        stack.kill("a")
        with pytest.raises(Exception):  # noqa: PT011 - the socket dies, however it is reported
            await client.wait_for(lambda f: False, timeout=10)
        seen = client.seq
        await client.reconnect(stack.url("b"))
        assert client.seq >= seen
        await client.play_until(lambda c: c.game_over is not None, timeout=240)
        record = assert_replays(stack, table_id)
        assert record["finished"]
        # Every event reached the player: live, or replayed by `sync` after the kill.
        assert events_seen(client) == every_event_since_joining(client, record["seq"]), stack.logs()
        assert client.state["seq"] == record["seq"]
    except BaseException:
        print(stack.logs())
        print(f"client: seq {client.seq}, last frames {client.frames[-5:]}")
        raise
    finally:
        await client.close()
        if not stack.processes["a"].alive():
            stack.start_web("a", port=int(stack.url("a").rsplit(":", 1)[1]))


async def test_a_worker_killed_mid_move_moves_once_after_restart(stack: Stack) -> None:
    # A slow computer (it waits AI_MOVE_DELAY_MS before moving) so that the
    # kill lands while the task runs, unacknowledged.
    stack.stop("worker")
    stack.start_worker("worker", wait_for=CONSUMING, AI_MOVE_DELAY_MS=str(SLOW_MOVE_MS))
    table_id, client = await playable_guest_game(stack.url("b"))
    try:
        if not client.my_turn():  # the computer opened: wait for its move
            await client.wait_for(lambda f: f["type"] == "state" and bool(f["legal"]), timeout=30)
        human = client.seat
        log_start = len(stack.log("worker"))
        sent_at = await client.act()
        moved_at = time.monotonic()
        await client.wait_seq(sent_at + 1)
        received = re.compile(r"Task games\.tasks\.compute_ai_move\[([0-9a-f-]+)\] received")
        deadline = time.monotonic() + 30
        while not (match := received.search(stack.log("worker")[log_start:])):
            assert time.monotonic() < deadline, f"no task received after the move:\n{stack.logs()}"
            await asyncio.sleep(0.1)
        task_id = match.group(1)
        await asyncio.sleep(0.5)
        stack.kill("worker")
        killed_after = time.monotonic() - moved_at
        assert game_record(stack, table_id)["seq"] == sent_at + 1, (
            f"the computer moved before the kill ({killed_after:.1f} s after the move): the machine is too slow "
            f"for this test's SLOW_MOVE_MS"
        )

        restarted_at = len(stack.log("worker"))
        stack.start_worker("worker", AI_MOVE_DELAY_MS=str(SLOW_MOVE_MS))
        # Ready to move at once: the core loaded from the build, not compiled (docs/ai.md).
        assert_core_loaded(stack, "worker", since=restarted_at)
        # The move is made: by the killed task, delivered again after the
        # visibility timeout, or by the sweep a new worker runs (whichever
        # comes first; the other then finds the game moved on).
        event = await client.wait_for(lambda f: f["type"] == "event" and f["seq"] == sent_at + 2, timeout=60)
        assert event["seat"] != human
        # At least once: the killed task itself runs again, to its end.
        done = re.compile(rf"compute_ai_move\[{task_id}\] succeeded in [0-9.]+s: '(played|nothing)'")
        deadline = time.monotonic() + VISIBILITY_TIMEOUT_S + 20
        while not (finished := done.search(stack.log("worker")[restarted_at:])):
            assert time.monotonic() < deadline, (
                f"the killed task never ran again:\n{stack.log('worker')[-4000:]}"
            )
            await asyncio.sleep(0.2)
        # Exactly once: one computer move for the person's one move, whichever
        # task made it; then the game waits for the person (or is over).
        await asyncio.sleep(1)
        record = assert_replays(stack, table_id)
        assert record["seq"] == sent_at + 2, (finished.group(0), record["moves"][sent_at:])
        assert record["moves"][-1]["seat"] != human
        await client.wait_seq(sent_at + 2)
        assert client.seq == record["seq"]
    finally:
        await client.close()
        stack.stop("worker")
        stack.start_worker("worker")


async def test_redis_restarted_mid_game_loses_no_game(
    stack: Stack, stack_database: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # A private redis-server (never the machine's own) with its own site processes.
    workdir: Path = tmp_path_factory.mktemp("redis-restart")
    redis = PrivateRedis(workdir)
    redis.start()
    own = Stack(
        workdir,
        database_url=stack_database,
        redis_url=redis.url,
        env_overrides={
            "CELERY_VISIBILITY_TIMEOUT": "8",
            "CELERY_RESTORE_INTERVAL": "1",
            "AI_MOVE_DELAY_MS": "300",
        },
    )
    client: TableClient | None = None
    try:
        own.start_web("web")
        own.start_worker("worker")
        own.start_beat("beat")
        guest, table_id = new_guest_game(own.url("web"), preset="classic-draw", players=2, target=50)
        client = TableClient(own.url("web"), table_id, guest.cookie)
        await client.connect()
        await client.play_until(lambda c: c.seq >= 6, timeout=60)
        if client.my_turn():
            await client.act()  # a computer turn is now queued or running
        redis.kill()
        await asyncio.sleep(2)
        redis.start()
        await client.reconnect(own.url("web"), timeout=60)
        await client.play_until(lambda c: c.game_over is not None, timeout=240, turn_timeout=60)
        record = assert_replays(own, table_id)
        assert record["finished"]
        assert client.state["seq"] == record["seq"]
        assert events_seen(client) == every_event_since_joining(client, record["seq"])
    except BaseException:
        print(own.logs())
        raise
    finally:
        if client is not None:
            await client.close()
        own.stop_all()
        redis.stop()
