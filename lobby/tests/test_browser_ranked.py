"""Two people on two browsers sign up, find each other in the ranked queue,
play the ranked game to the end, see their new ratings and the replay; a
third person watches. The real site (Daphne, embedded mode) in headless
Chromium."""

from __future__ import annotations

import random
import re
import time

import pytest

from tests.support.browser import ACTIONABLE, DESKTOP, PHONE, act, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def queue_both_and_meet(pages, base: str) -> str:
    """Both queue for a block duel and are sent to the same table: its id."""
    for page in pages:
        page.goto(base + "/ranked/")
        page.wait_for_function("document.querySelector('[data-online]').textContent.trim() !== '\u2013'")
    pages[0].click('[data-queue="duel-block"]')
    pages[0].wait_for_selector('[data-mode="duel-block"][data-queued]')
    pages[0].wait_for_function("document.querySelector('[data-lobby]').dataset.state === 'searching'")
    pages[1].wait_for_function(
        "document.querySelector('[data-searching-mode=\"duel-block\"]').textContent.trim() === '1'"
    )
    pages[1].click('[data-queue="duel-block"]')
    # A guard, not a timing: the site's tick matches them (15 s ran out once on a loaded machine).
    for page in pages:
        page.wait_for_url(re.compile(r"/table/\d+/$"), timeout=45_000)
    table_ids = {re.search(r"/table/(\d+)/", page.url).group(1) for page in pages}
    assert len(table_ids) == 1
    return table_ids.pop()


def over_at_the_deal(page) -> bool:
    """Whether the table's game, once drawn, is already over (the table's socket
    brings the first state: 30 s for a loaded machine)."""
    page.wait_for_selector("#line [data-line-tile]", state="attached", timeout=30_000)
    return page.locator("[data-game-over]").count() > 0


def step(page, rng: random.Random) -> str | None:
    """Do what the page offers now, if anything; returns what it offered."""
    what = page.evaluate(ACTIONABLE)
    if what in ("next", "play", "draw", "pass"):
        act(page, what, rng)
    return what


