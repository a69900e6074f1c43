"""``/account/export/``: every kind of data a member has, in one JSON file
(the accounts app's sections and the lobby's, added through
``accounts.hooks.export_parts``; a test of the lobby, the app that sees both)."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.test import Client

from accounts import hooks, selectors, services
from accounts.models import Friendship, Profile
from games.models import GameReview, Move, Table
from games.tests.helpers import play_out, ranked_table
from lobby import chips, private, room_tables
from lobby import services as lobby_services
from lobby.models import ChipEntry, ChipWallet

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def member_with_everything(make_member):
    """A member with one of each kind of data the site keeps about a member."""
    alice, bob, carol, dave = (make_member(name) for name in ("alice", "bob", "carol", "dave"))
    alice.first_name, alice.last_name = "Alice", "Liddell"
    alice.save()
    EmailAddress.objects.create(user=alice, email="alice@example.com", verified=True, primary=True)
    Authenticator.objects.create(user=alice, type=Authenticator.Type.TOTP, data={"secret": "JBSWY3DPEHPK3PXP"})
    services.update_preferences(user=alice, zen=True, tile_faces="numbers", language="fr")
    # A rated ranked game (ratings and their history), with its review.
    table = ranked_table([alice, bob])
    game = play_out(table, seed=4)
    services.rate_finished_game(game_id=game.pk)
    services.record_abandonment(user_id=alice.pk, game_id=game.pk, seat=0)
    GameReview.objects.create(
        game=game,
        status=GameReview.Status.READY,
        data={"summary": {"0": {"decisions": 3}, "1": {"decisions": 2}}, "moves": [{"seat": 0, "seq": 1}, {"seat": 1, "seq": 2}]},
    )
    # Friends, a request sent and one received.
    Friendship.objects.create(from_user=alice, to_user=bob, accepted=True)
    Friendship.objects.create(from_user=alice, to_user=carol)
    Friendship.objects.create(from_user=dave, to_user=alice)
    # Chips: the welcome grant (at sign-up), a correction by the staff; a room game settled.
    chips.admin_entry(user_id=alice.pk, amount=50, note="a gift", created_by=bob)
    room_table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=100)
    room_tables.join_table(table_id=room_table.pk, user=dave)
    play_out(room_table, seed=1)  # played to its end: experience counts rounds played
    room_tables.settle(table_id=room_table.pk)
    # An invitation to a private table, and a place in a queue.
    private_table = private.create_private_table(
        owner=bob, preset="classic-draw", players=2, teams=False, target=50, public=True
    )
    lobby_services.invite_friend(table=private_table, from_user=bob, friend_id=alice.pk)
    lobby_services.join_queue(user=alice, mode="duel-draw")
    # A game still played (its moves' public part only): one game at a time, so the last.
    live = ranked_table([alice, carol])
    return {"member": alice, "ranked": table, "live": live, "room": room_table}


def test_the_download_holds_every_kind_of_data_a_member_has(member_with_everything) -> None:
    alice = member_with_everything["member"]
    response = logged_in(alice).get("/account/export/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith('attachment; filename="dominoes-club-alice-')
    data = json.loads(response.content)
    assert data["format"] == selectors.EXPORT_FORMAT
    account = data["account"]
    assert (account["username"], account["first_name"], account["last_name"]) == ("alice", "Alice", "Liddell")
    assert account["email_addresses"] == [{"email": "alice@example.com", "verified": True, "primary": True}]
    assert [row["type"] for row in account["two_factor"]] == ["totp"]
    profile = data["profile"]
    assert profile["games_abandoned"] == 1
    assert [(row["game"], row["seat"], row["kind"]) for row in profile["abandonments"]] == [(member_with_everything["ranked"].game.pk, 0, "left")]
    assert profile["preferences"]["hide_ratings_during_games"] is True
    assert profile["preferences"]["tile_faces"] == "numbers"
    assert [row["mode"] for row in data["ratings"]] == ["duel-block"]
    assert data["ratings"][0]["games"] == 1
    ranked = member_with_everything["ranked"]
    assert [row["table"] for row in data["rating_history"]] == [ranked.pk]
    assert {(row["member"], row["status"]) for row in data["friends"]} == {
        ("bob", "friends"),
        ("carol", "asked"),
        ("dave", "asked_you"),
    }
    games = {row["table"]: row for row in data["games"]}
    live, room = member_with_everything["live"], member_with_everything["room"]
    assert set(games) >= {ranked.pk, live.pk, room.pk}
    finished = games[ranked.pk]
    assert finished["status"] == "finished"
    assert finished["your_seat"] == 0
    assert [player["name"] for player in finished["players"]] == ["alice", "bob"]
    assert len(finished["moves"]) == Move.objects.filter(game__table=ranked).count() > 0
    assert finished["replay"] == f"/table/{ranked.pk}/replay.json"
    assert finished["review"] == {"summary": {"decisions": 3}, "moves": [{"seat": 0, "seq": 1}]}
    assert games[live.pk]["status"] == "playing"
    assert "replay" not in games[live.pk]
    # The lobby's part, added through accounts.hooks.export_parts.
    wallet = ChipWallet.objects.get(user=alice)
    assert data["chips"]["balance"] == wallet.balance
    assert data["chips"]["xp"] == wallet.xp > 0
    assert data["chips"]["level"] >= 1
    reasons = [row["reason"] for row in data["chip_ledger"]]
    assert reasons.count("grant") == 1
    assert "admin" in reasons
    assert "stake" in reasons
    assert "payout" in reasons
    assert len(data["chip_ledger"]) == ChipEntry.objects.filter(user=alice).count()
    assert [(row["table"], row["room"], row["outcome"]) for row in data["room_tables"]] == [(room.pk, "passport", "paid")]
    assert data["queue"]["mode"] == "duel-draw"
    assert [(row["direction"], row["member"]) for row in data["invitations"]] == [("received", "bob")]


def test_the_download_holds_no_secret(member_with_everything) -> None:
    alice = member_with_everything["member"]
    text = logged_in(alice).get("/account/export/").content.decode()
    assert alice.password not in text
    assert "JBSWY3DPEHPK3PXP" not in text  # the authenticator's secret
    live = member_with_everything["live"]
    data = json.loads(text)
    live_moves = next(row for row in data["games"] if row["table"] == live.pk)
    game = Table.objects.get(pk=live.pk).game
    assert game.seed not in text, "the seed of a game still played"
    assert not game.server_seed or game.server_seed not in text
    # A tile drawn is never in a move's public part.
    for table in data["games"]:
        for move in table.get("moves", []):
            if move["kind"] == "draw":
                assert "tile" not in move
    assert live_moves["commitment"] == game.commitment


def test_the_download_needs_a_member(client: Client) -> None:
    assert client.get("/account/export/").status_code == 302


def test_an_app_above_adds_its_part_and_may_not_overwrite_another(make_member) -> None:
    alice = make_member("alice")

    def part(sender, member, **_kwargs):
        return {"puzzles": [{"solved": 3}]}

    def clash(sender, member, **_kwargs):
        return {"ratings": []}

    hooks.export_parts.connect(part, dispatch_uid="test.part")
    try:
        assert selectors.member_data(alice)["puzzles"] == [{"solved": 3}]
        hooks.export_parts.connect(clash, dispatch_uid="test.clash")
        with pytest.raises(ValueError, match="ratings"):
            selectors.member_data(alice)
    finally:
        hooks.export_parts.disconnect(dispatch_uid="test.part")
        hooks.export_parts.disconnect(dispatch_uid="test.clash")
    assert Profile.objects.filter(user=alice).exists()
