"""A moderator closing an account (community.services.close_account, the
admin's action) takes the member out of what their own closing takes them
out of (the queues, the waiting tables, the invitations, the tournaments not
over) without erasing anything of theirs (docs/moderation.md). A test of
several apps: the community's action, the lobby's and the tournaments' parts."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts import services as accounts
from accounts.models import Friendship
from community import services
from community.models import ModerationAction
from games.models import Seat, Table
from games.play import services as game_services
from lobby import private
from lobby import services as lobby_services
from lobby.models import Invitation, QueueEntry
from tournaments import services as tournaments
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def test_a_moderator_s_close_takes_the_member_out_of_play_and_erases_nothing(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    moderator = get_user_model().objects.create_user("mod", is_staff=True)
    accounts.send_friend_request(from_user=bob, to_username="alice")
    accounts.send_friend_request(from_user=alice, to_username="bob")
    coming = tournaments.create_tournament(user=bob, format="arena", mode="duel-block", minutes=10, starts_in=60)
    tournaments.join(tournament=coming, user=alice)
    table = private.create_private_table(owner=bob, preset="classic-draw", players=3, teams=False, target=50, public=True)
    private.take_seat(table_id=table.pk, user=alice)
    other = private.create_private_table(owner=carol, preset="classic-draw", players=2, teams=False, target=50, public=True)
    accounts.send_friend_request(from_user=carol, to_username="alice")
    accounts.send_friend_request(from_user=alice, to_username="carol")
    lobby_services.invite_friend(table=other, from_user=carol, friend_id=alice.pk)
    lobby_services.join_queue(user=alice, mode="duel-draw")

    action = services.close_account(member=alice, moderator=moderator, reason="repeated abuse")

    alice.refresh_from_db()
    assert not alice.is_active
    assert (action.kind, action.moderator, action.reason) == (ModerationAction.Kind.CLOSE, moderator, "repeated abuse")
    # Out of play: the queue, the waiting table's seat, the invitation, the tournament.
    assert not QueueEntry.objects.filter(user=alice).exists()
    assert not Seat.objects.filter(table=table, user=alice).exists()
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING  # bob's table waits for another
    assert not Invitation.objects.filter(to_user=alice).exists()
    assert Player.objects.get(tournament=coming, user=alice).withdrawn
    # Nothing erased: not the member's own closing.
    assert (alice.email, alice.username, alice.has_usable_password()) == ("alice@example.com", "alice", True)
    assert Friendship.objects.filter(accepted=True, from_user=bob, to_user=alice).exists()


def test_a_moderator_s_close_of_an_account_already_closed_is_only_logged(make_member) -> None:
    alice = make_member("alice")
    moderator = get_user_model().objects.create_user("mod", is_staff=True)
    services.close_account(member=alice, moderator=moderator, reason="spam")
    services.close_account(member=alice, moderator=moderator, reason="spam again")
    assert ModerationAction.objects.filter(member=alice, kind=ModerationAction.Kind.CLOSE).count() == 2


def test_a_moderator_s_close_stops_the_member_s_games_against_the_computer(make_member) -> None:
    alice = make_member("alice")
    moderator = get_user_model().objects.create_user("mod", is_staff=True)
    table = game_services.create_computer_table(
        user=alice, preset="duel-block", players=2, teams=False, target=0, level="easy"
    )
    services.close_account(member=alice, moderator=moderator, reason="cheating")
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED
