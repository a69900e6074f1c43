"""Two-factor authentication (allauth.mfa under /accounts/2fa/): an
authenticator app (TOTP) and recovery codes; the login then asks for a code.
(The same end to end in Chromium: tests/test_browser_account.py.)"""

from __future__ import annotations

import html
import re

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.core.cache import cache
from django.test import Client

from tests.support.totp import totp_code

pytestmark = pytest.mark.django_db
PASSWORD = "secret-pass-123"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(make_member):
    member = make_member("alice")
    EmailAddress.objects.create(user=member, email="alice@example.com", verified=True, primary=True)
    return member


def log_in(client: Client, login: str = "alice", password: str = PASSWORD):
    return client.post("/accounts/login/", {"login": login, "password": password})


def activate_totp(client: Client) -> str:
    """Turn the authenticator app on as a member would: read the secret the
    page shows, answer with the code it gives now. Returns the secret."""
    page = client.get("/accounts/2fa/totp/activate/")
    # allauth asks for the password again first (reauthentication).
    assert page.status_code == 302
    assert page["Location"].startswith("/accounts/reauthenticate/")
    again = client.post(page["Location"], {"password": PASSWORD})
    assert again.status_code == 302
    assert again["Location"] == "/accounts/2fa/totp/activate/"
    page = client.get("/accounts/2fa/totp/activate/")
    assert page.status_code == 200
    field = re.search(r'<input[^>]*id="authenticator_secret"[^>]*>', page.content.decode()).group(0)
    secret = re.search(r'value="([A-Z2-7]+)"', field).group(1)
    done = client.post("/accounts/2fa/totp/activate/", {"code": totp_code(secret)})
    assert done.status_code == 302, done.content.decode()[:2000]
    return secret


def test_the_pages_are_under_accounts_2fa_in_the_sites_layout_and_in_french(alice) -> None:
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/2fa/").content.decode()
    assert 'class="site-header"' in page
    assert "/accounts/2fa/totp/activate/" in page
    client.cookies["django_language"] = "fr"
    page = client.get("/accounts/2fa/").content.decode()
    assert "Authentification à deux facteurs" in page
    assert "Application d'authentification" in html.unescape(page)  # allauth's French


def test_an_unverified_address_must_be_verified_first(make_member) -> None:
    bob = make_member("bob")
    EmailAddress.objects.create(user=bob, email="bob@example.com", verified=False, primary=True)
    client = Client()
    client.force_login(bob)
    response = client.get("/accounts/2fa/totp/activate/")
    assert response.status_code == 302
    assert not Authenticator.objects.filter(user=bob).exists()


def test_the_login_asks_for_the_authenticator_code_then_a_recovery_code_works_once(alice) -> None:
    client = Client()
    assert log_in(client).status_code == 302
    secret = activate_totp(client)
    assert set(Authenticator.objects.filter(user=alice).values_list("type", flat=True)) == {"totp", "recovery_codes"}
    settings_page = client.get("/account/settings/").content.decode()
    assert 'data-two-factor="on"' in settings_page
    codes = client.get("/accounts/2fa/recovery-codes/").content.decode()
    recovery = re.search(r'<textarea[^>]*id="recovery_codes"[^>]*>\s*(\w+)', codes).group(1)
    client.post("/accounts/logout/")

    # The password alone no longer logs in: a code is asked for.
    client = Client()
    response = log_in(client)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/2fa/authenticate/"
    assert "_auth_user_id" not in client.session
    assert client.post("/accounts/2fa/authenticate/", {"code": "000000" if totp_code(secret) != "000000" else "111111"}).status_code == 200
    assert "_auth_user_id" not in client.session
    # allauth refuses a code used already (the activation's) until the next
    # 30-second step; forgetting it stands for the wait (the browser test waits).
    cache.clear()
    response = client.post("/accounts/2fa/authenticate/", {"code": totp_code(secret)})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)
    client.post("/accounts/logout/")

    # A recovery code instead of the app's code, once.
    client = Client()
    log_in(client)
    assert client.post("/accounts/2fa/authenticate/", {"code": recovery}).status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)
    client.post("/accounts/logout/")
    client = Client()
    log_in(client)
    assert client.post("/accounts/2fa/authenticate/", {"code": recovery}).status_code == 200
    assert "_auth_user_id" not in client.session
