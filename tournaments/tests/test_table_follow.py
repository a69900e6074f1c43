"""A tournament table's page (games' ``table_page_panels``, answered by
tournaments/receivers.py): its link back to the tournament, and for the
players still in it the script that follows them to their next table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Table
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def started_arena(make_member, *, private: bool = False, names: str = "player"):
    members = [make_member(f"{names}{index}") for index in range(2)]
    tournament = services.create_tournament(
        user=members[0], format="arena", mode="duel-block", minutes=30, starts_in=0, rated=False, private=private
    )
    for member in members:
        services.join(tournament=tournament, user=member)
    services.tick(now=timezone.now() + timedelta(seconds=1))
    table = Table.objects.get(tournament_game__tournament=tournament)
    return tournament, table, members


def page(user, table, language="en") -> str:
    client = Client(headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    return client.get(f"/table/{table.pk}/").content.decode()


def test_a_player_at_a_tournament_table_is_followed_to_the_next_one(make_member):
    tournament, table, (alice, _bob) = started_arena(make_member)
    html = page(alice, table)
    assert f'data-table-tournament="{tournament.pk}"' in html
    assert f'data-follow-tournament="{tournament.pk}"' in html
    assert "tournaments/js/table_follow.js" in html
    assert f'href="/tournaments/{tournament.pk}/"' in html
    assert "Your next game is ready." in html
    french = page(alice, table, "fr")
    assert "Revenir au tournoi" in french


def test_a_spectator_a_withdrawn_player_and_a_private_tournament_s_spectator(make_member):
    tournament, table, (_alice, bob) = started_arena(make_member)
    for viewer in (None, make_member("carol")):
        html = page(viewer, table)
        assert f'data-table-tournament="{tournament.pk}"' in html
        assert "data-follow-tournament" not in html
        assert "table_follow.js" not in html
    services.withdraw(tournament=tournament, user=bob)
    assert "data-follow-tournament" not in page(bob, table)
    private, private_table, (dora, _eve) = started_arena(make_member, private=True, names="private")
    assert f"?key={private.token}" in page(dora, private_table)
    assert private.token not in page(None, private_table)  # a spectator is not given the link


def test_no_panel_at_a_table_of_no_tournament(make_member):
    from games.tests.helpers import ranked_table

    alice, bob = make_member("ana"), make_member("ben")
    table = ranked_table([alice, bob])
    assert "data-table-tournament" not in page(alice, table)
    assert Tournament.objects.count() == 0
