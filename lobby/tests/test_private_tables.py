"""Private tables: rules chosen by a member, invitations, computers in empty
seats, unranked, started when every seat is taken."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts import services
from games.models import Game, Table
from lobby import private
from lobby.models import Invitation

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def create(client: Client, **fields) -> Table:
    data = {"preset": "classic-draw", "players": "3", "target": "50", "public": "on", **fields}
    response = client.post("/private/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get(pk=int(re.search(r"/private/(\d+)/", response["Location"]).group(1)))


def test_a_member_creates_a_waiting_table_with_chosen_rules(make_member) -> None:
    alice = make_member("alice")
    table = create(logged_in(alice), preset="arena", players="4", teams="on", target="100")
    assert table.kind == Table.Kind.PRIVATE
    assert table.status == Table.Status.WAITING
    assert table.created_by == alice
    game = Game.objects.get(table=table)
    assert game.rules["players"] == 4
    assert game.rules["teams"] is True
    assert game.rules["target"] == 100
    assert [seat.kind for seat in table.seats.order_by("number")] == ["human", "open", "open", "open"]


def test_rules_the_preset_does_not_allow_are_refused(make_member) -> None:
    client = logged_in(make_member("alice"))
    response = client.post("/private/new/", {"preset": "duel-block", "players": "3", "target": "0"})
    assert response.status_code == 200
    assert response.content.decode().count("is played by 2 players") == 1
    response = client.post(
        "/private/new/", {"preset": "classic-draw", "players": "2", "teams": "on", "target": "50"}
    )
    assert response.status_code == 200
    assert not Table.objects.exists()


def test_guests_must_log_in_to_create(client: Client, db) -> None:
    assert client.get("/private/new/").status_code == 302


def test_invitation_link_seats_a_friend_and_the_last_seat_starts_the_game(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    owner = logged_in(alice)
    table = create(owner)
    page = owner.get(f"/private/{table.pk}/").content.decode()
    token = private.invite_token(table)
    assert f"/private/join/{token}/" in page
    guest_view = logged_in(bob)
    assert guest_view.get(f"/private/join/{token}/").status_code == 200
    guest_view.post(f"/private/join/{token}/")
    assert table.seats.filter(user=bob).exists()
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING
    # The owner gives the last seat to the computer: the game starts.
    response = owner.post(f"/private/{table.pk}/seat/2/computer/", {"level": "easy"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert Game.objects.get(table=table).state is not None
    status = guest_view.get(f"/private/{table.pk}/status/").json()
    assert status["status"] == "playing"
    assert status["url"] == f"/table/{table.pk}/"


def test_the_status_of_a_table_that_is_not_public_is_for_its_creator_and_players(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = private.create_private_table(
        owner=alice, preset="classic-block", players=3, teams=False, target=50, public=False
    )
    private.take_seat(table_id=table.pk, user=bob)
    url = f"/private/{table.pk}/status/"
    for outsider in (Client(), logged_in(carol)):
        response = outsider.get(url)
        assert response.status_code == 404
        assert b"alice" not in response.content
        assert b"bob" not in response.content
        assert outsider.get(f"/table/{table.pk}/").status_code in (302, 404)
    for player in (alice, bob):
        status = logged_in(player).get(url).json()
        assert status["status"] == "waiting"
        assert [seat["name"] for seat in status["seats"]][:2] == ["alice", "bob"]
    # A public waiting table is anyone's to watch, its status too (carol's: one table at a time for alice).
    shown = private.create_private_table(
        owner=carol, preset="classic-block", players=2, teams=False, target=50, public=True
    )
    assert Client().get(f"/private/{shown.pk}/status/").status_code == 200


def test_a_forged_invitation_link_is_refused(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create(logged_in(alice))
    response = logged_in(bob).get(f"/private/join/{table.pk}:forged/")
    assert response.status_code == 404


def test_joining_twice_keeps_one_seat_and_a_full_table_refuses(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = private.create_private_table(
        owner=alice, preset="classic-block", players=2, teams=False, target=50, public=True
    )
    private.take_seat(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # two seats, both taken
    with pytest.raises(private.SeatError):
        private.take_seat(table_id=table.pk, user=carol)


def test_only_the_owner_gives_seats_to_computers(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = private.create_private_table(
        owner=alice, preset="classic-draw", players=3, teams=False, target=50, public=False
    )
    private.take_seat(table_id=table.pk, user=bob)
    with pytest.raises(private.SeatError):
        private.seat_computer(table_id=table.pk, owner=bob, number=2, level="easy")
    private.seat_computer(table_id=table.pk, owner=alice, number=2, level="hard")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.kind == Table.Kind.PRIVATE  # unranked


def test_friends_are_invited_from_the_friends_list(make_member) -> None:
    alice, bob, eve = make_member("alice"), make_member("bob"), make_member("eve")
    services.send_friend_request(from_user=alice, to_username="bob")
    services.send_friend_request(from_user=bob, to_username="alice")
    owner = logged_in(alice)
    table = create(owner)
    assert 'data-friend="bob"' in owner.get(f"/private/{table.pk}/").content.decode()
    owner.post(f"/private/{table.pk}/invite/{bob.pk}/")
    assert Invitation.objects.filter(table=table, to_user=bob).exists()
    friends_page = logged_in(bob).get("/friends/").content.decode()
    assert f'data-invitation="{table.pk}"' in friends_page
    assert private.invite_token(table) in friends_page
    # Not a friend: no invitation.
    owner.post(f"/private/{table.pk}/invite/{eve.pk}/")
    assert not Invitation.objects.filter(to_user=eve).exists()


def test_the_owner_leaving_cancels_the_table(make_member) -> None:
    alice = make_member("alice")
    client = logged_in(alice)
    table = create(client)
    client.post(f"/private/{table.pk}/leave/")
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED


def test_the_waiting_table_and_the_replay_show_the_salt_and_the_fingerprint() -> None:
    from django.test.testcases import TestCase

    from games.tests.factories import UserFactory
    from games.tests.test_fairness import finish

    user = UserFactory.create()
    client = Client()
    client.force_login(user)
    commitment = client.get("/private/new/").context["form"]["commitment"].value()
    client.post(
        "/private/new/",
        {"preset": "duel-block", "players": 2, "target": 0, "public": "on", "salt": "pepper & salt", "commitment": commitment},
    )
    game = Game.objects.get(table__created_by=user)
    waiting = client.get(f"/private/{game.table_id}/").content.decode()
    assert commitment in waiting
    assert "pepper &amp; salt" in waiting
    assert game.seed not in waiting
    assert game.server_seed not in waiting
    with TestCase.captureOnCommitCallbacks(execute=True):
        private.seat_computer(table_id=game.table_id, owner=user, number=1, level="easy")
    finish(game)
    page = client.get(f"/table/{game.table_id}/replay/").content.decode()
    assert game.server_seed in page
    assert "pepper &amp; salt" in page


def test_pairs_for_a_variant_without_pairs_are_refused_once_next_to_the_choice(make_member) -> None:
    client = logged_in(make_member("alice"))
    response = client.post(
        "/private/new/", {"preset": "classic-draw", "players": "4", "teams": "on", "target": "50"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("is not played in pairs") == 1, html
    assert "form-errors" not in html
    assert not Table.objects.exists()
    # The page tells the form's script which variants have pairs.
    assert '"classic-draw": {"players": [2, 3, 4], "pairs": false' in html


def test_an_invitation_shows_on_every_page_with_a_badge_until_the_table_starts(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    services.send_friend_request(from_user=alice, to_username="bob")
    services.send_friend_request(from_user=bob, to_username="alice")
    owner = logged_in(alice)
    table = create(owner, players="2", preset="duel-block", target="0")
    friend = logged_in(bob)
    assert "data-invitation-page-banner" not in friend.get("/").content.decode()
    owner.post(f"/private/{table.pk}/invite/{bob.pk}/")
    for path in ("/", "/rules/", "/leaderboard/", "/live/"):
        html = friend.get(path).content.decode()
        assert f'data-invitation-page-banner="{table.pk}"' in html, path
        assert f'href="/private/join/{private.invite_token(table)}/"' in html, path
        assert 'data-invitation-count="1"' in html, path
    assert "data-invitation-page-banner" not in owner.get("/").content.decode()
    friend.post(f"/private/join/{private.invite_token(table)}/")  # the last seat: the game starts
    html = friend.get("/rules/").content.decode()
    assert "data-invitation-page-banner" not in html
    assert "data-invitation-count" not in html
