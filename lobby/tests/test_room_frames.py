"""What the sockets tell the players of a room game: the table socket's
``settlement`` notice once the game is settled (docs/protocol.md), and the
lobby socket's ``matched`` with ``"resume": true`` for a member whose room
game is being played (docs/members.md)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.engine import Play, legal_actions
from games.models import Game, Table
from games.play import selectors as game_selectors
from games.play import services as game_services
from games.tests.helpers import play_past_the_opening
from games.tests.sockets import Socket, new_session_key
from lobby import private, room_selectors, room_tables
from lobby.models import RoomTable
from lobby.tests.test_lobby import connect, member, receive_type

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def room_duel(alice, bob) -> Table:
    """A duel of the Passport room that alice opened and bob joined: being played."""
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=50)
    room_tables.join_table(table_id=table.pk, user=bob)
    return table


async def no_frame_of(communicator, kind: str, quiet: float = 0.5) -> bool:
    """True if no frame of ``kind`` arrives until the socket is quiet."""
    while not await communicator.receive_nothing(timeout=quiet):
        if (await communicator.receive_json_from())["type"] == kind:
            return False
    return True


async def test_the_table_socket_hears_the_settlement_once_it_is_stored() -> None:
    alice, bob = await member("alice"), await member("bob")

    table = await database_sync_to_async(room_duel)(alice, bob)
    watcher = Socket(table.pk, session_key=await database_sync_to_async(new_session_key)())
    assert (await watcher.connect())["type"] == "state"

    await database_sync_to_async(play_past_the_opening)(table)
    await database_sync_to_async(game_services.resign)(game_id=table.game.pk, seat=0)
    frame = await watcher.until("settlement")

    def stored() -> dict:
        room_table = RoomTable.objects.get(pk=table.pk)
        assert room_table.settled_at is not None  # written before it was announced
        return room_selectors.settlement_frame(room_table)

    assert frame == await database_sync_to_async(stored)()
    assert frame["table"] == table.pk
    assert frame["outcome"] == "paid"
    # Alice resigned: Bob (seat 1) takes the pot of 40 less the 5 % fee.
    by_seat = {result["seat"]: result for result in frame["results"]}
    assert (by_seat[0]["paid"], by_seat[0]["net"], by_seat[0]["place"]) == (0, -20, 2)
    assert (by_seat[1]["paid"], by_seat[1]["net"], by_seat[1]["place"]) == (38, 18, 1)
    assert (by_seat[0]["xp"], by_seat[1]["xp"]) == (0, 0)  # the first round was cut short
    # Settled once: a second settlement sends nothing.
    assert await database_sync_to_async(room_tables.settle)(table_id=table.pk) is False
    assert await no_frame_of(watcher.communicator, "settlement")
    await watcher.close()


async def test_a_member_whose_room_game_is_being_played_is_sent_back_to_it() -> None:
    alice, bob, carol = await member("alice"), await member("bob"), await member("carol")

    def tables() -> tuple[Table, Table]:
        playing = room_tables.open_table(owner=alice, room="passport", kind="duel", target=50)
        room_tables.join_table(table_id=playing.pk, user=bob)
        waiting = room_tables.open_table(owner=carol, room="passport", kind="duel", target=50)
        return playing, waiting

    playing, _waiting = await database_sync_to_async(tables)()
    for user in (alice, bob):
        lobby = await connect(user)
        resumed = await receive_type(lobby, "matched")
        assert resumed == {
            "type": "matched",
            "table": playing.pk,
            "url": f"/table/{playing.pk}/",
            "mode": "",
            "resume": True,
        }
        await lobby.disconnect()
    # A room table still waiting for players is not a game to go back to.
    lobby = await connect(carol)
    assert await no_frame_of(lobby, "matched")
    await lobby.disconnect()
    # Once the game is over, nothing to resume.
    await database_sync_to_async(game_services.resign)(game_id=playing.game.pk, seat=0)
    lobby = await connect(alice)
    assert await no_frame_of(lobby, "matched")
    await lobby.disconnect()


async def test_a_private_game_is_not_resumed() -> None:
    alice = await member("alice")

    def play_against_the_computer() -> Table:
        table = private.create_private_table(
            owner=alice, preset="classic-block", players=2, teams=False, target=50, public=False
        )
        private.seat_computer(table_id=table.pk, owner=alice, number=1, level="easy")
        return Table.objects.get(pk=table.pk)

    table = await database_sync_to_async(play_against_the_computer)()
    assert table.status == Table.Status.PLAYING
    lobby = await connect(alice)
    assert await no_frame_of(lobby, "matched")
    await lobby.disconnect()


async def test_a_member_whose_game_is_on_cannot_queue_again() -> None:
    """One game at a time: a room game being played refuses both queues, as a
    ranked game does (lobby/tests/test_lobby.py), and the refusal points to it."""
    alice, bob = await member("alice"), await member("bob")

    table = await database_sync_to_async(room_duel)(alice, bob)
    lobby = await connect(alice)
    await receive_type(lobby, "matched")  # sent back to it
    for frame in (
        {"type": "queue", "room": "passport", "mode": "duel-block"},
        {"type": "queue", "mode": "duel-block"},
    ):
        await lobby.send_json_to(frame)
        refused = await receive_type(lobby, "error")
        assert (refused["code"], refused["url"]) == ("in_game", f"/table/{table.pk}/")
    assert await no_frame_of(lobby, "queued")
    await lobby.disconnect()


def play_some(game_id: int, moves: int = 4) -> None:
    """A few tiles laid: a game really played, not one given up at the deal."""
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        state = game_selectors.game_state(game)
        if state is None or state.to_move is None:
            break
        actions = legal_actions(state)
        action = next((a for a in actions if isinstance(a, Play)), actions[0])
        game_services.play_move(game_id=game_id, seat=state.to_move, action=action, expected_seq=game.seq)


def play_then_resign(game_id: int) -> None:
    play_some(game_id)
    game_services.resign(game_id=game_id, seat=0)


async def frames_until(socket: Socket, kind: str) -> list[str]:
    """The types of the frames the socket receives, up to the first ``kind``."""
    await socket.until(kind)
    return [frame["type"] for frame in socket.frames]


async def test_the_settlement_is_announced_after_the_game_over() -> None:
    """What the table hears comes in the order it happened: the move that
    ended the game (its event, state and game_over), then the settlement of
    the chips it paid (docs/protocol.md, "Order of the announcements")."""
    alice, bob = await member("alice"), await member("bob")
    table = await database_sync_to_async(room_duel)(alice, bob)
    watcher = Socket(table.pk, session_key=await database_sync_to_async(new_session_key)())
    assert (await watcher.connect())["type"] == "state"

    await database_sync_to_async(play_then_resign)(table.game.pk)
    kinds = await frames_until(watcher, "settlement")
    assert "game_over" in kinds, kinds
    assert kinds.index("game_over") < kinds.index("settlement"), kinds
    await watcher.close()


async def test_a_settlement_that_outruns_the_game_over_waits_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a broker the settlement is a task of another process: its notice
    may reach the layer before the game's own broadcast does (or that one is
    lost). The socket then sends the game's end first, from the move log."""
    from games.live import broadcast as table_broadcast

    alice, bob = await member("alice"), await member("bob")
    table = await database_sync_to_async(room_duel)(alice, bob)
    watcher = Socket(table.pk, session_key=await database_sync_to_async(new_session_key)())
    assert (await watcher.connect())["type"] == "state"

    await database_sync_to_async(play_some)(table.game.pk)
    await watcher.until("state", seq=await database_sync_to_async(lambda: Game.objects.get(pk=table.game.pk).seq)())
    held: list[dict] = []
    send = table_broadcast.send_messages
    monkeypatch.setattr(table_broadcast, "send_messages", held.append)
    await database_sync_to_async(game_services.resign)(game_id=table.game.pk, seat=0)
    assert len(held) == 1, "the resignation's broadcast was held back"
    kinds = await frames_until(watcher, "settlement")
    assert "game_over" in kinds, kinds
    assert kinds.index("game_over") < kinds.index("settlement"), kinds
    # The game's broadcast, arriving late, is not sent twice.
    monkeypatch.setattr(table_broadcast, "send_messages", send)
    for messages in held:
        send(messages)
    assert await no_frame_of(watcher.communicator, "game_over")
    await watcher.close()


async def test_the_game_over_is_queued_before_the_news_of_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the process that ended the game, its frames are handed to the layer
    before anything game_finished's receivers announce (on_commit order)."""
    from games.live import broadcast as table_broadcast

    alice, bob = await member("alice"), await member("bob")
    table = await database_sync_to_async(room_duel)(alice, bob)
    await database_sync_to_async(play_some)(table.game.pk)
    sent: list[str] = []
    send = table_broadcast._send

    def record(messages):
        message = messages[0][1]
        if message["type"] == table_broadcast.NOTICE_MESSAGE:
            sent.append(message["frame"]["type"])
        else:
            sent.extend(frame["type"] for frame in table_broadcast.decoded_frames(message))
        send(messages)

    monkeypatch.setattr(table_broadcast, "_send", record)
    await database_sync_to_async(game_services.resign)(game_id=table.game.pk, seat=0)
    assert sent.index("game_over") < sent.index("settlement"), sent
