"""The table websocket through the real ASGI stack (sessions, auth, origin)."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test import Client

from games.engine import Draw, Pass, Play, Tile, legal_actions
from games.live import broadcast
from games.models import Game, Move
from games.play import selectors, services
from games.signals import member_bots
from games.tests.factories import ComputerSeatFactory, UserFactory, make_table
from games.tests.sockets import Socket, dumps, new_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_queue")]


@database_sync_to_async
def two_guest_table(key0: str, key1: str, **options):
    table = make_table(
        seats=[services.SeatSpec(guest_key=key0), services.SeatSpec(guest_key=key1)], **options
    )
    return table.pk, Game.objects.get(table=table).pk


@database_sync_to_async
def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


@database_sync_to_async
def state_of(game_id: int):
    return selectors.game_state(Game.objects.get(pk=game_id))


@database_sync_to_async
def move_count(game_id: int) -> int:
    return Move.objects.filter(game_id=game_id).count()


@database_sync_to_async
def play_directly(game_id: int, rng: random.Random):
    game = Game.objects.get(pk=game_id)
    state = selectors.game_state(game)
    if state.to_move is None:
        return services.start_next_round(game_id=game_id, seat=None, expected_seq=game.seq)
    action = rng.choice(legal_actions(state))
    return services.play_move(game_id=game_id, seat=state.to_move, action=action, expected_seq=game.seq)


def can_play(state) -> bool:
    return any(isinstance(a, Play) for a in legal_actions(state))


async def seated_pair(*, where=None, **options):
    """Two guests at a new table (dealt again until ``where(state)`` holds)."""
    keys = [await new_session(), await new_session()]
    for _ in range(100):
        table_id, game_id = await two_guest_table(*keys, **options)
        if where is None or where(await state_of(game_id)):
            break
    else:
        raise AssertionError("no deal matched")
    sockets = [Socket(table_id, session_key=key) for key in keys]
    first = [await sock.connect() for sock in sockets]
    return table_id, game_id, sockets, first


def frame_for(action, seq: int) -> dict:
    if isinstance(action, Play):
        return {"type": "play", "tile": action.tile.to_list(), "end": str(action.end), "seq": seq}
    return {"type": "draw" if isinstance(action, Draw) else "pass", "seq": seq}


# -- connecting ----------------------------------------------------------------------


async def test_a_guest_gets_their_seat_view_with_the_table_object() -> None:
    key = await new_session()
    table_id, game_id = await two_guest_table(key, await new_session(), preset="classic-block")
    sock = Socket(table_id, session_key=key, language="fr")
    frame = await sock.connect()
    state = await state_of(game_id)
    game = await game_row(game_id)
    assert frame["type"] == "state"
    assert frame["seq"] == 0
    assert frame["view"]["seat"] == 0
    assert frame["view"]["hand"] == [t.to_list() for t in state.hands[0]]
    assert frame["view"]["hand_counts"] == list(state.hand_counts)
    table = frame["table"]
    assert table["id"] == table_id
    assert table["commitment"] == game.commitment
    assert len(table["commitment"]) == 64
    assert table["status"] == "playing"
    assert table["ranked"] is False
    assert table["spectators"] == 0
    assert [(p["seat"], p["kind"], p["name"]) for p in table["players"]] == [
        (0, "human", "Invité"),
        (1, "human", "Invité"),
    ]
    assert "seed" not in dumps(frame)
    assert game.seed not in dumps(frame)
    if state.to_move == 0:
        assert frame["legal"]
        assert all(f["type"] in ("play", "draw", "pass") for f in frame["legal"])
    else:
        assert frame["legal"] == []
    await sock.close()


async def test_a_spectator_sees_no_hand_and_is_counted() -> None:
    table_id, _game_id, (p0, p1), _ = await seated_pair()
    watcher = Socket(table_id, session_key=await new_session())
    frame = await watcher.connect()
    assert frame["view"]["seat"] is None
    assert frame["view"]["hand"] == []
    assert frame["legal"] == []
    assert frame["table"]["spectators"] == 1
    assert (await p0.until("spectators")) == {"type": "spectators", "count": 1}
    await watcher.close()
    assert (await p1.until("spectators", count=0))["count"] == 0
    anonymous = Socket(table_id)
    assert (await anonymous.connect())["view"]["seat"] is None
    for sock in (p0, p1, anonymous):
        await sock.close()


async def test_a_player_is_their_seat_in_every_tab() -> None:
    key = await new_session()
    table_id, _game_id = await two_guest_table(key, await new_session())
    tabs = [Socket(table_id, session_key=key) for _ in range(2)]
    views = [(await tab.connect())["view"] for tab in tabs]
    assert views[0] == views[1]
    assert views[0]["seat"] == 0
    assert len(views[0]["hand"]) == views[0]["hand_counts"][0] >= 6
    for tab in tabs:
        await tab.close()


async def test_a_member_is_found_by_account() -> None:
    user = await database_sync_to_async(UserFactory.create)()
    client = Client()
    await database_sync_to_async(client.force_login)(user)
    key = client.cookies["sessionid"].value
    table = await database_sync_to_async(make_table)(
        seats=[ComputerSeatFactory.build(), services.SeatSpec(user=user)]
    )
    sock = Socket(table.pk, session_key=key)
    frame = await sock.connect()
    assert frame["view"]["seat"] == 1
    assert frame["table"]["players"][1]["name"] == user.username
    assert frame["table"]["players"][0] == {
        "seat": 0,
        "name": "Computer 1",
        "kind": "computer",
        "level": "easy",
        "member": None,
        "bot": False,
    }
    await sock.close()


async def test_a_bot_account_s_seat_is_flagged_in_the_table_object() -> None:
    """The apps above say which members are bots (``member_bots``): the seat
    keeps it, and every ``state`` frame's players carry it (docs/protocol.md)."""
    bot, person = await database_sync_to_async(UserFactory.create_batch)(2)

    def bots(sender: object, user_ids: list[int], **_kwargs: object) -> set[int]:
        return {bot.pk} & set(user_ids)

    member_bots.connect(bots, dispatch_uid="test.bots")
    try:
        table = await database_sync_to_async(make_table)(
            seats=[services.SeatSpec(user=person), services.SeatSpec(user=bot)]
        )
    finally:
        member_bots.disconnect(dispatch_uid="test.bots")
    sock = Socket(table.pk, session_key=await new_session())
    frame = await sock.connect()
    assert [player["bot"] for player in frame["table"]["players"]] == [False, True]
    await sock.close()


