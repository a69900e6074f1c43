"""The lobby websocket: queues per mode, the matcher, counters."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from games.models import Presence, Seat, Table
from lobby.consumers import LobbyConsumer
from lobby.models import QueueEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def member(name: str):
    return await database_sync_to_async(get_user_model().objects.create_user)(
        username=name, email=f"{name}@example.com", password="secret-pass-123"
    )


async def connect(user=None) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    communicator.scope["user"] = user or AnonymousUser()
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def receive_type(communicator: WebsocketCommunicator, kind: str, timeout: float = 5):
    """The next frame of ``kind``, skipping the others (counters)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await communicator.receive_json_from(timeout=max(0.01, deadline - loop.time()))
        if frame["type"] == kind:
            return frame


async def test_counts_are_sent_on_connect() -> None:
    guest = await connect()
    frame = await guest.receive_json_from()
    assert frame["type"] == "counts"
    assert frame["online"] >= 1
    assert frame["searching"] == {"duel-block": 0, "duel-draw": 0, "three": 0, "four": 0, "pairs": 0}
    await guest.disconnect()
    assert await database_sync_to_async(Presence.objects.count)() == 0


async def test_guests_get_login_required_for_queue() -> None:
    guest = await connect()
    await guest.send_json_to({"type": "queue", "mode": "duel-block"})
    error = await receive_type(guest, "error")
    assert error["code"] == "login_required"
    assert await database_sync_to_async(QueueEntry.objects.count)() == 0
    await guest.disconnect()


async def test_unknown_mode_and_bad_frames_are_refused() -> None:
    alice = await connect(await member("alice"))
    await alice.send_json_to({"type": "queue", "mode": "chess"})
    assert (await receive_type(alice, "error"))["code"] == "bad_mode"
    await alice.send_to(text_data="not json")
    assert (await receive_type(alice, "error"))["code"] == "bad_frame"
    await alice.send_json_to({"type": "dance"})
    assert (await receive_type(alice, "error"))["code"] == "bad_frame"
    await alice.disconnect()


async def test_two_members_in_the_same_mode_are_matched_and_seated() -> None:
    alice_user, bob_user = await member("alice"), await member("bob")
    alice, bob = await connect(alice_user), await connect(bob_user)
    await alice.send_json_to({"type": "queue", "mode": "duel-block"})
    queued = await receive_type(alice, "queued")
    assert queued == {"type": "queued", "mode": "duel-block", "rating": 1500}
    counts = await receive_type(bob, "counts")  # on connect
    assert counts["searching"]["duel-block"] == 0
    counts = await receive_type(bob, "counts")  # alice joined
    assert counts["searching"]["duel-block"] == 1
    await bob.send_json_to({"type": "queue", "mode": "duel-block"})
    matched_a = await receive_type(alice, "matched")
    matched_b = await receive_type(bob, "matched")
    assert matched_a["table"] == matched_b["table"]
    assert matched_a["url"] == f"/table/{matched_a['table']}/"
    table = await database_sync_to_async(Table.objects.get)(pk=matched_a["table"])
    assert table.kind == "ranked"
    assert table.mode == "duel-block"
    assert table.status in ("playing", "finished")  # a deal may be blocked from the first tile
    seated = await database_sync_to_async(
        lambda: sorted(Seat.objects.filter(table=table).values_list("user__username", flat=True))
    )()
    assert seated == ["alice", "bob"]
    assert await database_sync_to_async(QueueEntry.objects.count)() == 0
    # Connecting again while the game runs sends the player back to it.
    again = await connect(alice_user)
    resumed = await receive_type(again, "matched")
    assert resumed["table"] == table.pk
    assert resumed["resume"] is True
    await again.send_json_to({"type": "queue", "mode": "duel-block"})
    assert (await receive_type(again, "error"))["code"] == "in_game"
    for communicator in (alice, bob, again):
        await communicator.disconnect()


