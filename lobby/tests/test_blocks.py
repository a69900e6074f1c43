"""A member who blocked another: never invited by them (and they are not
told), never paired with them by the ranked queue or a room's queue while
anyone else waits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from community import services as community
from lobby import private, room_tables, services
from lobby.matchmaking import Ticket, pair_tickets
from lobby.models import Invitation, QueueEntry

pytestmark = pytest.mark.django_db


def test_the_matcher_keeps_a_blocked_pair_apart_while_anyone_else_waits() -> None:
    a, b, c = Ticket(1, 1500, 30), Ticket(2, 1500, 30), Ticket(3, 1540, 30)
    assert pair_tickets([a, b, c], 2) in ([(a, b)], [(b, a)])
    groups = pair_tickets([a, b, c], 2, avoid={frozenset((1, 2))})
    assert len(groups) == 1
    assert {t.user_id for t in groups[0]} in ({1, 3}, {2, 3})
    # Only the two of them: nobody else waits, they may meet.
    assert len(pair_tickets([a, b], 2, avoid={frozenset((1, 2))})) == 1
    # In a four-player game too.
    four = [Ticket(n, 1500 + n, 60) for n in range(1, 6)]
    for group in pair_tickets(four, 4, avoid={frozenset((1, 2))}):
        assert not {1, 2} <= {t.user_id for t in group}


def test_the_queue_pairs_a_blocker_with_someone_else(make_member) -> None:
    ada, bob, cleo = make_member("ada"), make_member("bob"), make_member("cleo")
    community.block(blocker=ada, blocked=bob)
    joined = timezone.now() - timedelta(seconds=30)
    for user in (ada, bob, cleo):
        QueueEntry.objects.create(user=user, mode="duel-block", rating=1500, joined_at=joined)
    tables = services.run_matcher()
    assert len(tables) == 1
    seated = {seat.user_id for seat in tables[0].seats.all()}
    assert seated != {ada.pk, bob.pk}
    assert len(seated) == 2


def test_a_room_queue_pairs_a_blocker_with_someone_else(make_member) -> None:
    ada, bob, cleo = make_member("ada"), make_member("bob"), make_member("cleo")
    community.block(blocker=ada, blocked=bob)
    for user in (ada, bob, cleo):
        room_tables.join_room_queue(user=user, room="passport", mode="duel-block")
    tables = room_tables.run_room_matcher(now=timezone.now() + timedelta(seconds=30))
    assert len(tables) == 1
    seated = {seat.user_id for seat in tables[0].seats.all()}
    assert seated != {ada.pk, bob.pk}
    assert len(seated) == 2


def test_a_blocked_member_s_invitation_never_arrives_and_they_are_not_told(make_member) -> None:
    from accounts import services as accounts
    from lobby.tests.test_private_tables import create, logged_in

    ada, bob = make_member("ada"), make_member("bob")
    accounts.send_friend_request(from_user=ada, to_username="bob")
    accounts.send_friend_request(from_user=bob, to_username="ada")
    community.block(blocker=bob, blocked=ada)
    owner = logged_in(ada)
    table = create(owner)
    response = owner.post(f"/private/{table.pk}/invite/{bob.pk}/", follow=True)
    assert not Invitation.objects.filter(table=table, to_user=bob).exists()
    assert "Invitation sent." in response.content.decode()  # the same answer as always
    assert private.invite_token(table) not in logged_in(bob).get("/friends/").content.decode()
    # Unblocked: the invitation goes through.
    community.unblock(blocker=bob, blocked=ada)
    owner.post(f"/private/{table.pk}/invite/{bob.pk}/")
    assert Invitation.objects.filter(table=table, to_user=bob).exists()