async def test_missing_and_private_tables_are_refused() -> None:
    sock = Socket(999_999)
    await sock.communicator.connect()
    assert (await sock.receive())["code"] == "not_found"
    assert (await sock.communicator.receive_output())["code"] == 4404
    key = await new_session()
    table_id, _ = await two_guest_table(key, await new_session(), public=False)
    stranger = Socket(table_id, session_key=await new_session())
    await stranger.communicator.connect()
    assert (await stranger.receive())["code"] == "not_allowed"
    assert (await stranger.communicator.receive_output())["code"] == 4403
    player = Socket(table_id, session_key=key)
    assert (await player.connect())["view"]["seat"] == 0
    await player.close()


# -- playing --------------------------------------------------------------------------


async def test_a_move_reaches_each_viewer_as_event_then_state() -> None:
    table_id, game_id, sockets, _ = await seated_pair(preset="classic-block", where=can_play)
    watcher = Socket(table_id)
    await watcher.connect()
    await sockets[0].drain(0.1)
    await sockets[1].drain(0.1)
    state = await state_of(game_id)
    mover = state.to_move
    action = next(a for a in legal_actions(state) if isinstance(a, Play))
    await sockets[mover].send(frame_for(action, 0))
    for viewer, sock in ((mover, sockets[mover]), (1 - mover, sockets[1 - mover]), (None, watcher)):
        event = await sock.until("event")
        assert event == {
            "type": "event",
            "seq": 1,
            "seat": mover,
            "action": "play",
            "tile": action.tile.to_list(),
            "end": str(action.end),
        }
        after = await sock.receive()
        assert after["type"] == "state"
        assert after["seq"] == 1
        assert after["view"]["seat"] == viewer
        assert after["table"]["players"]
        assert "commitment" in after["table"]
        # The chained move log's head after move 1, the same for every viewer.
        assert after["chain"] == (await game_row(game_id)).chain
        assert await sock.nothing_more(0.2)  # the mover's socket skips the broadcast copy
    assert await move_count(game_id) == 1
    for sock in (*sockets, watcher):
        await sock.close()


