"""First browser test: the real site under Daphne, in headless Chromium."""

from __future__ import annotations

from pathlib import Path

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


ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
QUICK = ("duel-block", "duel-draw", "three", "four", "pairs", "custom")


@pytest.mark.parametrize(
    ("viewport", "locale", "duel"),
    [({"width": 390, "height": 844}, "fr-FR", "Duel"), ({"width": 1280, "height": 800}, "en-GB", "Duel")],
)
def test_quick_starts_are_above_the_fold_and_start_a_game_in_one_tap(
    browser, site_server, viewport, locale: str, duel: str
) -> None:
    context = browser.new_context(locale=locale, viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(site_server.url + "/")
        for key in QUICK:
            box = page.locator(f'[data-quick-start="{key}"]').bounding_box()
            assert box is not None, key
            assert box["y"] + box["height"] <= viewport["height"], (key, box)
            assert box["height"] >= 44, (key, box)  # a finger's size
        assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"home-quick-starts-{locale}-{viewport['width']}.png"))
        assert page.locator('[data-quick-start="duel-block"]').inner_text() == duel
        assert page.locator('[data-quick-rules="duel-block"]').get_attribute("href") == "/rules/#variant-duel-block"
        # "Custom game" leads to the form below.
        page.click('[data-quick-start="custom"]')
        page.wait_for_function("location.hash === '#play-computer'")
        # Choosing a variant tells what it is, with its rules.
        page.select_option('#play-computer-form [name="preset"]', "duel-block")
        assert page.locator("[data-variant-rules]").get_attribute("href") == "/rules/#variant-duel-block"
        assert page.locator("[data-variant-summary] span").inner_text().strip()
        # One tap: a table of three players, already dealt.
        page.goto(site_server.url + "/")
        with page.expect_navigation():
            page.click('[data-quick-start="three"]')
        assert "/table/" in page.url
        page.wait_for_selector("#line [data-line-tile], #table[data-my-turn]")
        assert page.locator("#players .player").count() == 2
        assert errors == []
    finally:
        context.close()