def test_sign_up_queue_match_play_rate_replay_and_watch(new_context, site_server) -> None:
    base = site_server.url
    rng = random.Random(6)
    names = [f"ranked{int(time.time() * 1000) % 10**8}{suffix}" for suffix in ("a", "b")]
    contexts = [
        new_context(locale="en-GB", viewport=PHONE),
        new_context(locale="fr-FR", viewport=DESKTOP),
    ]
    watcher_context = new_context(locale="en-GB", viewport=DESKTOP)
    pages = [context.new_page() for context in contexts]
    for page, name in zip(pages, names, strict=True):
        sign_up(page, base, name)

    # Both queue for a block duel; the lobby socket sends each to the table.
    # About one block duel in 200 is over at the deal (nobody can follow the
    # opening): then both queue again, as people would.
    for games in range(1, 4):
        table_id = queue_both_and_meet(pages, base)
        if not over_at_the_deal(pages[0]):
            break
    else:
        raise AssertionError("three block duels over at the deal")

    # A third person (a guest) finds the game on the live page and watches.
    watcher = watcher_context.new_page()
    # The live page is drawn once: like a person, reload it until the game shows
    # (on a loaded machine the first load can come before the table's first state).
    for _attempt in range(10):
        watcher.goto(base + "/live/")
        if watcher.locator(f'[data-live-table="{table_id}"] a').count():
            break
        watcher.wait_for_timeout(1000)
    watcher.click(f'[data-live-table="{table_id}"] a')
    watcher.wait_for_url(re.compile(rf"/table/{table_id}/$"))
    watcher.wait_for_selector("#line", state="attached")
    assert watcher.locator("#hand [data-tile]").count() == 0

    # The two play the game to the end by clicking.
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        done = [step(page, rng) for page in pages]
        if all(what == "over" for what in done):
            break
        if not any(done):
            time.sleep(0.1)
    else:
        raise AssertionError("the ranked game did not end")
    # The watcher's socket may bring the end after the players' (a loaded machine).
    watcher.wait_for_selector("[data-game-over]", timeout=30_000)
    assert watcher.locator("#hand [data-tile]").count() == 0
    assert watcher.locator("[data-back-to-queue], [data-rematch]").count() == 0

    # The panel shows each player's new rating and its change (the ratings frame,
    # sent once the game is rated after its end: 60 s for a loaded machine).
    for page in pages:
        page.wait_for_selector("[data-rating-change] [data-rating-delta]", timeout=60_000)
        mine = page.locator("[data-rating-change] li.is-me")
        assert mine.count() == 1
        assert re.search(r"\d{3,4}\?? \((\+|\u2212)\d+\)|\d{3,4}\?? \(\u00b10\)", mine.inner_text()), mine.inner_text()

    # "Back to the queue" (not the computer's form) joins the same mode's queue in one tap.
    table_url = pages[1].url
    with pages[1].expect_navigation():
        pages[1].click("[data-back-to-queue]")
    pages[1].wait_for_selector('[data-mode="duel-block"][data-queued]')
    assert pages[1].url == base + "/ranked/"
    pages[1].click('[data-mode="duel-block"] [data-leave]')
    pages[1].wait_for_function("document.querySelector('[data-lobby]').dataset.state === 'idle'")

    # Rematch: one asks, the other sees the offer and accepts; both go to the new table.
    pages[1].goto(table_url)
    pages[1].wait_for_selector("[data-game-over]")
    pages[0].click("[data-rematch]")
    status = pages[0].locator("[data-rematch-status]")
    status.wait_for()
    assert names[1] in status.inner_text()
    assert pages[0].locator("[data-rematch]").is_disabled()
    pages[1].wait_for_function("document.querySelector('[data-rematch]').textContent === 'Accepter la revanche'")
    assert names[0] in pages[1].locator("[data-rematch-status]").inner_text()
    pages[1].click("[data-rematch]")
    rematch_ids = set()
    for page in pages:
        page.wait_for_url(lambda url: re.search(r"/table/(\d+)/$", url) and f"/table/{table_id}/" not in url)
        rematch_ids.add(re.search(r"/table/(\d+)/$", page.url).group(1))
        page.wait_for_selector("#line [data-line-tile]")
    assert len(rematch_ids) == 1
    watcher.locator("[data-watch-rematch]").wait_for()
    assert watcher.locator("[data-watch-rematch]").get_attribute("href") == f"/table/{rematch_ids.pop()}/"

    # New ratings on the profiles, and the replay of the game.
    shown = []
    for page, name in zip(pages, names, strict=True):
        for _ in range(50):
            page.goto(f"{base}/u/{name}/")
            if page.locator(f'tr[data-table="{table_id}"]').count():
                break
            time.sleep(0.2)
        assert page.locator(f'tr[data-table="{table_id}"]').count() == 1
        card = page.locator('[data-mode="duel-block"]')
        assert re.search(rf"\b{games} (games?|parties?)\b", card.inner_text())
        rating = card.locator("[data-rating]")
        assert rating.get_attribute("data-provisional") is not None  # one game (or two, three): still "?"
        shown.append(int(rating.get_attribute("data-rating")))
    # Two newcomers: what one gains the other loses (both 1500 after a draw).
    assert abs(sum(shown) - 3000) <= games
    pages[0].click(f'tr[data-table="{table_id}"] a[href$="/replay/"]')
    pages[0].wait_for_url(re.compile(rf"/table/{table_id}/replay/$"))
    total = int(pages[0].locator("[data-replay-index]").inner_text())
    assert total >= 2
    pages[0].click('[data-step="first"]')
    assert pages[0].locator("[data-replay-index]").inner_text() == "1"
    hands = pages[0].locator("[data-replay-seat] .tiles [data-tile]").count()
    line = pages[0].locator("[data-replay-line] [data-tile]").count()
    assert (hands, line) == (13, 1)  # both hands shown; the opening tile is laid at the deal
    # The line is drawn as at the table: on the felt, laid out, inside the board's width.
    board = pages[0].locator("[data-replay-board]").bounding_box()
    tile = pages[0].locator("[data-replay-board] [data-replay-tile]").first.bounding_box()
    assert board["x"] <= tile["x"]
    assert tile["x"] + tile["width"] <= board["x"] + board["width"]
    pages[0].click('[data-step="next"]')
    assert pages[0].locator("[data-replay-index]").inner_text() == "2"
