"""Puzzles solved in headless Chromium, on a phone in French and a desktop in
English (the site's own server, puzzles made by its command): a guest goes
from the home page's card to the puzzle of the day and solves it; a wrong
play is refused with the winning line and why each play loses, the right one
is accepted; an inference puzzle is answered by choosing tiles; no serious
accessibility violation on any of these pages."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
import uuid

import pytest

from tests.support.accessibility import serious_violations
from tests.support.browser import DESKTOP, PHONE
from tests.support.site import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCREENS = [({"viewport": PHONE, "is_mobile": True, "has_touch": True, "locale": "fr-FR"}, "fr"),
           ({"viewport": DESKTOP, "locale": "en-GB"}, "en")]
VERDICT = {"fr": ("Exact", "Pas celui-ci"), "en": ("Right", "Not this one")}

# Against the site's own database: puzzles from six computer duels, made
# "before today" so that one of them is the puzzle of the day.
SETUP = """
import datetime as dt, django
django.setup()
from django.core.management import call_command
from django.utils import timezone
from puzzles.models import Puzzle
call_command("make_puzzles", "--self-play", "6", "--seed", {seed!r}, verbosity=0)
Puzzle.objects.update(created_at=timezone.now() - dt.timedelta(days=2))
"""


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def _press(page, selector: str, touch: bool) -> None:
    if touch:
        page.tap(selector)
    else:
        page.click(selector)


def _play(page, tile: list[int], end: str, touch: bool) -> None:
    _press(page, f'[data-hand] button[data-tile="{tile[0]}-{tile[1]}"]', touch)
    choice = page.locator("[data-end-choice]")
    if choice.is_visible():
        _press(page, f'[data-end-choice] button[data-end="{end}"]', touch)


def _solve(page, puzzle: dict, touch: bool) -> None:
    """Give the right answer to ``puzzle`` (either family) on its page."""
    if puzzle["kind"] == "infer":
        for low, high in puzzle["solution"]["tiles"]:
            _press(page, f'button[data-pick="{low}-{high}"]', touch)
        _press(page, "button[data-infer-submit]", touch)
    else:
        _play(page, puzzle["solution"]["tile"], puzzle["solution"]["end"], touch)
    page.wait_for_selector('[data-verdict][data-correct="true"]')


def _checked(page, options: dict, language: str) -> None:
    """The page in the screen's language, no wider than a phone, no serious violation."""
    assert page.get_attribute("html", "lang") == language
    if options["viewport"] == PHONE:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_violations(page) == []


@pytest.fixture(scope="module")
def puzzles(site_server) -> list[dict]:
    subprocess.run(
        [sys.executable, "-c", SETUP.format(seed=f"browser-{uuid.uuid4().hex}")],
        cwd=ROOT, env=site_server.env, check=True, capture_output=True,
    )
    rows = _get(site_server.url + "/puzzles/export.csv").decode().splitlines()[1:]
    assert rows, "the command made no puzzle"
    return [json.loads(_get(f"{site_server.url}/puzzles/{row.split(',')[0]}.json")) for row in rows]


@pytest.mark.parametrize(("options", "language"), SCREENS)
def test_a_guest_solves_the_puzzle_of_the_day_from_the_home_page(
    new_context, site_server, puzzles, options, language
) -> None:
    touch = bool(options.get("has_touch"))
    page = new_context(**options).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site_server.url + "/")
    card = page.locator("[data-daily-puzzle]")
    daily = card.get_attribute("data-daily-puzzle")
    _checked(page, options, language)
    _press(page, '[data-daily-puzzle] a[href="/puzzles/daily/"]', touch)
    page.wait_for_url("**/puzzles/daily/")
    assert page.get_attribute("[data-puzzle]", "data-puzzle") == daily
    puzzle = json.loads(_get(f"{site_server.url}/puzzles/{daily}.json"))
    _solve(page, puzzle, touch)
    assert page.text_content("[data-verdict]").startswith(VERDICT[language][0])
    _checked(page, options, language)
    assert errors == []


@pytest.mark.parametrize(("options", "language"), SCREENS)
def test_a_wrong_play_is_refused_and_the_right_one_accepted(new_context, site_server, puzzles, options, language) -> None:
    touch = bool(options.get("has_touch"))
    puzzle = next(p for p in puzzles if any(a["result"] != "win" for a in p["alternatives"]))
    solution = puzzle["solution"]
    wrong = next(a for a in puzzle["alternatives"] if a["result"] != "win")
    url = f"{site_server.url}/puzzles/{puzzle['id']}/"

    page = new_context(**options).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    assert page.get_attribute("[data-puzzle]", "data-puzzle") == str(puzzle["id"])
    _play(page, wrong["tile"], wrong["ends"][0], touch)
    page.wait_for_selector('[data-verdict][data-correct="false"]')
    assert page.text_content("[data-verdict]").startswith(VERDICT[language][1])
    low, high = solution["tile"]
    assert f"{low}-{high}" in page.text_content("[data-verdict]")
    assert page.locator("[data-solution] li").count() == len(puzzle["line"])
    assert page.locator("[data-alternatives] li").count() == len(puzzle["alternatives"])
    assert page.locator('[data-alternatives] li[data-result="win"]').count() == 1
    _checked(page, options, language)

    page = new_context(**options).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    _solve(page, puzzle, touch)
    assert page.get_attribute("[data-puzzle]", "data-answered") == "correct"

    # An inference puzzle: choose the tiles the opponent can hold, then check.
    question = next((p for p in puzzles if p["kind"] == "infer"), None)
    assert question is not None, "six games gave no inference puzzle"
    page = new_context(**options).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site_server.url}/puzzles/{question['id']}/")
    assert page.locator("button[data-pick]").count() == len(question["unseen"])
    _solve(page, question, touch)
    assert page.locator("[data-alternatives] li[data-best]").count() == len(question["solution"]["tiles"])
    _checked(page, options, language)
    assert errors == []
