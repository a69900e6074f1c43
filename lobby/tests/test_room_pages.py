"""The room pages: the five rooms' cards, a room's tables and payout table,
opening and joining with a stake (refused with the reason when the level or
the chips are missing), the chips and level on every page a member sees,
the profile's chips and history, the weekly leaderboard, the staff's entries."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Table
from games.play import services as game_services
from games.tests.helpers import play_out, play_past_the_opening
from lobby import chips, rooms
from lobby.models import ChipEntry, ChipWallet, RoomTable

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_rooms_page_shows_the_five_rooms_with_their_hooks(client: Client, db) -> None:
    html = client.get("/rooms/").content.decode()
    for room in rooms.ROOMS.values():
        assert f'data-room="{room.slug}" data-stake="{room.stake}" data-min-level="{room.min_level}"' in html


def test_rooms_are_named_in_french(make_member) -> None:
    client = logged_in(make_member("alice"))
    html = client.get("/rooms/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Salles" in html
    assert "Mise" in html


def test_every_page_a_member_sees_carries_chips_and_level(make_member, client: Client) -> None:
    alice = make_member("alice")
    assert "data-chips" not in client.get("/").content.decode()
    member = logged_in(alice)
    for path in ("/", "/rooms/", "/rooms/passport/", "/ranked/", f"/u/{alice.username}/", "/rules/"):
        html = member.get(path).content.decode()
        assert re.search(r'<body[^>]*data-chips="1000" data-level="1"', html), path


def test_a_member_opens_a_table_and_another_joins_it_from_the_room_page(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    response = logged_in(alice).post("/rooms/passport/open/", {"kind": "duel", "target": "50"})
    table = Table.objects.get(kind=Table.Kind.ROOM)
    assert response["Location"] == f"/rooms/table/{table.pk}/"
    page = logged_in(bob).get("/rooms/passport/").content.decode()
    assert f'data-room-table="{table.pk}"' in page
    assert 'data-payout="duel"' in page
    assert 'data-place="1" data-paid="38" data-net="18"' in page
    response = logged_in(bob).post(f"/rooms/table/{table.pk}/join/")
    assert response["Location"] == f"/rooms/table/{table.pk}/"
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert logged_in(bob).get(f"/rooms/table/{table.pk}/")["Location"] == f"/table/{table.pk}/"
    assert re.search(r'data-chips="980"', logged_in(bob).get("/rooms/").content.decode())


def test_a_member_without_the_level_is_told_why_and_cannot_sit(make_member) -> None:
    alice = make_member("alice")
    client = logged_in(alice)
    page = client.get("/rooms/luxury/").content.decode()
    assert "data-refusal" in page
    assert "opens at level 15" in page
    assert "data-open-table" not in page
    response = client.post("/rooms/luxury/open/", {"kind": "duel", "target": "0"}, follow=True)
    assert "opens at level 15" in response.content.decode()
    assert not Table.objects.exists()


def test_a_member_without_the_chips_is_told_why_and_cannot_sit(make_member) -> None:
    alice, bob, staff = make_member("alice"), make_member("bob"), make_member("staff")
    ChipWallet.objects.filter(user__in=[alice, bob]).update(xp=rooms.xp_for_level(3))
    logged_in(alice).post("/rooms/tourist/open/", {"kind": "duel", "target": "0"})
    table = Table.objects.get()
    chips.admin_entry(user_id=bob.pk, amount=-950, note="test", created_by=staff)
    response = logged_in(bob).post(f"/rooms/table/{table.pk}/join/", follow=True)
    assert "The stake here is 100 chips; you have 50." in response.content.decode()
    assert ChipWallet.objects.get(user=bob).balance == 50
    assert Table.objects.get().status == Table.Status.WAITING


def test_the_daily_top_up_from_the_rooms_page(make_member) -> None:
    alice, staff = make_member("alice"), make_member("staff")
    chips.admin_entry(user_id=alice.pk, amount=-1000, note="test", created_by=staff)
    client = logged_in(alice)
    assert "data-topup" in client.get("/rooms/").content.decode()
    client.post("/rooms/topup/")
    assert ChipWallet.objects.get(user=alice).balance == rooms.DAILY_FLOOR
    assert "data-topup" not in client.get("/rooms/").content.decode()


def test_the_profile_shows_chips_level_and_a_paginated_history(make_member, client: Client) -> None:
    alice, staff = make_member("alice"), make_member("staff")
    for n in range(25):
        chips.admin_entry(user_id=alice.pk, amount=1, note=f"gift {n}", created_by=staff)
    html = client.get("/u/alice/").content.decode()
    assert 'data-profile-chips data-chips="1025" data-level="1"' in html
    assert html.count("data-entry=") == 20
    assert "gift 24" in logged_in(alice).get("/u/alice/").content.decode()
    assert "data-next-chips" in html
    older = client.get("/u/alice/?chips=2").content.decode()
    assert older.count("data-entry=") == 6
    assert 'data-entry="grant"' in older


def test_the_weekly_leaderboard_counts_chips_won(make_member, django_capture_on_commit_callbacks) -> None:
    from lobby import room_tables

    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    play_past_the_opening(table)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.resign(game_id=table.game.pk, seat=1)
    html = Client().get("/rooms/").content.decode()
    assert 'data-winner="alice"' in html
    assert "+18" in html
    assert 'data-winner="bob"' not in html


def test_staff_add_corrections_as_entries_with_a_reason(make_member) -> None:
    alice = make_member("alice")
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "secret-pass-123")
    client = logged_in(admin)
    response = client.post("/admin/lobby/chipentry/add/", {"user": alice.pk, "amount": "-100", "note": ""})
    assert response.status_code == 200  # refused: no reason
    assert ChipWallet.objects.get(user=alice).balance == 1000
    response = client.post(
        "/admin/lobby/chipentry/add/", {"user": alice.pk, "amount": "-100", "note": "duplicate account"}
    )
    assert response.status_code == 302
    entry = ChipEntry.objects.get(reason=ChipEntry.Reason.ADMIN)
    assert (entry.amount, entry.note, entry.created_by) == (-100, "duplicate account", admin)
    assert ChipWallet.objects.get(user=alice).balance == 900
    wallet_page = client.get(f"/admin/lobby/chipwallet/{alice.pk}/change/")
    assert b'name="balance"' not in wallet_page.content
    assert client.post(f"/admin/lobby/chipentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert RoomTable.objects.count() == 0


def test_a_correction_below_zero_is_a_form_error_and_changes_nothing(make_member) -> None:
    alice = make_member("alice")
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "secret-pass-123")
    response = logged_in(admin).post(
        "/admin/lobby/chipentry/add/", {"user": alice.pk, "amount": "-5000", "note": "duplicate account"}
    )
    assert response.status_code == 200  # the form again, not a server error
    assert "this member has 1000 chips, the correction takes 5000." in response.content.decode()
    assert ChipWallet.objects.get(user=alice).balance == 1000
    assert not ChipEntry.objects.filter(reason=ChipEntry.Reason.ADMIN).exists()
    assert chips.check_wallets() == []


def test_correction_notes_are_for_the_staff_and_the_member_only(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "secret-pass-123")
    chips.admin_entry(user_id=alice.pk, amount=-100, note="second account of mallory", created_by=admin)
    note = "second account of mallory"
    assert note not in Client().get("/u/alice/").content.decode()
    stranger = logged_in(bob).get("/u/alice/").content.decode()
    assert note not in stranger
    assert 'data-entry="admin"' in stranger  # the entry itself is shown, without its note
    assert note in logged_in(alice).get("/u/alice/").content.decode()
    assert note in logged_in(admin).get("/u/alice/").content.decode()


def test_the_table_page_shows_the_room_the_levels_and_what_the_game_paid(
    make_member, django_capture_on_commit_callbacks
) -> None:
    from lobby import room_tables

    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    html = Client().get(f"/table/{table.pk}/").content.decode()  # a spectator sees it too
    assert 'data-room-facts="passport" data-stake="20"' in html
    assert 'data-room-seat="0" data-level="1"' in html
    assert "data-settled" not in html
    with django_capture_on_commit_callbacks(execute=True):
        game = play_out(table, seed=1)  # a single round played to its end
    assert game.winner is not None
    won, lost = game.winner, 1 - game.winner
    html = logged_in(bob).get(f"/table/{table.pk}/").content.decode()
    assert f'data-room-seat="{won}" data-level="1" data-net="18" data-xp="20"' in html
    assert f'data-room-seat="{lost}" data-level="1" data-net="-20" data-xp="6"' in html
    status = Client().get(f"/rooms/table/{table.pk}/status/").json()
    assert status["settled"] is True
    results = {r["seat"]: (r["net"], r["xp"], r["place"]) for r in status["results"]}
    assert results == {won: (18, 20, 1), lost: (-20, 6, 2)}
    # Other tables show no room panel.
    other = game_services.create_computer_table(
        user=alice, preset="arena", players=2, teams=False, target=0, level="easy"
    )
    assert "data-room-facts" not in logged_in(alice).get(f"/table/{other.pk}/").content.decode()


def test_a_stake_returned_before_the_start_is_neither_won_nor_lost_this_week(
    make_member, django_capture_on_commit_callbacks
) -> None:
    from lobby import room_selectors, room_tables

    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = room_tables.open_table(owner=alice, room="passport", kind="three", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    room_tables.leave_table(table_id=table.pk, user=bob)  # bob's stake comes back
    other = room_tables.open_table(owner=carol, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=other.pk, user=bob)
    play_past_the_opening(other)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.resign(game_id=other.game.pk, seat=0)  # carol resigns: bob wins 18
    room_tables.leave_table(table_id=table.pk, user=alice)  # the first table closes, stakes back
    assert [(row.username, row.won) for row in room_selectors.weekly_winners()] == [("bob", 18)]