async def test_every_refusal_is_an_error_frame_that_changes_nothing() -> None:
    table_id, game_id, sockets, _ = await seated_pair(preset="classic-block", where=can_play)
    watcher = Socket(table_id)
    await watcher.connect()
    state = await state_of(game_id)
    mover, other = state.to_move, 1 - state.to_move
    me, them = sockets[mover], sockets[other]
    await me.drain(0.1)
    await them.drain(0.1)
    left, right = state.ends
    hand = state.hands[mover]
    misfit = next((t for t in hand if not t.has(left) and not t.has(right)), None)
    cases = [
        (me, "{not json", "bad_frame"),
        (me, "[1, 2]", "bad_frame"),
        (me, dumps({"type": "teleport"}), "bad_frame"),
        (me, dumps({"type": "play", "tile": [9, 9], "end": "left", "seq": 0}), "bad_frame"),
        (me, dumps({"type": "play", "tile": [1, 2], "end": "left"}), "bad_frame"),
        (me, dumps({"type": "pass", "seq": "zero"}), "bad_frame"),
        (me, dumps({"type": "sync", "seq": 1.5}), "bad_frame"),
        (me, "x" * 10_000, "bad_frame"),
        (watcher, dumps({"type": "pass", "seq": 0}), "not_seated"),
        (watcher, dumps({"type": "resign"}), "not_seated"),
        (them, dumps({"type": "pass", "seq": 0}), "not_your_turn"),
        (
            me,
            dumps({"type": "play", "tile": state.hands[other][0].to_list(), "end": "left", "seq": 0}),
            "illegal",
        ),
        (me, dumps({"type": "pass", "seq": 0}), "illegal"),  # a tile fits
        (me, dumps({"type": "play", "tile": hand[0].to_list(), "end": "left", "seq": 5}), "stale"),
        (me, dumps({"type": "next_round"}), "illegal"),  # the round is not over
        (watcher, dumps({"type": "offer_draw"}), "not_seated"),
    ]
    if misfit is not None:
        cases.append(
            (me, dumps({"type": "play", "tile": misfit.to_list(), "end": "right", "seq": 0}), "illegal")
        )
    for sock, text, code in cases:
        await sock.send_text(text)
        frame = await sock.until("error")
        assert frame["code"] == code, (text[:60], frame)
        assert frame["message"]
    await me.send_bytes(b"\x00\x01")
    assert (await me.until("error"))["reason"] == "binary"
    assert await move_count(game_id) == 0
    game = await game_row(game_id)
    assert game.seq == 0
    assert selectors.game_state(game) == state
    for sock in (*sockets, watcher):
        assert await sock.nothing_more(0.1)  # no event was broadcast
        await sock.close()


async def test_a_stale_seq_says_where_the_table_is() -> None:
    _table_id, game_id, sockets, _ = await seated_pair()
    await play_directly(game_id, random.Random(1))
    state = await state_of(game_id)
    sock = sockets[state.to_move]
    await sock.drain(0.2)
    await sock.send(frame_for(legal_actions(state)[0], 0))
    error = await sock.until("error")
    assert error["code"] == "stale"
    assert error["seq"] == 1
    assert await move_count(game_id) == 1
    for s in sockets:
        await s.close()


async def test_flooding_is_rate_limited_then_closed(monkeypatch) -> None:
    from games.socket import table as consumers

    monkeypatch.setattr(consumers.TableConsumer, "rate_per_second", 0.001)  # no refill during the test
    table_id, _game_id, sockets, _ = await seated_pair()
    watcher = Socket(table_id)
    await watcher.connect()
    for _ in range(int(consumers.TableConsumer.rate_burst) + 24):
        await watcher.send({"type": "ping"})
    frames = await watcher.drain(0.3)
    assert sum(1 for f in frames if f["type"] == "pong") == consumers.TableConsumer.rate_burst
    errors = [f["code"] for f in frames if f["type"] == "error"]
    assert 1 <= len(errors) <= 3
    assert set(errors) == {"rate_limited"}
    for _ in range(400):
        await watcher.send({"type": "ping"})
    closed = None
    for _ in range(50):
        output = await watcher.communicator.receive_output(timeout=2)
        if output["type"] == "websocket.close":
            closed = output
            break
    assert closed == {"type": "websocket.close", "code": 4429}
    # As a server would after the close: the socket is gone, the consumer ends
    # (left running, its task is cancelled mid-wait when the test's loop closes).
    await watcher.close()
    # The other sockets of the table are untouched.
    await sockets[0].send({"type": "ping"})
    assert (await sockets[0].until("pong"))["type"] == "pong"
    for sock in sockets:
        await sock.close()


