"""The tournament reminder's browser notification in Chromium: a member with
notifications on, on a hidden page, gets one in the last minute before a
tournament they joined starts; with the preference off, none
(window.Notification is stubbed and records what is created)."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import sign_up

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
        page.goto(site_server.url + "/tournaments/")
        page.fill('input[name="minutes"]', "10")
        page.fill('input[name="starts_in"]', "1")
        with page.expect_navigation():
            page.click('form[data-form="tournament"] button[type="submit"]')
        match = re.search(r"/tournaments/(\d+)/", page.url)
        assert match, page.url
        tournament = match.group(1)
        if page.locator("[data-join]").count():
            with page.expect_navigation():
                page.click("[data-join]")
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
