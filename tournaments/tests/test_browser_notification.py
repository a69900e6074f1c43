"""The tournament reminder's browser notification in Chromium: a member with
notifications on, on a hidden page, gets one in the last minute before a
tournament they joined starts; with the preference off, none
(window.Notification is stubbed and records what is created)."""

from __future__ import annotations

import pytest

from tests.support.browser import create_and_join_tournament, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

STUB = """
// Recorded in sessionStorage so that the record outlives the page.
const notified = () => JSON.parse(sessionStorage.getItem("notified") || "[]");
window.__notified = () => notified();
class FakeNotification {
  static get permission() { return sessionStorage.getItem("permission") || window.__firstPermission; }
  static requestPermission() {
    sessionStorage.setItem("asked", String(Number(sessionStorage.getItem("asked") || 0) + 1));
    sessionStorage.setItem("permission", "granted");
    return Promise.resolve("granted");
  }
  constructor(title, options) { sessionStorage.setItem("notified", JSON.stringify([...notified(), title])); }
}
window.Notification = FakeNotification;
Object.defineProperty(document, "visibilityState", { get: () => "hidden", configurable: true });
Object.defineProperty(document, "hidden", { get: () => true, configurable: true });
"""


@pytest.mark.parametrize(("name", "on"), [("notifyon", True), ("notifyoff", False)])
def test_a_notification_in_the_last_minute_only_with_the_preference_on(browser, site_server, name, on) -> None:
    context = browser.new_context(locale="en-GB")
    # With the preference on, the browser has not been asked yet: ticking the
    # box asks it. Off, the permission is granted: only the preference stops it.
    first = "default" if on else "granted"
    context.add_init_script(f'window.__firstPermission = "{first}";' + STUB)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sign_up(page, site_server.url, name)
        page.goto(site_server.url + "/account/settings/")
        box = page.locator('input[name="notifications"]')
        if box.is_checked() != on:
            box.click()
        if on:
            page.wait_for_function("() => sessionStorage.getItem('asked') === '1'", timeout=10000)
        assert page.locator("[data-notification-denied]").is_hidden()
        with page.expect_navigation():
            page.click('form[data-form="settings"] button[type="submit"]')
        tournament = create_and_join_tournament(page, site_server.url, minutes=10, starts_in=1)
        page.goto(site_server.url + "/rules/")
        bar = page.locator(f'[data-tournament-reminder="{tournament}"]')
        bar.wait_for(state="visible", timeout=10000)
        # The clock has ticked at least once under a minute.
        page.wait_for_function(
            "() => /^0:\\d\\d$/.test(document.querySelector('[data-reminder-clock]').textContent)",
            timeout=20000,
        )
        # Another page in that minute: still one (once per tournament).
        page.goto(site_server.url + "/rules/")
        bar.wait_for(state="visible", timeout=10000)
        page.wait_for_function(
            "() => document.querySelector('[data-reminder-clock]').textContent.startsWith('0:')", timeout=10000
        )
        # The in-page message: on this hidden page, only when no browser
        # notification stands in for it (the preference off).
        soon = page.locator("[data-reminder-soon]")
        if on:
            assert soon.is_hidden()
        else:
            soon.wait_for(state="visible", timeout=10000)
            assert "less than a minute" in soon.inner_text()
        if on:
            page.wait_for_function("() => window.__notified().length >= 1", timeout=10000)
            titles = page.evaluate("() => window.__notified()")
            assert len(titles) == 1, titles
            assert f"#{tournament}" in titles[0]
            assert "starts in" in titles[0]
        else:
            assert page.locator("body[data-notifications]").count() == 0
            assert page.evaluate("() => window.__notified()") == []
        assert not errors
    finally:
        context.close()


def test_a_refused_permission_is_said_next_to_the_box(browser, site_server) -> None:
    context = browser.new_context(locale="fr-FR")
    context.add_init_script(
        """
        class RefusingNotification {
          static get permission() { return sessionStorage.getItem("permission") || "default"; }
          static requestPermission() {
            sessionStorage.setItem("permission", "denied");
            return Promise.resolve("denied");
          }
        }
        window.Notification = RefusingNotification;
        """
    )
    page = context.new_page()
    try:
        sign_up(page, site_server.url, "notifydenied")
        page.goto(site_server.url + "/account/settings/")
        denied = page.locator("[data-notification-denied]")
        assert denied.is_hidden()
        page.locator('input[name="notifications"]').check()
        denied.wait_for(state="visible", timeout=10000)
        assert "bloque" in denied.inner_text()
    finally:
        context.close()


def test_the_tournament_page_offers_the_notification_after_joining(browser, site_server) -> None:
    """"Notify me a minute before the start" asks the browser's permission
    from the click, then turns the preference on (French on a phone)."""
    context = browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 844})
    context.add_init_script('window.__firstPermission = "default";' + STUB)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sign_up(page, site_server.url, "notifyoffer")
        create_and_join_tournament(page, site_server.url, minutes=10, starts_in=30)
        button = page.locator("[data-notify-me]")
        assert "Me prévenir une minute avant le début" in button.inner_text()
        assert page.locator("body[data-notifications]").count() == 0
        with page.expect_navigation():
            button.click()
        assert page.evaluate("() => sessionStorage.getItem('asked')") == "1"
        page.locator("[data-notify-on]").wait_for(state="visible", timeout=10000)
        assert page.locator("[data-notify-me]").count() == 0
        assert page.locator("body[data-notifications='on']").count() == 1
        # Granted: nothing more to allow, no refusal to say.
        assert page.locator("[data-notify-allow]").is_hidden()
        assert page.locator("[data-notification-denied]").is_hidden()
        assert not errors
    finally:
        context.close()