async def test_sync_replays_the_missed_events_and_ends_on_the_fresh_view() -> None:
    table_id, game_id, sockets, _ = await seated_pair(preset="classic-draw")
    await sockets[0].close()
    rng = random.Random(7)
    for _ in range(6):
        await play_directly(game_id, rng)
    late = Socket(table_id, session_key=None)  # a spectator that saw event 0
    await late.connect()
    await late.drain(0.1)
    await late.send({"type": "sync", "seq": 0})
    got = await late.through("state", seq=6) + await late.drain(0.2)
    frames = [f for f in got if f["type"] != "spectators"]
    events = [f for f in frames if f["type"] == "event"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4, 5, 6]
    assert all("tile" not in e for e in events if e["action"] == "draw")
    fresh = Socket(table_id)
    fresh_state = await fresh.connect()
    assert frames[-1]["type"] == "state"
    assert frames[-1]["view"] == fresh_state["view"]
    assert frames[-1]["seq"] == 6
    # Each replayed state carries the head after its own move.
    heads = await database_sync_to_async(
        lambda: dict(Move.objects.filter(game_id=game_id).values_list("seq", "chain"))
    )()
    assert [(f["seq"], f["chain"]) for f in frames if f["type"] == "state"] == sorted(heads.items())
    assert fresh_state["chain"] == heads[6]
    # A sync with nothing missed (or no seq) is just the state.
    await late.send({"type": "sync", "seq": 6})
    got = await late.through("state", seq=6) + await late.drain(0.2)
    assert [f["type"] for f in got if f["type"] != "spectators"] == ["state"]
    for sock in (sockets[1], late, fresh):
        await sock.close()


async def test_a_socket_that_misses_a_broadcast_catches_up(monkeypatch) -> None:
    _table_id, game_id, sockets, _ = await seated_pair(preset="classic-draw")
    listener = sockets[0]
    await listener.drain(0.1)
    real_send = broadcast._send
    monkeypatch.setattr(broadcast, "_send", lambda messages: None)  # the layer drops move 1
    rng = random.Random(11)
    await play_directly(game_id, rng)
    monkeypatch.setattr(broadcast, "_send", real_send)
    await play_directly(game_id, rng)
    frames = await listener.through("event", seq=2) + await listener.drain(0.2)
    assert [f["seq"] for f in frames if f["type"] == "event"] == [1, 2]
    fresh = Socket(_table_id, session_key=None)
    await fresh.connect()
    assert frames[-1]["type"] == "state"
    assert frames[-1]["seq"] == 2
    for sock in (*sockets, fresh):
        await sock.close()


async def test_next_round_then_resign_over_the_socket() -> None:
    _table_id, game_id, sockets, _ = await seated_pair(preset="classic-block", target=100)
    rng = random.Random(2)
    while not (await state_of(game_id)).round_over:
        await play_directly(game_id, rng)
    over = await sockets[1].until("round_over")
    state = await state_of(game_id)
    assert over["hands"] == [[t.to_list() for t in hand] for hand in state.hands]
    assert over["result"] == state.round_result.to_dict()
    last_state = [f for f in sockets[1].frames if f["type"] == "state"][-1]
    assert {"type": "next_round"} in last_state["legal"]
    seq = (await game_row(game_id)).seq
    await sockets[1].send({"type": "next_round", "seq": seq})
    event = await sockets[1].until("event")
    assert event["action"] == "next_round"
    assert event["seat"] == 1
    assert (await sockets[1].receive())["view"]["round"] == 2
    await sockets[0].send({"type": "resign"})
    done = await sockets[0].until("game_over")
    assert done["winner"] == 1
    assert done["reason"] == "resigned"
    assert done["resigned"] == 0
    assert (await sockets[1].until("game_over"))["winner"] == 1
    await sockets[0].send({"type": "offer_draw"})
    assert (await sockets[0].until("error"))["code"] == "illegal"
    for sock in sockets:
        await sock.close()


