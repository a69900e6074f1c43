"""No frame ever carries a tile its viewer may not see.

Every frame sent to each seat and to the spectators over many complete games
of every preset is checked against the true state at its ``seq`` (replayed
from the seed and the move log): outside ``round_over`` a frame may only show
the tiles on the line and the viewer's own hand; a drawn tile only reaches
the drawer; ``round_over`` shows exactly the real hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.engine import PRESET_OPTIONS, State, view_for
from games.live import broadcast
from games.models import Game
from games.play import selectors, services
from games.tests.factories import ComputerSeatFactory, make_table
from games.tests.sockets import Socket, new_session

pytestmark = [pytest.mark.slow]

TilePair = tuple[int, int]


def pair(value: Iterable[int]) -> TilePair:
    a, b = value
    return (min(a, b), max(a, b))


def shown_tiles(node: Any, found: set[TilePair] | None = None) -> set[TilePair]:
    """Every tile a frame shows: under "hand", "line", "hands" and "tile" keys,
    at any depth (views, history entries, legal actions, events)."""
    found = set() if found is None else found
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("hand", "line") and value:
                found.update(pair(tile) for tile in value)
            elif key == "hands" and value:
                found.update(pair(tile) for hand in value for tile in hand)
            elif key == "tile" and value is not None:
                found.add(pair(value))
            else:
                shown_tiles(value, found)
    elif isinstance(node, list):
        for item in node:
            shown_tiles(item, found)
    return found


def truth_by_seq(game: Game) -> dict[int, State]:
    """The true state after each event (0: the deal), from seed + moves."""
    return {0 if move is None else move.seq: state for move, state in selectors.iter_states(game)}


def check_frame(frame: dict[str, Any], viewer: int | None, truth: dict[int, State]) -> None:
    """Fail if ``frame`` (sent to ``viewer``) shows anything it may not."""
    kind = frame["type"]
    if kind not in ("state", "event", "round_over", "game_over"):
        assert not shown_tiles(frame), frame  # notices, errors: no tile at all
        return
    state = truth[frame["seq"]]
    if kind == "round_over":
        assert frame["hands"] == [[t.to_list() for t in hand] for hand in state.hands]
        return
    allowed = {pair(t) for t, _laid in state.line}
    if viewer is not None:
        allowed |= {pair(t) for t in state.hands[viewer]}
    leaked = shown_tiles(frame) - allowed
    assert not leaked, f"viewer {viewer} shown {leaked} in {frame}"
    if kind == "state":
        assert frame["view"] == view_for(state, viewer).to_dict()
        for entry in frame["view"]["history"]:
            if entry["action"] == "draw" and entry["seat"] != viewer:
                assert entry["tile"] is None, entry
        if viewer is None:
            assert frame["view"]["hand"] == []
            assert frame["legal"] == []
    if kind == "event" and frame["action"] == "draw" and frame["seat"] != viewer:
        assert "tile" not in frame, frame


def viewer_of(group: str) -> int | None:
    return None if group.endswith(".public") else int(group.rsplit(".", 1)[1])


CONFIGS = [
    (preset, players, teams)
    for preset, options in PRESET_OPTIONS.items()
    for players, teams in options.combinations()
]


@pytest.mark.django_db
@pytest.mark.parametrize(("preset", "players", "teams"), CONFIGS)
def test_broadcasts_and_syncs_of_computer_games_leak_no_tile(
    preset: str, players: int, teams: bool, computer_queue, sent, django_capture_on_commit_callbacks
) -> None:
    """Complete games of computers (every target of the preset): every group
    message, then every viewer's catch-up from every few events."""
    options = PRESET_OPTIONS[preset]
    checked = 0
    # A single round if the preset has one, and its shortest game of rounds.
    targets = sorted({t for t in options.targets if t == 0} | {min(t for t in options.targets if t)})
    for target in targets:
        with django_capture_on_commit_callbacks(execute=True):
            table = make_table(
                preset=preset,
                players=players,
                teams=teams,
                target=target,
                seats=ComputerSeatFactory.build_batch(players, level="easy"),
            )
        for _ in range(5000):
            if not computer_queue.PENDING:
                break
            with django_capture_on_commit_callbacks(execute=True):
                computer_queue.run_pending(limit=1)
        game = Game.objects.get(table=table)
        assert game.finished
        truth = truth_by_seq(game)
        mine = [(g, m) for g, m in sent if g.startswith(f"table.{table.pk}.")]
        assert {viewer_of(g) for g, _m in mine} == {None, *range(players)}
        for group, message in mine:
            frames = broadcast.decoded_frames(message) if "frames" in message else [message["frame"]]
            for frame in frames:
                check_frame(frame, viewer_of(group), truth)
                checked += 1
        for viewer in (None, *range(players)):
            for after in range(0, game.seq, max(1, game.seq // 3)):
                for frame in selectors.sync_frames(game, after=after, viewer=viewer, humans=set()):
                    check_frame(frame, viewer, truth)
                    checked += 1
    assert checked > 100


# -- over real websockets -------------------------------------------------------------


@database_sync_to_async
def people_table(keys: list[str], preset: str, players: int, teams: bool, target: int) -> tuple[int, int]:
    table = make_table(
        preset=preset,
        players=players,
        teams=teams,
        target=target,
        seats=[services.SeatSpec(guest_key=key) for key in keys],
    )
    return table.pk, table.game.pk


@database_sync_to_async
def truth_of(game_id: int) -> tuple[dict[int, State], int]:
    game = Game.objects.get(pk=game_id)
    return truth_by_seq(game), game.seq


async def read_until_state(sock: Socket, seq: int) -> dict[str, Any]:
    while True:
        frame = await sock.receive(timeout=10)
        if frame["type"] == "state" and frame["seq"] == seq:
            return frame


SOCKET_GAMES = [
    ("classic-draw", 3, False, 50),
    ("classic-block", 4, False, 50),
    ("arena", 4, True, 50),
    ("quick", 3, False, 0),
    ("duel-block", 2, False, 0),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("computer_queue")
@pytest.mark.parametrize(("preset", "players", "teams", "target"), SOCKET_GAMES)
async def test_every_frame_to_every_player_and_a_spectator_leaks_no_tile(
    preset: str, players: int, teams: bool, target: int, monkeypatch
) -> None:
    """People at every seat play a whole game over the websocket, each from
    the ``legal`` of its own last state; a spectator watches; each socket
    keeps every frame it received."""
    from games.socket import table as consumers

    monkeypatch.setattr(consumers.TableConsumer, "rate_per_second", 1000.0)  # these players are quick
    keys = [await new_session() for _ in range(players)]
    table_id, game_id = await people_table(keys, preset, players, teams, target)
    seats = [Socket(table_id, session_key=key) for key in keys]
    watcher = Socket(table_id, session_key=await new_session())
    last = [await sock.connect() for sock in seats]
    await watcher.connect()
    rng = random.Random(f"{preset}-{players}")
    seq = 0
    for _ in range(3000):
        view = last[0]["view"]
        if view["game_over"]:
            break
        if view["to_move"] is not None:
            mover = view["to_move"]
            choice = rng.choice(last[mover]["legal"])
        else:
            mover = rng.randrange(players)  # any person may deal the next round
            choice = {"type": "next_round"}
            assert choice in last[mover]["legal"]
        await seats[mover].send({**choice, "seq": seq})
        seq += 1
        last = [await read_until_state(sock, seq) for sock in seats]
        await read_until_state(watcher, seq)
    assert last[0]["view"]["game_over"]
    for sock in (*seats, watcher):
        await sock.drain(0.2)
    truth, final_seq = await truth_of(game_id)
    assert final_seq == seq
    for viewer, sock in [*enumerate(seats), (None, watcher)]:
        kinds = {frame["type"] for frame in sock.frames}
        assert {"state", "event", "round_over", "game_over"} <= kinds
        for frame in sock.frames:
            check_frame(frame, viewer, truth)
    for sock in (*seats, watcher):
        await sock.close()


def test_the_checker_catches_a_leak() -> None:
    """The check above can fail: a spectator frame with one hidden tile."""
    from games.engine import new_game, rules_for

    state = new_game(rules_for("classic-draw"), seed=5)
    truth = {0: state}
    frame = {"type": "state", "seq": 0, "view": view_for(state, None).to_dict(), "legal": []}
    check_frame(frame, None, truth)
    hidden = state.hands[0][0].to_list()
    frame["view"]["hand"] = [hidden]
    with pytest.raises(AssertionError):
        check_frame(frame, None, truth)
    event = {"type": "event", "seq": 0, "seat": 1, "action": "draw", "tile": state.boneyard[0].to_list()}
    with pytest.raises(AssertionError):
        check_frame(event, 0, truth)
