"""The tournament page offers a player waiting for the start a browser
notification a minute before it ("Notify me a minute before the start"):
the button turns the member's notifications preference on (the page's
script asks the browser's permission: test_browser_notification.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from tournaments import services

pytestmark = pytest.mark.django_db


def preference(user) -> bool:
    return Profile.objects.filter(user=user, notifications=True).exists()


def test_a_player_waiting_for_the_start_is_offered_the_notification(client, make_member) -> None:
    member = make_member("waiting")
    tournament = services.create_tournament(user=member, format="arena", mode="duel-block", minutes=10, starts_in=30)
    page_url = reverse("tournaments:detail", args=[tournament.pk])
    client.force_login(member)
    # Not joined yet: no offer.
    assert b"data-notify-me" not in client.get(page_url).content
    services.join(tournament=tournament, user=member)
    page = client.get(page_url).content.decode()
    assert "data-notify-me" in page
    assert "Notify me a minute before the start" in page
    assert "tournaments/js/notify_offer.js" in page
    client.cookies["django_language"] = "fr"
    with translation.override("fr"):
        page = client.get(page_url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Me prévenir une minute avant le début" in page
    del client.cookies["django_language"]

    response = client.post(reverse("tournaments:notify", args=[tournament.pk]))
    assert response.status_code == 303
    assert response["Location"] == f"{page_url}#notify"
    assert preference(member)
    page = client.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-notify-me" not in page
    assert "data-notify-on" in page
    assert "Your browser will notify you a minute before the start" in page


def test_no_offer_once_started_or_after_withdrawing(client, make_member) -> None:
    member = make_member("nooffer")
    coming = services.create_tournament(user=member, format="arena", mode="duel-block", minutes=10, starts_in=30)
    services.join(tournament=coming, user=member)
    services.withdraw(tournament=coming, user=member)
    client.force_login(member)
    assert b"data-notify-offer-box" not in client.get(reverse("tournaments:detail", args=[coming.pk])).content
    running = services.create_tournament(user=member, format="arena", mode="duel-block", minutes=10, starts_in=0)
    services.join(tournament=running, user=member)
    services.tick()
    running.refresh_from_db()
    assert running.status == "started"
    assert b"data-notify-offer-box" not in client.get(reverse("tournaments:detail", args=[running.pk])).content


def test_the_offer_is_for_members_only(client, make_member) -> None:
    member = make_member("host")
    tournament = services.create_tournament(user=member, format="arena", mode="duel-block", minutes=10, starts_in=30)
    response = client.post(reverse("tournaments:notify", args=[tournament.pk]))
    assert response.status_code == 302
    assert "login" in response["Location"]
    assert not preference(member)
