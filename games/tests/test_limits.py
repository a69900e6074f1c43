"""New tables are limited per visitor and per client address; nothing is
created when a limit is reached."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import Table
from games.tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]

FORM = {"preset": "duel-block", "players": "2", "target": "0", "level": "easy"}


@pytest.fixture(autouse=True)
def _fresh_counters(settings):
    settings.TABLES_PER_VISITOR = 10
    settings.TABLES_PER_ADDRESS = 40
    settings.TABLE_LIMIT_WINDOW = 600
    cache.clear()
    yield
    cache.clear()


def test_one_guest_cannot_open_twenty_tables_in_a_row() -> None:
    guest = Client()
    answers = [guest.post("/play/computer/", FORM).status_code for _ in range(20)]
    assert answers[:10] == [302] * 10
    assert answers[10:] == [429] * 10
    assert Table.objects.count() == 10
    page = guest.post("/play/computer/", FORM, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Vous avez ouvert beaucoup de tables" in page


def test_dropping_the_cookies_does_not_escape_the_limit_per_address(settings) -> None:
    settings.TABLES_PER_ADDRESS = 15
    created = sum(Client().post("/play/computer/", FORM).status_code == 302 for _ in range(20))
    assert created == 15
    assert Table.objects.count() == 15
    # Another address is not held back (the address the proxy wrote counts).
    settings.TRUSTED_PROXY_COUNT = 1
    assert Client().post("/play/computer/", FORM, HTTP_X_FORWARDED_FOR="198.51.100.4").status_code == 302
    # ... but one the client writes in front of it is ignored.
    refused = Client().post("/play/computer/", FORM, HTTP_X_FORWARDED_FOR="10.9.9.9, 127.0.0.1")
    assert refused.status_code == 429


def test_members_private_tables_count_too() -> None:
    member = Client()
    member.force_login(UserFactory())
    created = 0
    for _ in range(12):
        page = member.get("/private/new/").content.decode()
        commitment = page.split('name="commitment" value="', 1)[1].split('"', 1)[0]
        response = member.post(
            "/private/new/",
            {"preset": "classic-draw", "players": "2", "target": "100", "public": "on", "commitment": commitment},
        )
        created += response.status_code == 302
        if response.status_code == 302:  # one table at a time: the owner leaves it (it is closed) for the next
            member.post(f"{response['Location']}leave/")
    assert created == 10
    assert Table.objects.filter(kind=Table.Kind.PRIVATE).count() == 10
    assert member.post("/play/computer/", FORM).status_code == 429  # the same visitor


def test_a_rematch_against_the_computer_counts_as_a_new_table(settings) -> None:
    from games.play import services

    settings.TABLES_PER_VISITOR = 2
    guest = Client()
    guest.post("/play/computer/", FORM)
    first = Table.objects.get()
    services.resign(game_id=first.game.pk, seat=0)
    assert guest.post(f"/table/{first.pk}/rematch/").status_code == 302  # the second table
    second = Table.objects.get(rematch_of=first)
    services.resign(game_id=second.game.pk, seat=0)
    answer = guest.post(f"/table/{second.pk}/rematch/", headers={"accept": "application/json"})
    assert answer.status_code == 429
    assert answer.json()["code"] == "rate_limited"
    assert Table.objects.count() == 2
    # Asking again for a rematch already made is not a new table.
    assert guest.post(f"/table/{first.pk}/rematch/").status_code == 302


def test_a_rematch_of_a_private_table_counts_as_a_new_table(settings) -> None:
    """Against computers at a private table a rematch is made at once: each
    one is a new table, counted like any other (it was not)."""
    from games.engine import rules_for
    from games.play import services

    settings.TABLES_PER_VISITOR = 3
    user = UserFactory()
    member = Client()
    member.force_login(user)
    table = services.create_table(
        kind=Table.Kind.PRIVATE,
        rules=rules_for("duel-block", players=2, teams=False, target=0),
        preset="duel-block",
        seats=[services.SeatSpec(user=user), services.SeatSpec(level="easy")],
        public=False,
        created_by=user,
    )
    answers = []
    for _ in range(4):
        if table.status != Table.Status.FINISHED:
            services.resign(game_id=table.game.pk, seat=0)
        answer = member.post(f"/table/{table.pk}/rematch/", headers={"accept": "application/json"})
        answers.append(answer.status_code)
        if answer.status_code == 200:
            table = Table.objects.get(rematch_of=table)
    assert answers == [200, 200, 200, 429]
    assert answer.json()["code"] == "rate_limited"
    assert Table.objects.filter(kind=Table.Kind.PRIVATE).count() == 4


def test_a_visitor_has_one_name_for_every_counter() -> None:
    """The table limit and the hint cooldown count a visitor by the same name
    (games.play.limits.visitor_id): a member by account, a guest by session."""
    from games.play.limits import visitor_id

    assert visitor_id(user_id=7, session_key="abc") == "user:7"
    assert visitor_id(user_id=None, session_key="abc") == "guest:abc"
    assert visitor_id(user_id=None, session_key=None) == "guest:"
