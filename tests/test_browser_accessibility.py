"""An automated accessibility check (axe-core, tests/support/accessibility.py)
of the home, table, lobby and rules pages, on a phone and a desktop, in both
languages: no serious or critical violation."""

from __future__ import annotations

import time

import pytest

from games.tests.test_browser_table import (
    ScriptedTable,
    both_ends_table,
    open_scripted,
    scripted_config,
)
from tests.support.accessibility import serious_violations
from tests.support.browser import DESKTOP, PHONE, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCREENS = [(PHONE, "fr-FR"), (DESKTOP, "en-GB")]


@pytest.mark.parametrize(("viewport", "locale"), SCREENS)
def test_public_pages_have_no_serious_violation(new_context, site_server, viewport, locale: str) -> None:
    page = new_context(viewport=viewport, locale=locale).new_page()
    found = {}
    for path in ("/", "/rules/", "/live/", "/leaderboard/", "/accounts/login/"):
        page.goto(site_server.url + path)
        found[path] = serious_violations(page)
    assert found == {path: [] for path in found}


@pytest.mark.parametrize(("viewport", "locale"), SCREENS)
def test_lobby_pages_of_a_member_have_no_serious_violation(new_context, site_server, viewport, locale: str) -> None:
    page = new_context(viewport=viewport, locale=locale).new_page()
    sign_up(page, site_server.url, f"a11y{int(time.time() * 1000) % 10**8}{locale[:2]}")
    found = {}
    for path in ("/ranked/", "/private/new/", "/friends/"):
        page.goto(site_server.url + path)
        found[path] = serious_violations(page)
    assert found == {path: [] for path in found}


@pytest.mark.parametrize(("viewport", "locale"), SCREENS)
def test_the_table_has_no_serious_violation_mid_game_and_after(new_context, site_server, viewport, locale: str) -> None:
    table: ScriptedTable = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), viewport=viewport, locale=locale)
    found = {"mid-game": serious_violations(page)}
    page.click('#hand [data-tile="3-6"]')  # both ends glow
    found["choosing an end"] = serious_violations(page)
    page.keyboard.press("Escape")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-action="resign"]')
    page.locator("[data-game-over]").wait_for()
    found["game over"] = serious_violations(page)
    assert found == {name: [] for name in found}
    assert errors == []
