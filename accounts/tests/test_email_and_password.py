"""Changing the password and the e-mail addresses from the settings page:
allauth's own flows (``/accounts/password/change/``, ``/accounts/email/``), in
the site's layout and in both languages (docs/members.md, "Settings")."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db
PASSWORD = "secret-pass-123"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_member_changes_their_password_and_logs_in_with_the_new_one(make_member) -> None:
    alice = make_member("alice")
    client = logged_in(alice)
    page = client.get("/accounts/password/change/").content.decode()
    assert 'class="site-header"' in page
    assert 'name="oldpassword"' in page
    wrong = client.post(
        "/accounts/password/change/",
        {"oldpassword": "not-it", "password1": "a-new-pass-456", "password2": "a-new-pass-456"},
    )
    assert wrong.status_code == 200  # the form again, with its error
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "a-new-pass-456", "password2": "a-new-pass-456"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a-new-pass-456")
    assert client.get("/account/settings/").status_code == 200  # still logged in on this device
    fresh = Client()
    assert fresh.post("/accounts/login/", {"login": "alice", "password": PASSWORD}).status_code == 200  # refused
    assert fresh.post("/accounts/login/", {"login": "alice", "password": "a-new-pass-456"}).status_code == 302
    assert fresh.get("/account/settings/").status_code == 200


def test_a_member_adds_an_address_confirms_it_and_makes_it_primary(make_member) -> None:
    alice = make_member("alice")
    EmailAddress.objects.create(user=alice, email="alice@example.com", verified=True, primary=True)
    client = logged_in(alice)
    page = client.get("/accounts/email/").content.decode()
    assert 'class="site-header"' in page
    assert "alice@example.com" in page
    mail.outbox.clear()
    response = client.post("/accounts/email/", {"action_add": "", "email": "alice@new.example"})
    assert response.status_code == 302
    added = EmailAddress.objects.get(user=alice, email="alice@new.example")
    assert not added.verified
    assert not added.primary
    # The confirmation mail's link confirms it.
    assert [message.to for message in mail.outbox] == [["alice@new.example"]]
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", mail.outbox[0].body).group(1)
    assert client.post(link).status_code == 302
    added.refresh_from_db()
    assert added.verified
    response = client.post("/accounts/email/", {"action_primary": "", "email": "alice@new.example"})
    assert response.status_code == 302
    added.refresh_from_db()
    alice.refresh_from_db()
    assert added.primary
    assert not EmailAddress.objects.get(email="alice@example.com").primary
    assert alice.email == "alice@new.example"
    # The new address logs in too.
    assert Client().post("/accounts/login/", {"login": "alice@new.example", "password": PASSWORD}).status_code == 302


@pytest.mark.parametrize(
    ("url", "french"),
    [("/accounts/password/change/", "Modifier le mot de passe"), ("/accounts/email/", "Rendre principale")],
)
def test_the_password_and_address_pages_speak_french(make_member, url: str, french: str) -> None:
    client = logged_in(make_member("alice"))
    client.cookies["django_language"] = "fr"
    html = client.get(url).content.decode()
    assert 'class="site-header"' in html
    assert 'lang="fr"' in html
    assert french in html
    assert 'href="/account/settings/"' in html  # back to the settings
