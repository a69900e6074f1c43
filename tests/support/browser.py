"""What the browser tests share: screen sizes, signing up, creating and joining a
tournament, and reading and doing what the table page offers the player (a tile
to play, draw, pass, the next round)."""

from __future__ import annotations

import random
import re
from typing import Any

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def sign_up(page: Any, base: str, username: str, password: str = "a-long-pass-phrase-42") -> None:
    """Sign up ``username`` through the site's form: logged in after it, its name in
    the page's header."""
    page.goto(base + "/accounts/signup/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="email"]', f"{username}@example.com")
    page.fill('input[name="password1"]', password)
    page.fill('input[name="password2"]', password)
    with page.expect_navigation():
        page.click('form[data-form="signup"] button[type="submit"]')
    assert page.locator("[data-me]").inner_text() == username


def create_and_join_tournament(page: Any, base: str, *, minutes: int, starts_in: int) -> str:
    """The signed-in member creates an arena on /tournaments/ (its default mode)
    starting in ``starts_in`` minutes, and joins it if creating it did not;
    returns the tournament's id, the page on the tournament."""
    page.goto(base + "/tournaments/")
    page.fill('input[name="minutes"]', str(minutes))
    page.fill('input[name="starts_in"]', str(starts_in))
    with page.expect_navigation():
        page.click('form[data-form="tournament"] button[type="submit"]')
    match = re.search(r"/tournaments/(\d+)/", page.url)
    assert match, page.url
    if page.locator("[data-join]").count():
        with page.expect_navigation():
            page.click("[data-join]")
    return match.group(1)


# What the player can do now, as the table page shows it (None: wait).
ACTIONABLE = """() => {
  const table = document.getElementById('table');
  if (!table) return null;
  if (document.querySelector('[data-game-over]')) return 'over';
  if (table.hasAttribute('data-pending')) return null;
  if (document.querySelector('#round-over:not([hidden]) [data-action="next_round"]:not([hidden])')) return 'next';
  if (!table.hasAttribute('data-my-turn')) return null;
  if (document.querySelector('#hand [data-tile][data-playable]')) return 'play';
  for (const kind of ['draw', 'pass']) {
    const button = document.querySelector(`[data-action="${kind}"]`);
    if (button && !button.hidden) return kind;
  }
  return null;
}"""


def act(page: Any, what: str, rng: random.Random) -> int:
    """Do ``what`` (an answer of ACTIONABLE other than "over") by clicking as a
    player would: "next" starts the next round; "play" clicks a random playable
    tile and, when ends glow for it, a random one of them; "draw" and "pass"
    click their button. Returns how many ends glowed (0: the tile went down at
    once, or no tile was played)."""
    if what == "next":
        page.click('#round-over [data-action="next_round"]')
        return 0
    if what == "play":
        tiles = page.locator("#hand [data-tile][data-playable]")
        tiles.nth(rng.randrange(tiles.count())).click()
        ends = page.locator("#line [data-end]")
        glowing = ends.count()
        if glowing:
            ends.nth(rng.randrange(glowing)).click()
        return glowing
    page.click(f'[data-action="{what}"]')
    return 0
