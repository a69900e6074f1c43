"""The tournament reminder in Chromium: a member who joined a tournament sees
its countdown on another page of the site, ticking, with a link to it (in
French on a phone, in English on a desktop)."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import create_and_join_tournament, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize(
    ("locale", "viewport", "name", "words"),
    [
        ("fr-FR", {"width": 390, "height": 844}, "remindfr", "commence dans"),
        ("en-GB", {"width": 1280, "height": 800}, "reminden", "starts in"),
    ],
)
def test_the_countdown_shows_on_another_page_for_a_joined_member(
    browser, site_server, locale, viewport, name, words
) -> None:
    context = browser.new_context(locale=locale, viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sign_up(page, site_server.url, name)
        tournament = create_and_join_tournament(page, site_server.url, minutes=10, starts_in=30)
        page.goto(site_server.url + "/rules/")
        bar = page.locator(f'[data-tournament-reminder="{tournament}"]')
        bar.wait_for(state="visible", timeout=10000)
        assert words in bar.inner_text()
        assert bar.locator("a").get_attribute("href") == f"/tournaments/{tournament}/"
        # The in-page message waits for the last minute.
        assert bar.locator("[data-reminder-soon]").is_hidden()
        clock = bar.locator("[data-reminder-clock]")
        first = clock.inner_text()
        assert re.fullmatch(r"\d+:\d\d", first), first
        # It counts down (the text changes within a few seconds).
        page.wait_for_function(
            "(first) => document.querySelector('[data-reminder-clock]').textContent !== first", arg=first,
            timeout=10000,
        )
        box = bar.bounding_box()
        assert box is not None
        assert box["width"] <= viewport["width"]
        assert not errors
    finally:
        context.close()
