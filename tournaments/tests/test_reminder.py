"""The reminder of every page (tournaments.context_processors): a member who
joined a tournament that has not started sees its countdown on any page, with
a link to it; once it runs, the bar says so; guests and members who withdrew
see nothing. One query for a member, none for a guest."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def coming(make_member, *, minutes=30):
    owner = make_member("owner")
    return services.create_tournament(
        user=owner, format="arena", mode="duel-block", minutes=10, starts_in=minutes
    )


def test_a_joined_member_sees_the_countdown_on_another_page_with_a_link(client, make_member):
    tournament = coming(make_member)
    ana = make_member("ana")
    services.join(tournament=tournament, user=ana)
    client.force_login(ana)
    page = client.get("/rules/").content.decode()
    assert f'data-tournament-reminder="{tournament.pk}"' in page
    assert f'href="/tournaments/{tournament.pk}/"' in page
    left = selectors.reminder_for(ana.pk).seconds_to_start
    assert 29 * 60 <= left <= 30 * 60
    assert 'data-started="0"' in page
    assert "starts in" in page


def test_the_bar_is_in_french_too(client, make_member):
    tournament = coming(make_member)
    ana = make_member("ana")
    services.join(tournament=tournament, user=ana)
    client.force_login(ana)
    client.cookies["django_language"] = "fr"
    page = client.get("/rules/").content.decode()
    assert f"Votre tournoi n°{tournament.pk} commence dans" in page
    assert "Ouvrir le tournoi" in page


def test_the_last_minute_message_is_in_the_bar_hidden_until_then(client, make_member):
    # reminder.js shows it in the last minute (tests/js/tournament_reminder.test.js,
    # test_browser_notification.py).
    tournament = coming(make_member)
    ana = make_member("ana")
    services.join(tournament=tournament, user=ana)
    client.force_login(ana)
    page = client.get("/rules/").content.decode()
    assert (
        f"<strong data-reminder-soon role=\"alert\" hidden>Your tournament #{tournament.pk} starts in less "
        "than a minute: open it now.</strong>"
    ) in page
    client.cookies["django_language"] = "fr"
    page = client.get("/rules/").content.decode()
    assert f"Votre tournoi n°{tournament.pk} commence dans moins d\u2019une minute : ouvrez-le maintenant." in page


def test_once_started_the_bar_links_to_it(client, make_member):
    tournament = coming(make_member)
    ana = make_member("ana")
    services.join(tournament=tournament, user=ana)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.STARTED)
    client.force_login(ana)
    page = client.get("/").content.decode()
    assert 'data-started="1"' in page
    assert "has started: go to your table." in page
    reminder = selectors.reminder_for(ana.pk)
    assert reminder is not None
    assert reminder.started
    assert reminder.seconds_to_start == 0


def test_a_running_tournament_comes_before_a_coming_one(make_member):
    later = coming(make_member, minutes=50)
    ana = make_member("ana")
    services.join(tournament=later, user=ana)
    soon = services.create_tournament(user=ana, format="arena", mode="duel-block", minutes=10, starts_in=5)
    services.join(tournament=soon, user=ana)
    assert selectors.reminder_for(ana.pk).tournament == soon
    Tournament.objects.filter(pk=later.pk).update(status=Tournament.Status.STARTED)
    assert selectors.reminder_for(ana.pk).tournament == later


def test_nothing_for_a_withdrawn_member_a_finished_tournament_or_one_not_joined(client, make_member):
    tournament = coming(make_member)
    ana, ben = make_member("ana"), make_member("ben")
    services.join(tournament=tournament, user=ana)
    services.withdraw(tournament=tournament, user=ana)
    assert selectors.reminder_for(ana.pk) is None
    assert selectors.reminder_for(ben.pk) is None
    services.join(tournament=tournament, user=ben)
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.FINISHED, ends_at=timezone.now() - timedelta(minutes=1)
    )
    assert selectors.reminder_for(ben.pk) is None
    client.force_login(ben)
    assert "data-tournament-reminder" not in client.get("/rules/").content.decode()


def test_one_query_for_a_member_none_for_a_guest(rf, make_member):
    from django.contrib.auth.models import AnonymousUser

    from tournaments.context_processors import reminder

    tournament = coming(make_member)
    ana = make_member("ana")
    services.join(tournament=tournament, user=ana)
    request = rf.get("/")
    request.user = AnonymousUser()
    with CaptureQueriesContext(connection) as queries:
        assert reminder(request) == {"tournament_reminder": None}
    assert len(queries) == 0
    request.user = ana
    with CaptureQueriesContext(connection) as queries:
        shown = reminder(request)["tournament_reminder"]
        assert shown.tournament == tournament
    assert len(queries) == 1
