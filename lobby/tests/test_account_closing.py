"""The lobby's part of closing an account (``accounts.hooks.account_closing``):
a waiting room table refuses the closing, and everything the lobby did is
undone with it; otherwise the member leaves the queues and their
invitations are withdrawn."""

from __future__ import annotations

import pytest

from accounts import services
from accounts.tests.test_close import PASSWORD, _fresh_rate_limits, close, logged_in  # noqa: F401 (the fixture)
from lobby import private, room_tables
from lobby import services as lobby_services
from lobby.models import Invitation, QueueEntry

pytestmark = pytest.mark.django_db


def test_a_waiting_room_table_refuses_and_the_queue_and_invitations_are_settled(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    room_table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=100)
    lobby_services.join_queue(user=alice, mode="duel-draw")
    client = logged_in(alice)
    response = close(client)
    assert response.status_code == 400
    assert f"table {room_table.pk}" in response.content.decode()
    # Refused: the lobby's part was undone with the rest.
    assert QueueEntry.objects.filter(user=alice).exists()
    room_tables.leave_table(table_id=room_table.pk, user=alice)
    owner_table = private.create_private_table(owner=bob, preset="classic-draw", players=2, teams=False, target=50, public=True)
    services.send_friend_request(from_user=bob, to_username="alice")
    services.send_friend_request(from_user=alice, to_username="bob")
    lobby_services.invite_friend(table=owner_table, from_user=bob, friend_id=alice.pk)
    assert close(client).status_code == 302
    assert not QueueEntry.objects.filter(user=alice).exists()
    assert not Invitation.objects.filter(to_user=alice).exists()
