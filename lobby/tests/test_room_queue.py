"""The room queue on the lobby socket: ``{"type": "queue", "room": slug,
"mode": key}`` seats members of one room and mode together, holding their
stakes; a member without the level or the chips is refused with the reason."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Table
from lobby.models import ChipWallet, QueueEntry, RoomTable
from lobby.tests.test_lobby import connect, member, receive_type

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_two_members_queued_in_a_room_are_seated_with_their_stakes() -> None:
    alice_user, bob_user = await member("alice"), await member("bob")
    alice, bob = await connect(alice_user), await connect(bob_user)
    await alice.send_json_to({"type": "queue", "room": "passport", "mode": "duel-draw"})
    queued = await receive_type(alice, "queued")
    assert queued == {"type": "queued", "room": "passport", "mode": "duel-draw", "rating": 1500}
    # The ranked counters count only the ranked queue.
    await bob.send_json_to({"type": "queue", "mode": "three"})
    counts = await receive_type(bob, "counts")
    assert counts["searching"]["duel-draw"] == 0
    await bob.send_json_to({"type": "queue", "room": "passport", "mode": "duel-draw"})
    matched = await receive_type(alice, "matched")
    assert (await receive_type(bob, "matched"))["table"] == matched["table"]

    def check() -> None:
        table = Table.objects.get(pk=matched["table"])
        assert table.kind == Table.Kind.ROOM
        assert table.status == Table.Status.PLAYING
        room_table = RoomTable.objects.get(pk=table.pk)
        assert (room_table.room, room_table.kind, room_table.target, room_table.stake) == ("passport", "duel", 50, 20)
        assert sorted(ChipWallet.objects.values_list("balance", flat=True)) == [980, 980]
        assert not QueueEntry.objects.exists()

    await database_sync_to_async(check)()
    await alice.disconnect()
    await bob.disconnect()


async def test_a_room_above_the_members_level_refuses_with_the_reason() -> None:
    alice = await connect(await member("alice"))
    await alice.send_json_to({"type": "queue", "room": "luxury", "mode": "duel-block"})
    error = await receive_type(alice, "error")
    assert error["code"] == "cannot_sit"
    assert "level 15" in error["message"]
    await alice.send_json_to({"type": "queue", "room": "casino", "mode": "duel-block"})
    assert (await receive_type(alice, "error"))["code"] == "bad_room"
    await alice.send_json_to({"type": "queue", "room": "passport", "mode": "chess"})
    assert (await receive_type(alice, "error"))["code"] == "bad_mode"
    assert await database_sync_to_async(QueueEntry.objects.count)() == 0
    await alice.disconnect()


async def test_a_member_who_spent_their_chips_leaves_the_room_queue_at_the_match() -> None:
    alice_user, bob_user = await member("alice"), await member("bob")
    alice = await connect(alice_user)
    await alice.send_json_to({"type": "queue", "room": "passport", "mode": "duel-block"})
    await receive_type(alice, "queued")

    def spend() -> None:
        from lobby import chips

        chips.admin_entry(user_id=alice_user.pk, amount=-990, note="test", created_by=bob_user)

    await database_sync_to_async(spend)()
    bob = await connect(bob_user)
    await bob.send_json_to({"type": "queue", "room": "passport", "mode": "duel-block"})
    await receive_type(bob, "queued")

    def check() -> None:
        assert not Table.objects.exists()
        assert list(QueueEntry.objects.values_list("user__username", flat=True)) == ["bob"]
        assert ChipWallet.objects.get(user=alice_user).balance == 10

    await database_sync_to_async(check)()
    await alice.disconnect()
    await bob.disconnect()
