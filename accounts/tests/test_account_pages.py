"""Sign-up, log-in, log-out and password reset through the site's pages
(django-allauth with the site's templates)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def signup(client: Client, username: str = "alice", password: str = "a-long-pass-phrase-42"):
    page = client.get("/accounts/signup/")
    assert page.status_code == 200
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": password,
            "password2": password,
        },
    )


def test_signup_page_looks_like_the_site_and_has_the_interface_fields(client: Client) -> None:
    html = client.get("/accounts/signup/").content.decode()
    assert 'class="site-header"' in html  # extends base.html
    assert 'data-form="signup"' in html
    for name in ("username", "email", "password1", "password2", "csrfmiddlewaretoken"):
        assert f'name="{name}"' in html


def test_signup_creates_the_member_and_logs_them_in(client: Client) -> None:
    response = signup(client)
    assert response.status_code == 302
    user = get_user_model().objects.get(username="alice")
    assert user.email == "alice@example.com"
    assert hasattr(user, "profile")
    assert client.session["_auth_user_id"] == str(user.pk)
    home = client.get("/").content.decode()
    assert "Log out" in home


def test_signup_refuses_mismatched_passwords(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bob",
            "email": "bob@example.com",
            "password1": "a-long-pass-42",
            "password2": "other-pass-42",
        },
    )
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="bob").exists()
    assert "errorlist" in response.content.decode()


def test_login_by_username_and_by_email(make_member) -> None:
    make_member("carol")
    for login in ("carol", "carol@example.com"):
        client = Client()
        page = client.get("/accounts/login/").content.decode()
        assert 'name="login"' in page
        assert 'name="password"' in page
        response = client.post("/accounts/login/", {"login": login, "password": "secret-pass-123"})
        assert response.status_code == 302, login
        assert "_auth_user_id" in client.session


def test_wrong_password_is_refused_and_guessing_is_throttled(make_member) -> None:
    make_member("dave")
    client = Client()
    pages = []
    for _ in range(6):
        response = client.post("/accounts/login/", {"login": "dave", "password": "wrong-guess"})
        assert response.status_code == 200
        pages.append(response.content.decode())
    assert "_auth_user_id" not in client.session
    assert "Too many failed login attempts" not in pages[0]
    # Five failures for one account within five minutes lock it for a while.
    assert "Too many failed login attempts" in pages[-1]
    # Even the right password is refused while throttled, from anywhere.
    other = Client()
    response = other.post("/accounts/login/", {"login": "dave", "password": "secret-pass-123"})
    assert "_auth_user_id" not in other.session
    assert "Too many failed login attempts" in response.content.decode()


def test_logout_page_and_post(client: Client, make_member) -> None:
    make_member("erin")
    client.post("/accounts/login/", {"login": "erin", "password": "secret-pass-123"})
    page = client.get("/accounts/logout/")
    assert page.status_code == 200
    assert "Log out" in page.content.decode()
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session


def test_password_reset_sends_a_mail_whose_link_sets_a_new_password(client: Client, make_member) -> None:
    make_member("fay")
    response = client.post("/accounts/password/reset/", {"email": "fay@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body).group(1)
    page = client.get(link, follow=True)
    assert page.status_code == 200
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link
    done = client.post(form_url, {"password1": "brand-new-pass-77", "password2": "brand-new-pass-77"})
    assert done.status_code == 302
    assert get_user_model().objects.get(username="fay").check_password("brand-new-pass-77")


def test_account_pages_speak_french(client: Client) -> None:
    html = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="fr">' in html
    assert "Se connecter" in html


def test_member_pages_have_french_texts(client: Client) -> None:
    html = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Créer votre compte" in html
    html = client.get("/leaderboard/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Personne n'est encore classé dans ce mode" in html
