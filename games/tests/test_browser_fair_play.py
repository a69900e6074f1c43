"""Fair play end to end in headless Chromium on the real site: hints at the
table, then the replay page with the published game (checked with the
verifier) and the post-game review once the background task has run."""

from __future__ import annotations

import random
import re

import pytest

from games.engine.verify import verify_replay
from games.tests.test_browser_table import ACTIONABLE, DESKTOP, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def play_to_the_end(page, rng: random.Random) -> int:
    """Play the person's moves until the game is over, asking for a hint on
    the first two turns that have a tile to play; returns the hints shown."""
    hints = 0
    for _ in range(200):
        what = page.wait_for_function(ACTIONABLE, timeout=30_000).json_value()
        if what == "over":
            return hints
        if what == "next":
            page.click('#round-over [data-action="next_round"]')
            continue
        if what != "play":
            page.click(f'[data-action="{what}"]')
            continue
        if hints < 2:
            button = page.locator('[data-action="hint"]')
            assert button.is_visible()
            page.wait_for_selector('[data-action="hint"]:not([disabled])', timeout=10_000)  # its cooldown
            button.click()
            page.wait_for_selector("#hint-box:not([hidden])", timeout=30_000)
            box = page.locator("#hint-box")
            assert "Play " in box.inner_text()
            key, end = box.get_attribute("data-hint-tile"), box.get_attribute("data-hint-end")
            assert page.locator(f'#hand [data-tile="{key}"].hand-tile--hinted[data-playable]').count() == 1
            if hints == 0:
                screenshot(page, "fair-play-hint.png")
            hints += 1
            page.click(f'#hand [data-tile="{key}"]')
            ends = page.locator(f'#line [data-end="{end}"]')
            if ends.count():
                ends.click()
            page.wait_for_function("() => document.getElementById('hint-box').hidden", timeout=30_000)
            continue
        tiles = page.locator("#hand [data-tile][data-playable]")
        tiles.nth(rng.randrange(tiles.count())).click()
        ends = page.locator("#line [data-end]")
        if ends.count():
            ends.nth(rng.randrange(ends.count())).click()
    raise AssertionError("the game did not end")


def test_hints_at_the_table_then_the_verified_replay_and_the_review(browser, site_server) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    rng = random.Random(1)
    # Every table is dealt at random: in a rare deal the person never holds a
    # tile to play before the round ends (they pass every turn), and so never
    # sees a hint. Such a game is played out, then another is started.
    for _attempt in range(3):
        page.goto(site_server.url + "/")
        page.select_option("#play-computer-form select[name=preset]", "duel-block")
        page.check('#play-computer-form input[name=target][value="0"]')
        page.check("#play-computer-form input[name=level][value=easy]")
        page.click('[data-action="play-computer"]')
        page.wait_for_url(re.compile(r"/table/\d+/$"))
        table_id = int(re.search(r"/table/(\d+)/", page.url).group(1))
        commitment = page.text_content("#commitment").strip()
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        hints = play_to_the_end(page, rng)
        if hints:
            break
    assert hints >= 1
    # The move log's head, shown live, is the one the published file ends on.
    page.wait_for_function("() => !document.getElementById('chain-head').hidden")
    live_head = page.text_content("#chain-head").strip()
    live_seq = int(page.get_attribute("#chain-head", "data-seq"))

    page.goto(f"{site_server.url}/table/{table_id}/replay/")
    command = page.inner_text("[data-verify-command]")
    public_key = page.request.get(site_server.url + "/fair-play/key.json").json()["public_key"]
    assert page.inner_text("[data-public-key]") == public_key
    assert command == f"python -m games.engine.verify --key {public_key} dominoes-{table_id}-replay.json"
    assert page.inner_text("[data-commitment]") == commitment
    href = page.get_attribute("[data-replay-json]", "href")
    data = page.request.get(site_server.url + href).json()
    report = verify_replay(data, computer=True, key=public_key, heads={live_seq: live_head})
    assert report.chain_head == live_head
    assert report.state.game_over
    assert data["commitment"] == commitment
    page.wait_for_selector("[data-review] [data-review-ready]", timeout=90_000)
    assert page.locator('[data-computer-check="same"]').count() == 1
    assert page.locator("[data-review-seat]").count() + page.locator("[data-review] .muted").count() >= 1
    screenshot(page, "fair-play-review.png")
    assert not errors, errors
    context.close()
