"""The guide in headless Chromium: the tiles are drawn, on a phone and a desktop.

Screenshots go to test-artifacts/ (look at them when the layout changes).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.mark.parametrize(
    ("locale", "viewport", "name"),
    [
        ("en-GB", {"width": 390, "height": 844}, "rules-guide-phone-en"),
        ("fr-FR", {"width": 1280, "height": 900}, "rules-guide-desktop-fr"),
    ],
)
def test_guide_tiles_render(browser, site_server, locale: str, viewport: dict[str, int], name: str) -> None:
    context = browser.new_context(locale=locale, viewport=viewport)
    page = context.new_page()
    try:
        response = page.goto(site_server.url + "/rules/#matching")
        assert response is not None
        assert response.status == 200
        # The guide's stylesheet is served and applied.
        assert (
            page.evaluate("getComputedStyle(document.querySelector('.guide-section')).borderRadius") != "0px"
        )
        sizes = page.evaluate(
            """() => Array.from(document.querySelectorAll('.tile svg.tile-svg')).map(svg => {
                const box = svg.getBoundingClientRect();
                return [box.width, box.height];
            })"""
        )
        assert len(sizes) > 100
        visible = [size for size in sizes if size[0] > 0]
        # Tiles in closed <details> (the move lists) take no room; every other one has a real size.
        assert len(visible) > 50
        assert all(width >= 8 and height >= 8 for width, height in visible)
        # A tile's SVG draws its pips from the page's shared shapes: the double
        # six of the set uses the six pips twice, and they are drawn (a real box,
        # the second half below the first), in the pips' colour.
        drawn = page.evaluate(
            """() => Array.from(document.querySelectorAll('.set-grid [data-tile="6-6"] use')).map(use => {
                const box = use.getBoundingClientRect();
                return [use.getAttribute('href'), box.width, box.height, box.top];
            })"""
        )
        assert [href for href, *_box in drawn] == ["#tile-frame-v", "#tile-pips-6", "#tile-pips-6"]
        (_f, *_frame), (_a, width_a, height_a, top_a), (_b, width_b, height_b, top_b) = drawn
        assert min(width_a, height_a, width_b, height_b) > 4
        assert top_b > top_a
        pip = page.evaluate("getComputedStyle(document.querySelector('#tile-pips-6 circle')).fill")
        face = page.evaluate("getComputedStyle(document.querySelector('#tile-frame-v .tile-face')).fill")
        assert pip != face
        assert pip not in ("none", "")
        # The page is light: its elements, counted as the browser holds them
        # (6,843 when each tile drew its own pips; docs/architecture.md, "Tiles").
        assert page.evaluate("document.getElementsByTagName('*').length") < 4300
        # The page does not overflow sideways on a phone: wide tables scroll inside their box.
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
        page.goto(site_server.url + "/rules/#set")
        page.screenshot(path=str(ARTIFACTS / f"{name}-set.png"))
        page.goto(site_server.url + "/rules/#variants")
        page.screenshot(path=str(ARTIFACTS / f"{name}-variants.png"))
        page.goto(site_server.url + "/rules/#example-pairs-domino")
        page.locator("#example-pairs-domino summary").click()
        page.screenshot(path=str(ARTIFACTS / f"{name}-pairs.png"), full_page=False)
    finally:
        context.close()
