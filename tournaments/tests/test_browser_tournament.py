"""Two members create and join an arena on two browsers, are sent to their
table, play it to the end; a guest watching the tournament page sees the
standings move from the page's socket alone (the fragment the page polls
while its socket is down is blocked for it). The real site (Daphne, embedded
mode) in headless Chromium."""

from __future__ import annotations

import random
import re
import time

import pytest

from tests.support.browser import ACTIONABLE, DESKTOP, PHONE, act, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TOTAL = "() => [...document.querySelectorAll('[data-standing]')].reduce((sum, row) => sum + Number(row.dataset.score), 0)"


def step(page, rng: random.Random) -> str | None:
    what = page.evaluate(ACTIONABLE)
    if what in ("next", "play", "draw", "pass"):
        act(page, what, rng)
    return what


def test_the_standings_move_on_the_page_as_the_game_ends(new_context, site_server) -> None:
    base = site_server.url
    rng = random.Random(4)
    stamp = int(time.time() * 1000) % 10**8
    names = [f"arena{stamp}{suffix}" for suffix in ("a", "b")]
    pages = [
        new_context(locale="en-GB", viewport=PHONE).new_page(),
        new_context(locale="fr-FR", viewport=DESKTOP).new_page(),
    ]
    for page, name in zip(pages, names, strict=True):
        sign_up(page, base, name)

    # The first creates an unrated arena starting at the next tick and joins; the second joins.
    pages[0].goto(base + "/tournaments/new/")
    pages[0].select_option('select[name="mode"]', "duel-block")
    pages[0].fill('input[name="minutes"]', "20")
    pages[0].fill('input[name="starts_in"]', "0")
    # Unrated: its tables are private tables, resent all the same (below).
    pages[0].uncheck('input[name="rated"]')
    with pages[0].expect_navigation():
        pages[0].click('form[data-form="tournament"] button[type="submit"]')
    match = re.search(r"/tournaments/(\d+)/$", pages[0].url)
    assert match, pages[0].url
    tournament_url = pages[0].url
    # Nothing waits on a joined page: the tick may start the arena and pair the
    # two the moment the second joins, and the page then leaves for the table
    # by itself (the watcher below counts both players in the standings).
    # The first is on the tournament page already: no goto there, as that page
    # (not started, its countdown at 0) reloads itself a few seconds after it loads.
    for page in pages:
        if page.url != tournament_url:
            page.goto(tournament_url)
        with page.expect_navigation():
            page.click("[data-join]")

    # A guest watches the tournament page; its fallback poll is blocked, so
    # whatever it shows after this comes from the standings frame. The page
    # reloads itself once when the tournament starts (the countdown): the
    # watch begins after that.
    watcher = new_context(locale="fr-FR", viewport=DESKTOP).new_page()
    polled = []
    watcher.route("**/standings/", lambda route: (polled.append(route.request.url), route.abort()))
    watcher.goto(tournament_url)
    assert watcher.locator("[data-standing]").count() == 2
    assert "Classement" in watcher.locator("[data-standings] h2").inner_text()
    watcher.wait_for_selector('[data-tournament-page][data-status="started"]', timeout=60_000)
    watcher.evaluate("window.__watching = true")
    before = watcher.evaluate(TOTAL)

    # The tick paired the two: the tournament page each player has stayed on
    # sends them to their table by itself (a matched frame with the tournament;
    # the lobby socket resends it on connect after the page's reload at the
    # start: docs/tournaments.md). Nothing here navigates: a goto or a click on
    # the page's link would race that navigation (a goto was aborted by it in CI).
    table_ids = set()
    for page in pages:
        page.wait_for_url(re.compile(r"/table/\d+/$"), timeout=60_000)
        table_ids.add(re.search(r"/table/(\d+)/$", page.url).group(1))
    assert len(table_ids) == 1

    # They play to the end (a deal over at its opening ends at once: scored all the same).
    # A page seen over is left alone: the arena pairs the two again and the page
    # leaves for the next table by itself (3 s after the matched frame).
    done: list[str | None] = [None] * len(pages)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        done = [what if what == "over" else step(page, rng) for page, what in zip(pages, done, strict=True)]
        if all(what == "over" for what in done):
            break
        if not any(done):
            time.sleep(0.1)
    else:
        raise AssertionError("the tournament game did not end")

    # The watcher's standings moved without a reload and without the poll:
    # a finished duel adds two points (a win 2, a draw 1 each).
    watcher.wait_for_function(f"({TOTAL})() > {before}", timeout=30_000)
    assert watcher.evaluate("window.__watching") is True
    assert polled == []
    rows = watcher.locator("[data-standing]")
    assert rows.count() == 2
    assert {rows.nth(index).get_attribute("data-player") for index in range(2)} == set(names)
    assert [rows.nth(index).get_attribute("data-rank") for index in range(2)] == ["1", "2"]

    # A player's own page shows their rank from the same frame. The arena pairs
    # the two again at once and their pages follow to the new table by
    # themselves, so the check opens a page of its own (no goto racing that
    # navigation) that stays put: a table answers it 204 No Content, which
    # leaves the page where it is (an aborted request would show an error page).
    own = pages[0].context.new_page()
    own.route("**/table/**", lambda route: route.fulfill(status=204))
    own.goto(tournament_url)
    own.wait_for_selector("[data-my-rank]")
    assert own.locator("[data-standing].mine").count() == 1
