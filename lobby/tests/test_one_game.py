"""What the lobby refuses for the integrity of play (docs/rooms.md,
docs/members.md): one game at a time across the rooms, private tables and
the queues; a daily top-up that counts the stakes parked at tables not yet
started; room tables and rematches within the table limit."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client

from games.models import Seat, Table
from games.play import services as game_services
from lobby import chips, private, room_tables, rooms, selectors, services
from lobby.models import ChipWallet, QueueEntry
from lobby.tests.test_lobby import connect, member, receive_type

pytestmark = [pytest.mark.usefixtures("computer_queue")]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def balance(user) -> int:
    return ChipWallet.objects.get(user=user).balance


@pytest.fixture(autouse=True)
def _fresh_counters(settings):
    settings.TABLES_PER_VISITOR = 10
    settings.TABLES_PER_ADDRESS = 40
    settings.TABLE_LIMIT_WINDOW = 600
    cache.clear()
    yield
    cache.clear()


# --- One game at a time (defect 7) -----------------------------------------------------


@pytest.mark.django_db
def test_joining_a_second_room_table_by_http_is_refused_with_the_address_of_the_first(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    first = room_tables.open_table(owner=alice, room="passport", kind="three", target=0)
    second = room_tables.open_table(owner=bob, room="passport", kind="three", target=0)
    client = logged_in(carol)
    assert client.post(f"/rooms/table/{first.pk}/join/")["Location"] == f"/rooms/table/{first.pk}/"
    response = client.post(f"/rooms/table/{second.pk}/join/", follow=True)
    page = response.content.decode()
    assert f"You already have a seat at table {first.pk}" in page
    assert f'<a href="/rooms/table/{first.pk}/" data-in-game="{first.pk}">' in page
    # Nothing changed: one seat, one stake.
    assert list(Seat.objects.filter(user=carol).values_list("table_id", flat=True)) == [first.pk]
    assert balance(carol) == 1000 - 20
    # Leaving the first frees them for the second.
    client.post(f"/rooms/table/{first.pk}/leave/")
    assert client.post(f"/rooms/table/{second.pk}/join/")["Location"] == f"/rooms/table/{second.pk}/"
    assert balance(carol) == 1000 - 20


@pytest.mark.django_db
def test_a_member_whose_room_game_is_on_cannot_open_or_join_a_private_table(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    response = logged_in(bob).post("/private/new/", {"preset": "classic-draw", "players": "2", "target": "100"})
    assert response.status_code == 409
    assert f'<a href="/table/{table.pk}/" data-in-game="{table.pk}">' in response.content.decode()
    assert not Table.objects.filter(kind=Table.Kind.PRIVATE).exists()
    waiting = private.create_private_table(
        owner=carol, preset="classic-draw", players=3, teams=False, target=50, public=True
    )
    response = logged_in(bob).post(f"/private/join/{private.invite_token(waiting)}/", follow=True)
    assert f"You already have a seat at table {table.pk}" in response.content.decode()
    assert not Seat.objects.filter(table=waiting, user=bob).exists()


@pytest.mark.django_db
def test_a_waiting_private_table_holds_its_owner_out_of_the_rooms(make_member) -> None:
    alice = make_member("alice")
    waiting = private.create_private_table(
        owner=alice, preset="classic-draw", players=2, teams=False, target=50, public=True
    )
    with pytest.raises(game_services.InGame):
        room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    assert balance(alice) == 1000
    assert selectors.game_in_progress(alice.pk) == waiting
    assert selectors.table_address(waiting) == f"/private/{waiting.pk}/"


@pytest.mark.django_db
def test_the_matcher_drops_from_the_queue_a_member_who_sat_at_a_table_meanwhile(make_member) -> None:
    alice, bob, carol, dave = (make_member(name) for name in ("alice", "bob", "carol", "dave"))
    services.join_queue(user=alice, mode="duel-block")
    services.join_queue(user=bob, mode="duel-block")
    room_tables.join_room_queue(user=carol, room="passport", mode="duel-block")
    room_tables.join_room_queue(user=dave, room="passport", mode="duel-block")
    room_tables.open_table(owner=alice, room="passport", kind="three", target=0)  # by HTTP, while queued
    waiting = private.create_private_table(
        owner=bob, preset="classic-draw", players=3, teams=False, target=50, public=True
    )
    private.take_seat(table_id=waiting.pk, user=carol)
    assert services.run_matcher() == []
    assert room_tables.run_room_matcher() == []
    assert set(QueueEntry.objects.values_list("user__username", flat=True)) == {"dave"}
    assert Table.objects.filter(kind=Table.Kind.RANKED).count() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_member_waiting_at_a_room_table_cannot_queue_and_is_told_where() -> None:
    alice = await member("alice")
    table = await database_sync_to_async(room_tables.open_table)(owner=alice, room="passport", kind="duel", target=0)
    lobby = await connect(alice)
    for frame in (
        {"type": "queue", "mode": "duel-block"},
        {"type": "queue", "room": "passport", "mode": "duel-block"},
    ):
        await lobby.send_json_to(frame)
        refused = await receive_type(lobby, "error")
        assert (refused["code"], refused["url"]) == ("in_game", f"/rooms/table/{table.pk}/")
    assert await database_sync_to_async(QueueEntry.objects.count)() == 0
    await lobby.disconnect()


# --- The daily top-up counts parked stakes (defect 3) ---------------------------------


@pytest.mark.django_db
def test_stakes_parked_at_waiting_tables_count_for_the_top_up(make_member) -> None:
    alice, staff = make_member("alice"), make_member("staff")
    chips.admin_entry(user_id=alice.pk, amount=rooms.DAILY_FLOOR - 1000, note="test", created_by=staff)
    assert balance(alice) == rooms.DAILY_FLOOR  # exactly at the floor
    table = room_tables.open_table(owner=alice, room="passport", kind="three", target=0)
    assert balance(alice) == rooms.DAILY_FLOOR - 20  # the stake is held
    client = logged_in(alice)
    assert "data-topup" not in client.get("/rooms/").content.decode()
    page = client.post("/rooms/topup/", follow=True).content.decode()
    assert "stakes at tables not yet started" in page
    assert balance(alice) == rooms.DAILY_FLOOR - 20
    with pytest.raises(chips.ChipError) as refused:
        chips.claim_topup(user_id=alice.pk)
    assert refused.value.code == "held"
    room_tables.leave_table(table_id=table.pk, user=alice)
    assert balance(alice) == rooms.DAILY_FLOOR  # not twice the floor's worth


@pytest.mark.django_db
def test_the_top_up_brings_balance_and_parked_stakes_together_to_the_floor(make_member) -> None:
    alice, staff = make_member("alice"), make_member("staff")
    chips.admin_entry(user_id=alice.pk, amount=150 - 1000, note="test", created_by=staff)
    table = room_tables.open_table(owner=alice, room="passport", kind="three", target=0)
    assert chips.claim_topup(user_id=alice.pk).amount == rooms.DAILY_FLOOR - 150
    room_tables.leave_table(table_id=table.pk, user=alice)
    assert balance(alice) == rooms.DAILY_FLOOR


# --- The table limit (defect 4) ---------------------------------------------------------


@pytest.mark.django_db
def test_room_tables_opened_from_a_room_page_count_against_the_table_limit(make_member, settings) -> None:
    settings.TABLES_PER_VISITOR = 3
    alice = make_member("alice")
    client = logged_in(alice)
    opened = []
    for _ in range(5):
        response = client.post("/rooms/passport/open/", {"kind": "duel", "target": "0"}, follow=True)
        match = re.search(r"/rooms/table/(\d+)/", response.redirect_chain[-1][0])
        if match:
            opened.append(int(match.group(1)))
            client.post(f"/rooms/table/{match.group(1)}/leave/")  # one table at a time: closed for the next
        else:
            assert "You have opened many tables in a short time" in response.content.decode()
    assert len(opened) == 3
    assert Table.objects.filter(kind=Table.Kind.ROOM).count() == 3
    assert balance(alice) == 1000


# --- Waiting tables close one way (issue 27) ---------------------------------------------


@pytest.mark.django_db
def test_a_private_and_a_room_table_whose_owner_leaves_are_aborted_alike(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    waiting = private.create_private_table(
        owner=alice, preset="classic-draw", players=3, teams=False, target=50, public=True
    )
    private.leave_seat(table_id=waiting.pk, user=alice)
    room = room_tables.open_table(owner=bob, room="passport", kind="three", target=0)
    room_tables.leave_table(table_id=room.pk, user=bob)
    for table in (waiting, room):
        table.refresh_from_db()
        game = table.game
        game.refresh_from_db()
        assert table.status == Table.Status.ABORTED
        assert table.finished_at is not None  # the private one had none
        assert game.finished_at == table.finished_at
        assert game.result["reason"] == "owner_left"
    assert balance(bob) == 1000
