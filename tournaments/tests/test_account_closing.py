"""The tournaments' part of closing an account (docs/members.md, "Closing the
account"): the member is withdrawn from every tournament not over, so they are
never paired again; a finished tournament keeps them as they ended."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts import services as account_services
from games.tests.helpers import ranked_table
from tournaments import selectors, services
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db
PASSWORD = "secret-pass-123"


def test_a_closed_account_is_withdrawn_from_its_tournaments_not_over_and_never_paired(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    running = services.create_tournament(user=bob, format="arena", mode="duel-block", minutes=10, starts_in=5)
    coming = services.create_tournament(user=bob, format="arena", mode="duel-block", minutes=10, starts_in=60)
    over = services.create_tournament(user=bob, format="arena", mode="duel-block", minutes=10, starts_in=5)
    for tournament in (running, coming, over):
        for member in (alice, bob, carol):
            services.join(tournament=tournament, user=member)
    Tournament.objects.filter(pk=running.pk).update(status=Tournament.Status.STARTED, starts_at=timezone.now())
    Tournament.objects.filter(pk=over.pk).update(status=Tournament.Status.FINISHED, finished_at=timezone.now())
    running.refresh_from_db()
    assert alice.pk in {player.user_id for player in selectors.free_players(running)}

    account_services.close_account(user=alice, password=PASSWORD)

    assert Player.objects.get(tournament=running, user=alice).withdrawn
    assert Player.objects.get(tournament=coming, user=alice).withdrawn
    assert not Player.objects.get(tournament=over, user=alice).withdrawn
    assert {player.user_id for player in selectors.free_players(running)} == {bob.pk, carol.pk}
    assert not Player.objects.filter(user=bob, withdrawn=True).exists()


def test_a_refused_closing_withdraws_nothing(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    tournament = services.create_tournament(user=bob, format="arena", mode="duel-block", minutes=10, starts_in=5)
    services.join(tournament=tournament, user=alice)
    ranked_table([alice, bob])  # refused while seated at a live table: the receivers' work is rolled back
    with pytest.raises(account_services.ClosingError):
        account_services.close_account(user=alice, password=PASSWORD)
    assert not Player.objects.get(tournament=tournament, user=alice).withdrawn