async def test_draw_offers_are_announced_and_agreed(settings) -> None:
    _table_id, _game_id, sockets, _ = await seated_pair()
    await sockets[0].send({"type": "offer_draw"})
    offer = await sockets[1].until("draw_offer")
    assert offer == {"type": "draw_offer", "seat": 0, "seats": [0]}
    await sockets[1].send({"type": "offer_draw"})
    over = await sockets[0].until("game_over")
    assert over["winner"] is None
    assert over["reason"] == "agreed_draw"
    final = [f for f in sockets[0].frames if f["type"] == "state"][-1]
    assert final["table"]["status"] == "finished"
    for sock in sockets:
        await sock.close()


async def test_a_finished_table_still_shows_its_final_state() -> None:
    table_id, game_id, sockets, _ = await seated_pair(preset="duel-block", target=0)
    rng = random.Random(4)
    while not (await state_of(game_id)).game_over:
        await play_directly(game_id, rng)
    for sock in sockets:
        await sock.close()
    watcher = Socket(table_id)
    frame = await watcher.connect()
    assert frame["view"]["game_over"]
    assert frame["table"]["status"] == "finished"
    kinds = [f["type"] for f in await watcher.drain(0.2)]
    assert kinds == ["round_over", "game_over", "spectators"]
    await watcher.close()


async def test_a_guest_plays_a_whole_game_against_computers_in_background_threads(settings) -> None:
    """Embedded mode: computer turns run on the in-process thread pool, their
    pauses on timers.

    On PostgreSQL (CI's second pass): the pool's threads and the socket's share the
    in-memory SQLite test database's one cache, whose table locks answer "database
    table is locked" at once instead of waiting as a database file does (the socket's
    connect failed so in a CI run). The browser tests play computers on the embedded
    site's threads with a SQLite file."""
    if connection.vendor == "sqlite":
        pytest.skip("threads share the in-memory test database badly; PostgreSQL runs this test")
    settings.GAMES_DISPATCH = "thread"
    settings.AI_MOVE_DELAY_MS = 20
    key = await new_session()
    table = await database_sync_to_async(services.create_computer_table)(
        guest_key=key, preset="quick", players=4, teams=False, target=0, level="easy"
    )
    sock = Socket(table.pk, session_key=key)
    frame = await sock.connect()
    rng = random.Random(9)
    for _ in range(200):
        if frame["type"] == "game_over":
            break
        if frame["type"] == "state" and frame["legal"] and frame["view"]["to_move"] == 0:
            choice = rng.choice(frame["legal"])
            await sock.send({**choice, "seq": frame["seq"]})
        frame = await sock.receive(timeout=10)
    assert frame["type"] == "game_over"
    game = await database_sync_to_async(Game.objects.get)(table=table)
    assert game.finished
    assert game.seq == await move_count(game.pk)
    await sock.close()


async def test_the_pass_and_draw_frames_parse_to_actions() -> None:
    # The client frames of INTERFACES section 5 map to the engine's actions.
    from games.engine import action_from_json

    assert action_from_json({"type": "draw", "seq": 3}, 1) == Draw(1)
    assert action_from_json({"type": "pass", "seq": 3}, 0) == Pass(0)
    assert action_from_json({"type": "play", "tile": [5, 3], "end": "right"}, 2) == Play(
        2, Tile(3, 5), "right"
    )


async def test_a_waiting_table_starts_on_the_socket_of_who_took_a_seat_meanwhile() -> None:
    keys = [await new_session(), await new_session()]

    @database_sync_to_async
    def waiting_table():
        return make_table(seats=[services.SeatSpec(guest_key=keys[0]), services.SeatSpec()], start=False)

    table = await waiting_table()
    late = Socket(table.pk, session_key=keys[1])  # not seated yet: a spectator
    first = await late.connect()
    assert first["view"] is None
    assert first["seq"] == 0
    assert first["table"]["status"] == "waiting"
    assert [p["kind"] for p in first["table"]["players"]] == ["human", "open"]

    @database_sync_to_async
    def take_seat_and_start():
        table.seats.filter(number=1).update(guest_key=keys[1])
        services.start_game(table=table)

    await take_seat_and_start()
    frame = await late.until("state")
    assert frame["view"]["seat"] == 1
    assert frame["view"]["hand"]
    assert frame["table"]["status"] == "playing"
    assert [p["kind"] for p in frame["table"]["players"]] == ["human", "human"]
    await late.close()


async def test_a_broadcast_reaches_the_sockets_without_a_trip_to_the_database_thread(monkeypatch) -> None:
    # Channels runs ``aclose_old_connections`` on the database thread before
    # every message of a consumer; the table socket reaches the database only
    # through database_sync_to_async (which closes old connections itself),
    # so broadcasts must not queue behind the moves on that thread.
    import channels.consumer

    hops: list[int] = []
    original = channels.consumer.aclose_old_connections

    async def counted() -> None:
        hops.append(1)
        await original()

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    table_id, game_id, sockets, _ = await seated_pair(preset="classic-block", where=can_play)
    watcher = Socket(table_id)
    await watcher.connect()
    state = await state_of(game_id)
    action = next(a for a in legal_actions(state) if isinstance(a, Play))
    await sockets[state.to_move].send(frame_for(action, 0))
    for sock in (sockets[1 - state.to_move], watcher):
        assert (await sock.until("event"))["seq"] == 1
        assert (await sock.until("state"))["table"]["status"] == "playing"
    assert hops == []
    for sock in (*sockets, watcher):
        await sock.close()


async def test_moves_stored_on_move_threads_reach_every_viewer(settings, monkeypatch) -> None:
    from games.socket import table as consumers

    settings.MOVE_THREADS = 2
    monkeypatch.setattr(consumers, "_move_threads", None)
    stored_on: list[str] = []
    play_move = services.play_move

    def recording(**kwargs):
        import threading

        stored_on.append(threading.current_thread().name)
        return play_move(**kwargs)

    monkeypatch.setattr(services, "play_move", recording)
    _table_id, game_id, sockets, _ = await seated_pair(preset="classic-block", where=can_play)
    state = await state_of(game_id)
    action = next(a for a in legal_actions(state) if isinstance(a, Play))
    await sockets[state.to_move].send(frame_for(action, 0))
    for sock in sockets:
        assert (await sock.until("event"))["seq"] == 1
    assert await move_count(game_id) == 1
    assert [name.startswith("moves") for name in stored_on] == [True]
    executor = consumers._move_threads
    for sock in sockets:
        await sock.close()
    if executor is not None:
        executor.shutdown(wait=True)


async def test_quick_reactions_reach_the_table_validated_and_rate_limited() -> None:
    from django.core.cache import cache

    await database_sync_to_async(cache.clear)()
    table_id, _game_id, (p0, p1), _ = await seated_pair()
    watcher = Socket(table_id, session_key=await new_session())
    await watcher.connect()
    await p0.send({"type": "react", "id": "good_move"})
    expected = {"type": "reaction", "seat": 0, "id": "good_move"}
    assert await p1.until("reaction") == expected
    assert await watcher.until("reaction") == expected
    assert await p0.until("reaction") == expected
    # Again at once: refused, nothing sent to the others.
    await p0.send({"type": "react", "id": "thanks"})
    error = await p0.until("error")
    assert (error["code"], error["reason"]) == ("rate_limited", "reaction")
    # Only the predefined ids; never free text; never from a spectator.
    for bad in ({"type": "react", "id": "you are bad"}, {"type": "react"}, {"type": "react", "id": ["gg"]}):
        await p1.send(bad)
        error = await p1.until("error")
        assert (error["code"], error["reason"]) == ("bad_frame", "reaction")
    await watcher.send({"type": "react", "id": "hello"})
    assert (await watcher.until("error"))["code"] == "not_seated"
    assert await p0.nothing_more()
    assert not [f for f in p1.frames if f["type"] == "reaction" and f["id"] != "good_move"]
    for sock in (p0, p1, watcher):
        await sock.close()
