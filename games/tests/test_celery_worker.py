"""Computer turns through a real Celery worker process and this machine's
Redis (the path of every production move), on a PostgreSQL database made
for the test. The tables are created in a separate process whose settings
have ``REDIS_URL``: ``transaction.on_commit`` sends the task to Redis."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.support.stack import Stack, fresh_stack

pytestmark = [pytest.mark.services, pytest.mark.stack, pytest.mark.slow, pytest.mark.timeout(240)]

CHECK = """
from games.engine import dump_state
from games.models import Game
from games.play.selectors import game_state, rebuild_state
game = Game.objects.get(pk={game_id})
moves = list(game.moves.order_by("seq").values("seq", "seat", "kind", "payload"))
result = {{
    "seq": game.seq,
    "finished": game.finished,
    "to_move": game.to_move,
    "same": dump_state(rebuild_state(game)) == dump_state(game_state(game)),
    "moves": moves,
}}
"""

ALL_COMPUTERS = """
from games.engine import rules_for
from games.models import Table
from games.play.services import SeatSpec, create_table
table = create_table(
    kind=Table.Kind.PRIVATE, rules=rules_for("classic-block", players=3, target=50),
    preset="classic-block", seats=[SeatSpec(level="easy") for _ in range(3)], public=True,
)
result = table.game.pk
"""

GUEST_AGAINST_COMPUTER = """
from games.engine import commit_seed, new_game, rules_for
from games.models import Game, Table
from games.play.services import SeatSpec, create_table, start_game
from games.tasks import compute_ai_move
rules = rules_for("classic-draw", players=2)
table = create_table(
    kind=Table.Kind.COMPUTER, rules=rules, preset="classic-draw",
    seats=[SeatSpec(guest_key="guest"), SeatSpec(level="medium")], public=True, start=False,
)
# A seed whose deal lets the computer (seat 1) act first, fixed before the deal.
seed = next(f"seed-{{n}}" for n in range(1000) if new_game(rules, f"seed-{{n}}").to_move == 1)
Game.objects.filter(table=table).update(seed=seed, commitment=commit_seed(seed))
game = start_game(table=table)        # queues the computer's turn after commit
for _ in range(3):                    # and the same task three more times
    compute_ai_move.apply_async((game.pk, 0))
result = game.pk
"""


@pytest.fixture(scope="module")
def worker_stack(postgres_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with fresh_stack(
        tmp_path_factory.mktemp("celery"), postgres_url=postgres_url, redis_url=redis_url, prefix="dominoes_games_celery"
    ) as stack:
        stack.start_worker("worker", concurrency=2)
        yield stack


def wait_for(stack: Stack, game_id: int, done, *, timeout: float = 90) -> dict:
    """Poll the game row (plain SQL) until ``done(row)``; then the full check."""
    import psycopg

    deadline = time.monotonic() + timeout
    row: dict = {}
    with psycopg.connect(stack.database_url, autocommit=True) as connection:
        while time.monotonic() < deadline:
            seq, finished_at, to_move = connection.execute(
                "SELECT seq, finished_at, to_move FROM games_game WHERE id = %s", (game_id,)
            ).fetchone()
            row = {"seq": seq, "finished": finished_at is not None, "to_move": to_move}
            if done(row):
                return stack.django(CHECK.format(game_id=game_id))  # type: ignore[return-value]
            time.sleep(0.2)
    raise AssertionError(f"game {game_id} stuck at {row.get('seq')}:\n{stack.logs()}")


def test_a_worker_plays_a_whole_game_of_computers(worker_stack: Stack) -> None:
    game_id = worker_stack.django(ALL_COMPUTERS)
    record = wait_for(worker_stack, game_id, lambda r: r["finished"])
    assert record["same"]  # the move log replays to the stored state
    assert [m["seq"] for m in record["moves"]] == list(range(1, record["seq"] + 1))
    plays = [m for m in record["moves"] if m["kind"] in ("play", "draw", "pass")]
    assert plays
    assert all(m["payload"]["by"] == "computer" for m in plays)
    # Nobody to press "next round": the worker dealt the rounds itself.
    rounds = [m for m in record["moves"] if m["kind"] == "next_round"]
    assert all(m["seat"] is None for m in rounds)
    assert "compute_ai_move" in worker_stack.log("worker")


def test_repeated_tasks_play_the_turn_once(worker_stack: Stack) -> None:
    game_id = worker_stack.django(GUEST_AGAINST_COMPUTER)
    wait_for(worker_stack, game_id, lambda r: r["to_move"] == 0)
    time.sleep(1.0)  # let the duplicates run
    record = worker_stack.django(CHECK.format(game_id=game_id))
    assert record["to_move"] == 0
    assert record["same"]
    # The computer's turn: draws until a tile fits, then one play; never twice.
    kinds = [m["kind"] for m in record["moves"]]
    assert all(m["seat"] == 1 for m in record["moves"])
    assert kinds[-1] in ("play", "pass")
    assert set(kinds[:-1]) <= {"draw"}
