"""First browser test: the real site under Daphne, in headless Chromium."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize(
    ("locale", "heading"), [("en-GB", "Play dominoes online"), ("fr-FR", "Jouer aux dominos en ligne")]
)
def test_home_page_loads_in_both_languages(browser, site_server, locale: str, heading: str) -> None:
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(site_server.url + "/")
        assert page.locator("h1").first.inner_text() == heading
        assert page.locator("html").get_attribute("lang") == locale[:2]
        # The stylesheet is served (whitenoise) and applied.
        assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).display") == "flex"
    finally:
        context.close()


def test_language_switcher_changes_the_language(browser, site_server) -> None:
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    try:
        page.goto(site_server.url + "/")
        with page.expect_navigation():
            page.select_option("#language-select", "fr")
        assert page.locator("h1").first.inner_text() == "Jouer aux dominos en ligne"
    finally:
        context.close()
