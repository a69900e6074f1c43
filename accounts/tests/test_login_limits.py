"""The login limits hold whatever door is used: per account (not per name
typed), at /admin/login/ too; sign-up does not reveal registered addresses."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-42"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def member(username: str = "victim", *, staff: bool = False):
    user = get_user_model().objects.create_user(
        username, f"{username}@example.com", PASSWORD, is_staff=staff, is_superuser=staff
    )
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    return user


def log_in(client: Client, login: str, password: str):
    return client.post("/accounts/login/", {"login": login, "password": password})


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_the_lock_after_failed_logins_is_per_account_not_per_name_typed(client: Client) -> None:
    member()
    for _ in range(5):
        assert log_in(client, "victim", "wrong password").status_code == 200
    refused = log_in(client, "victim@example.com", PASSWORD)
    assert not logged_in(client)
    assert "Too many failed login attempts" in refused.content.decode()
    # Another account is not locked by them.
    member("bystander")
    log_in(Client(), "bystander@example.com", PASSWORD)


def test_failures_by_address_lock_the_username_too(client: Client) -> None:
    member()
    for _ in range(5):
        log_in(client, "VICTIM@example.com", "wrong password")
    log_in(client, "victim", PASSWORD)
    assert not logged_in(client)


def test_an_unlocked_member_logs_in_by_name_or_address(client: Client) -> None:
    member()
    log_in(client, "victim@example.com", "wrong password")
    log_in(client, "victim@example.com", PASSWORD)
    assert logged_in(client)


def test_admin_login_form_is_no_password_oracle() -> None:
    member("boss", staff=True)
    failures: list[object] = []

    def count(**kwargs: object) -> None:
        failures.append(kwargs)

    user_login_failed.connect(count)
    try:
        client = Client()
        for _ in range(30):
            response = client.post("/admin/login/", {"username": "boss", "password": "wrong password"})
            # Sent to the member login, where the limits apply; no password checked here.
            assert response.status_code == 302
            assert response["Location"].startswith("/accounts/login/?next=")
    finally:
        user_login_failed.disconnect(count)
    assert failures == []
    assert not logged_in(client)


def test_a_member_locked_out_of_the_member_login_cannot_use_the_admin_login(client: Client) -> None:
    member("boss", staff=True)
    for _ in range(5):
        log_in(client, "boss", "wrong password")
    client.post("/admin/login/", {"username": "boss", "password": PASSWORD, "next": "/admin/"})
    assert not logged_in(client)
    # Through the member login (the only door) the lock holds too.
    log_in(client, "boss", PASSWORD)
    assert not logged_in(client)


def test_staff_reach_the_admin_after_the_member_login(client: Client) -> None:
    member("boss", staff=True)
    response = client.get("/admin/")
    assert response.status_code == 302
    login_page = client.get(response["Location"], follow=True)
    assert login_page.status_code == 200
    response = client.post(
        "/accounts/login/", {"login": "boss", "password": PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_a_member_who_is_not_staff_gets_403_at_the_admin_login(client: Client) -> None:
    user = member("player")
    client.force_login(user)
    assert client.get("/admin/login/").status_code == 403


def signup(client: Client, username: str, email: str):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_signup_does_not_reveal_that_an_address_is_registered(mailoutbox: list) -> None:
    victim = member()
    fresh_client, taken_client = Client(), Client()
    fresh = signup(fresh_client, "newcomer", "newcomer@example.com")
    taken = signup(taken_client, "prober", "victim@example.com")
    # The same answer: signed up, logged in, sent on to the same page.
    assert fresh.status_code == taken.status_code == 302
    assert fresh["Location"] == taken["Location"]
    assert logged_in(fresh_client)
    assert logged_in(taken_client)
    page = taken_client.get(taken["Location"]).content.decode()
    assert "already registered" not in page
    # The address still belongs to its owner only; its owner is told.
    prober = get_user_model().objects.get(username="prober")
    assert prober.email == ""
    assert not EmailAddress.objects.filter(user=prober).exists()
    assert list(EmailAddress.objects.filter(email__iexact="victim@example.com").values_list("user", flat=True)) == [
        victim.pk
    ]
    to_victim = [mail for mail in mailoutbox if mail.to == ["victim@example.com"]]
    assert len(to_victim) == 1
    assert "already exists" in to_victim[0].body
    # One mail each: the newcomer's address confirmation, the owner's notice.
    assert len(mailoutbox) == 2


def test_a_password_reset_lifts_the_accounts_lock(client: Client, mailoutbox: list) -> None:
    import re

    member()
    for _ in range(5):
        log_in(client, "victim", "wrong password")
    log_in(client, "victim@example.com", PASSWORD)
    assert not logged_in(client)
    client.post("/accounts/password/reset/", {"email": "victim@example.com"})
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", mailoutbox[-1].body)
    assert link is not None
    form_page = client.get(link.group(1), follow=True)
    new_password = "another-long-pass-phrase-7"
    client.post(form_page.redirect_chain[-1][0] if form_page.redirect_chain else link.group(1),
                {"password1": new_password, "password2": new_password})
    client.post("/accounts/logout/")
    log_in(client, "victim@example.com", new_password)
    assert logged_in(client)
