"""A blocked member's friend requests never reach the member who blocked them,
and they are not told: the request is taken as always (docs/moderation.md,
"Blocks")."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts import selectors as accounts_selectors
from accounts import services as accounts
from accounts.models import Friendship
from community import services

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_blocked_member_s_friend_request_never_reaches_the_blocker(make_member) -> None:
    ada, bob = make_member("ada"), make_member("bob")
    services.block(blocker=bob, blocked=ada)
    response = logged_in(ada).post("/friends/add/", {"username": "bob"}, follow=True)
    assert "Friend request sent." in response.content.decode()  # the same answer as always
    request = Friendship.objects.get(from_user=ada, to_user=bob)
    assert not request.accepted
    assert list(accounts_selectors.outgoing_requests(ada)) == [request]  # the sender sees it pending
    blocker = logged_in(bob)
    assert "ada" not in blocker.get("/friends/").content.decode()
    assert f"/friends/{request.pk}/accept/" not in blocker.get("/u/ada/").content.decode()
    # Unblocked: the request arrives.
    services.unblock(blocker=bob, blocked=ada)
    assert list(accounts_selectors.incoming_requests(bob)) == [request]


def test_a_blocked_member_cannot_turn_the_blocker_s_old_request_into_a_friendship(make_member) -> None:
    ada, bob = make_member("ada"), make_member("bob")
    accounts.send_friend_request(from_user=bob, to_username="ada")
    services.block(blocker=bob, blocked=ada)
    response = logged_in(ada).post("/friends/add/", {"username": "bob"}, follow=True)
    assert "Friend request sent." in response.content.decode()
    assert not Friendship.objects.filter(accepted=True).exists()


def test_blocking_withdraws_the_blocker_s_pending_request_so_the_blocked_one_cannot_accept_it(make_member) -> None:
    ada, bob = make_member("ada"), make_member("bob")
    request = accounts.send_friend_request(from_user=bob, to_username="ada")
    blocked = logged_in(ada)
    assert f"/friends/{request.pk}/accept/" in blocked.get("/friends/").content.decode()
    services.block(blocker=bob, blocked=ada)
    # Gone as after a cancellation (nothing says why): accepting it finds nothing.
    assert f"/friends/{request.pk}/accept/" not in blocked.get("/friends/").content.decode()
    blocked.post(f"/friends/{request.pk}/accept/")
    assert not Friendship.objects.filter(accepted=True).exists()
    assert not Friendship.objects.filter(from_user=bob, to_user=ada).exists()
    assert list(accounts_selectors.outgoing_requests(bob)) == []


def test_the_data_files_say_which_request_the_blocker_never_sees(make_member) -> None:
    ada, bob, cleo = make_member("ada"), make_member("bob"), make_member("cleo")
    accounts.send_friend_request(from_user=ada, to_username="bob")
    accounts.send_friend_request(from_user=cleo, to_username="bob")
    services.block(blocker=bob, blocked=ada)

    def friends(member) -> list[tuple[str, str, bool]]:
        data = json.loads(logged_in(member).get("/account/export/").content)
        return sorted((row["member"], row["status"], row["hidden"]) for row in data["friends"])

    assert friends(bob) == [("ada", "asked_you", True), ("cleo", "asked_you", False)]
    assert friends(ada) == [("bob", "asked", False)]  # the blocked one is not told
