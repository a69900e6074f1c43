"""A member's account in Chromium (the real site under Daphne): the settings
page in both languages, its preferences applied at the table, and
two-factor authentication end to end: the authenticator app set up with the
secret the page shows (the code computed here, as a phone would), then a
login with the password and the app's code, and one with a recovery code."""

from __future__ import annotations

import quopri
import re
import time
from pathlib import Path

import pytest

from tests.support import browser
from tests.support.accessibility import serious_violations
from tests.support.browser import DESKTOP, PHONE
from tests.support.totp import period, totp_code

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PASSWORD = "a-long-pass-phrase-42"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def sign_up(page, base: str, username: str) -> None:
    browser.sign_up(page, base, username, PASSWORD)


def confirm_email(page, server, address: str) -> None:
    """Follow the confirmation link of the mail the site sent to ``address``
    (the console mail backend writes it to the server's log)."""
    deadline = time.monotonic() + 30
    while True:
        log = quopri.decodestring(server.log().encode()).decode(errors="replace")
        start = log.rfind(f"To: {address}")
        match = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s/]+/)", log[start:]) if start >= 0 else None
        if match or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert match, f"no confirmation mail to {address} in the log"
    page.goto(server.url + match.group(1))
    with page.expect_navigation():
        page.click('form[action*="/accounts/confirm-email/"] button[type="submit"]')


def log_out(page) -> None:
    with page.expect_navigation():
        page.click('form[action="/accounts/logout/"] button[type="submit"]')
    assert page.locator("[data-me]").count() == 0