async def test_different_modes_are_not_matched() -> None:
    alice, bob = await connect(await member("alice")), await connect(await member("bob"))
    await alice.send_json_to({"type": "queue", "mode": "duel-block"})
    await receive_type(alice, "queued")
    await bob.send_json_to({"type": "queue", "mode": "duel-draw"})
    await receive_type(bob, "queued")
    await asyncio.sleep(0.2)
    assert await database_sync_to_async(Table.objects.count)() == 0
    assert await database_sync_to_async(QueueEntry.objects.count)() == 2
    await alice.disconnect()
    await bob.disconnect()


async def test_leaving_works_at_once_and_on_disconnect() -> None:
    alice_user = await member("alice")
    alice = await connect(alice_user)
    await alice.send_json_to({"type": "queue", "mode": "three"})
    await receive_type(alice, "queued")
    await alice.send_json_to({"type": "leave"})
    await receive_type(alice, "left")
    assert await database_sync_to_async(QueueEntry.objects.count)() == 0

    await alice.send_json_to({"type": "queue", "mode": "three"})
    await receive_type(alice, "queued")
    other_tab = await connect(alice_user)
    await other_tab.disconnect()  # another tab closing keeps the search
    assert await database_sync_to_async(QueueEntry.objects.count)() == 1
    await alice.disconnect()  # the socket that queued closing ends it
    assert await database_sync_to_async(QueueEntry.objects.count)() == 0


async def test_a_member_queues_in_one_mode_at_a_time() -> None:
    alice = await connect(await member("alice"))
    await alice.send_json_to({"type": "queue", "mode": "three"})
    await receive_type(alice, "queued")
    await alice.send_json_to({"type": "queue", "mode": "four"})
    await receive_type(alice, "queued")
    modes = await database_sync_to_async(lambda: list(QueueEntry.objects.values_list("mode", flat=True)))()
    assert modes == ["four"]
    await alice.disconnect()


async def test_flooding_is_rate_limited() -> None:
    alice = await connect(await member("alice"))
    for _ in range(30):
        await alice.send_json_to({"type": "ping"})
    await receive_type(alice, "counts")
    frames = []
    while not await alice.receive_nothing(timeout=0.3):
        frames.append(await alice.receive_json_from())
    assert sum(f["type"] == "pong" for f in frames) <= 12
    # Refused frames get one warning a second, not one each (as at the table).
    assert 1 <= sum(f.get("code") == "rate_limited" for f in frames) <= 3
    await alice.disconnect()


async def test_errors_speak_the_pages_language() -> None:
    communicator = WebsocketCommunicator(
        LobbyConsumer.as_asgi(), "/ws/lobby/", headers=[(b"accept-language", b"fr-FR,fr;q=0.9")]
    )
    communicator.scope["user"] = AnonymousUser()
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "queue", "mode": "duel-block"})
    error = await receive_type(communicator, "error")
    assert error["code"] == "login_required"
    assert error["message"] == "Connectez-vous pour jouer des parties classées."
    await communicator.disconnect()


async def test_a_friend_hears_of_an_invitation_at_once() -> None:
    from accounts import services
    from lobby import private
    from lobby.services import invite_friend

    alice_user, bob_user = await member("alice"), await member("bob")

    def befriend_and_create():
        services.send_friend_request(from_user=alice_user, to_username="bob")
        services.send_friend_request(from_user=bob_user, to_username="alice")
        return private.create_private_table(
            owner=alice_user, preset="classic-draw", players=3, teams=False, target=50, public=True
        )

    table = await database_sync_to_async(befriend_and_create)()
    bob = await connect(bob_user)
    await receive_type(bob, "counts")
    await database_sync_to_async(invite_friend)(table=table, from_user=alice_user, friend_id=bob_user.pk)
    invited = await receive_type(bob, "invited")
    assert invited["from"] == "alice"
    assert invited["table"] == table.pk
    assert invited["url"] == f"/private/join/{private.invite_token(table)}/"
    await bob.disconnect()
