"""The new private table page on a phone: nothing wider than the screen, and
"In pairs" offered only for the variants played in pairs."""

from __future__ import annotations

import re
import time

import pytest

from tests.support.browser import PHONE, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDEST = """() => {
  const inner = document.documentElement.clientWidth;
  const cut = [...document.querySelectorAll('main *')].filter((node) => {
    const box = node.getBoundingClientRect();
    return box.width && (box.right > inner + 0.5 || box.left < -0.5);
  }).map((node) => node.tagName + '.' + node.className);
  return {scroll: document.scrollingElement.scrollWidth, inner, cut: cut.slice(0, 5)};
}"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_new_private_table_fits_a_phone_and_offers_pairs_only_where_they_exist(
    new_context, site_server, locale: str
) -> None:
    page = new_context(viewport=PHONE, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_up(page, site_server.url, f"priv{int(time.time() * 1000) % 10**8}{locale[:2]}")
    page.goto(site_server.url + "/private/new/")
    sizes = page.evaluate(WIDEST)
    assert sizes["scroll"] <= sizes["inner"], sizes
    assert sizes["cut"] == [], sizes
    pairs = page.locator('input[name="teams"]')
    page.check('input[name="preset"][value="classic-draw"]')
    assert not pairs.is_visible()
    page.check('input[name="preset"][value="arena"]')
    assert pairs.is_visible()
    pairs.check()
    # Pairs are four players: the other counts go.
    assert page.locator('input[name="players"][value="4"]').is_checked()
    assert not page.locator('input[name="players"][value="2"]').is_visible()
    page.check('input[name="preset"][value="duel-block"]')
    assert not pairs.is_visible()
    assert not pairs.is_checked()
    page.check('input[name="preset"][value="arena"]')
    pairs.check()
    with page.expect_navigation():
        page.click('form[data-form="private-table"] button[type="submit"]')
    assert re.search(r"/private/\d+/$", page.url), page.url
    sizes = page.evaluate(WIDEST)
    assert sizes["scroll"] <= sizes["inner"], sizes
    assert errors == []