def log_in_with_password(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill('input[name="login"]', username)
    page.fill('input[name="password"]', PASSWORD)
    with page.expect_navigation():
        page.click('form[data-form="login"] button[type="submit"]')


@pytest.mark.parametrize(
    ("locale", "heading", "saved"),
    [("en-GB", "Settings", "Your settings are saved."), ("fr-FR", "Réglages", "Vos réglages sont enregistrés.")],
)
def test_the_settings_page_in_both_languages_and_its_preferences_at_the_table(
    new_context, site_server, locale: str, heading: str, saved: str
) -> None:
    context = new_context(locale=locale, viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    username = f"prefs{locale[:2]}"
    sign_up(page, site_server.url, username)
    page.goto(site_server.url + f"/u/{username}/")
    with page.expect_navigation():
        page.click("[data-settings-link]")
    assert page.locator("h1").inner_text() == heading
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    screenshot(page, f"account-settings-{locale}")
    # The account library's own pages for the addresses and the password, in the site's layout.
    for link, name in (("[data-settings-email]", "email"), ("[data-settings-password]", "password")):
        with page.expect_navigation():
            page.click(link)
        assert page.locator(".site-header").count() == 1
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        screenshot(page, f"account-{name}-{locale}")
        with page.expect_navigation():
            page.click("[data-nav-settings]")
    # Numbers on the tiles, confirm each move, no sounds.
    page.check('input[name="tile_faces"][value="numbers"]')
    page.check('input[name="confirm_moves"]')
    page.uncheck('input[name="sounds"]')
    with page.expect_navigation():
        page.click('form[data-form="settings"] button[type="submit"]')
    assert saved in page.locator(".messages").inner_text()
    # The table page applies them: a game against the computer.
    page.goto(site_server.url + "/")
    with page.expect_navigation():
        page.click('[data-quick-start="duel-block"]')
    page.wait_for_selector("#hand [data-tile]")
    assert page.locator("#hand [data-tile] .tile-numbers text").count() == 2 * page.locator("#hand [data-tile]").count()
    assert page.locator("#hand [data-tile] .tile-pips").count() == 0
    assert page.is_checked('[data-setting="confirm"]')
    assert page.is_checked('[data-setting="mute-sounds"]')
    assert page.is_checked('[data-setting="tile-numbers"]')
    # A switch of the table is saved as the member's preference.
    with page.expect_response(lambda response: response.url.endswith("/account/settings/") and response.request.method == "POST"):
        page.uncheck('[data-setting="tile-numbers"]')
    assert page.locator("#hand [data-tile] .tile-pips").count() == page.locator("#hand [data-tile]").count()
    page.goto(site_server.url + "/account/settings/")
    assert page.is_checked('input[name="tile_faces"][value="pips"]')
    assert not errors, errors


def test_a_guests_switches_stay_in_the_browser(new_context, site_server) -> None:
    page = new_context(locale="en-GB", viewport=PHONE).new_page()
    page.goto(site_server.url + "/")
    with page.expect_navigation():
        page.click('[data-quick-start="duel-block"]')
    page.wait_for_selector("#hand [data-tile]")
    page.check('[data-setting="tile-numbers"]')
    assert page.locator("#hand [data-tile] .tile-numbers").count() > 0
    page.reload()
    page.wait_for_selector("#hand [data-tile]")
    assert page.is_checked('[data-setting="tile-numbers"]')
    assert page.evaluate("localStorage.getItem('dominoes.tile-numbers')") == "1"


@pytest.mark.parametrize(("locale", "title"), [("fr-FR", "Authentification à deux facteurs")])
def test_two_factor_login_with_the_authenticator_app_then_with_a_recovery_code(
    new_context, site_server, locale: str, title: str
) -> None:
    base = site_server.url
    username = "twofactor"
    page = new_context(locale=locale, viewport=PHONE).new_page()
    sign_up(page, base, username)
    confirm_email(page, site_server, f"{username}@example.com")

    # Settings > two-factor authentication > the authenticator app.
    page.goto(base + "/account/settings/")
    assert page.locator("[data-two-factor]").get_attribute("data-two-factor") == "off"
    with page.expect_navigation():
        page.click("[data-settings-2fa]")
    assert page.locator("h1").first.inner_text() == title
    screenshot(page, f"account-2fa-index-{locale}")
    with page.expect_navigation():
        page.click('a[href="/accounts/2fa/totp/activate/"]')
    # allauth asks for the password again.
    page.fill('input[name="password"]', PASSWORD)
    with page.expect_navigation():
        page.click('main form button[type="submit"]')
    secret = page.input_value("#authenticator_secret")
    assert re.fullmatch(r"[A-Z2-7]{16,}", secret)
    screenshot(page, f"account-2fa-activate-{locale}")
    assert page.locator('img[src^="data:image/svg+xml"]').count() == 1  # the QR code
    page.fill('input[name="code"]', totp_code(secret))
    activated_in = period()
    with page.expect_navigation():
        page.click('main form button[type="submit"]')
    # The recovery codes are shown.
    codes = page.input_value("#recovery_codes").split()
    screenshot(page, f"account-2fa-recovery-codes-{locale}")
    assert len(codes) == 10
    page.goto(base + "/account/settings/")
    assert page.locator("[data-two-factor]").get_attribute("data-two-factor") == "on"
    log_out(page)

    # The password alone is not enough: the login asks for the app's code.
    log_in_with_password(page, base, username)
    assert page.url == base + "/accounts/2fa/authenticate/"
    screenshot(page, f"account-2fa-authenticate-{locale}")
    assert page.locator("[data-me]").count() == 0
    # A wrong code is refused.
    page.fill('input[name="code"]', "000000" if totp_code(secret) != "000000" else "111111")
    with page.expect_navigation():
        page.click('main form button[type="submit"]')
    assert page.locator("[data-me]").count() == 0
    # The activation's code cannot serve twice: the next one, as a phone shows it.
    while period() == activated_in:
        time.sleep(0.25)
    page.fill('input[name="code"]', totp_code(secret))
    with page.expect_navigation():
        page.click('main form button[type="submit"]')
    assert page.locator("[data-me]").inner_text() == username
    log_out(page)

    # A recovery code instead of the app.
    log_in_with_password(page, base, username)
    page.fill('input[name="code"]', codes[0])
    with page.expect_navigation():
        page.click('main form button[type="submit"]')
    assert page.locator("[data-me]").inner_text() == username
    log_out(page)
    # Used once, it is spent.
    log_in_with_password(page, base, username)
    page.fill('input[name="code"]', codes[0])
    with page.expect_navigation():
        page.click('main form button[type="submit"]')
    assert page.locator("[data-me]").count() == 0


@pytest.mark.parametrize(("viewport", "locale"), [(PHONE, "fr-FR"), (DESKTOP, "en-GB")])
def test_the_account_pages_have_no_serious_accessibility_violation(new_context, site_server, viewport, locale: str) -> None:
    page = new_context(viewport=viewport, locale=locale).new_page()
    sign_up(page, site_server.url, f"a11yaccount{locale[:2]}")
    found = {}
    for path in ("/account/settings/", "/account/close/", "/accounts/2fa/", "/accounts/email/", "/accounts/password/change/"):
        page.goto(site_server.url + path)
        found[path] = serious_violations(page)
    assert found == {path: [] for path in found}
