"""A puzzle solved in headless Chromium on a phone's screen: a wrong play is
refused with the winning line and why each play loses, the right one is
accepted (the site's own server, puzzles made by its command)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
import uuid

import pytest

from tests.support.site import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def _tap(page, tile: list[int], end: str) -> None:
    page.tap(f'[data-hand] button[data-tile="{tile[0]}-{tile[1]}"]')
    choice = page.locator("[data-end-choice]")
    if choice.is_visible():
        page.tap(f'[data-end-choice] button[data-end="{end}"]')


def test_a_wrong_play_is_refused_and_the_right_one_accepted(new_context, site_server) -> None:
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "make_puzzles",
            "--self-play",
            "6",
            "--seed",
            f"browser-{uuid.uuid4().hex}",
        ],
        cwd=ROOT,
        env=site_server.env,
        check=True,
        capture_output=True,
    )
    rows = _get(site_server.url + "/puzzles/export.csv").decode().splitlines()[1:]
    assert rows, "the command made no puzzle"
    puzzles = [json.loads(_get(f"{site_server.url}/puzzles/{row.split(',')[0]}.json")) for row in rows]
    puzzle = next(p for p in puzzles if any(a["result"] != "win" for a in p["alternatives"]))
    solution = puzzle["solution"]
    wrong = next(a for a in puzzle["alternatives"] if a["result"] != "win")
    url = f"{site_server.url}/puzzles/{puzzle['id']}/"

    page = new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    assert page.get_attribute("[data-puzzle]", "data-puzzle") == str(puzzle["id"])
    _tap(page, wrong["tile"], wrong["ends"][0])
    page.wait_for_selector('[data-verdict][data-correct="false"]')
    low, high = solution["tile"]
    assert f"{low}-{high}" in page.text_content("[data-verdict]")
    assert page.locator("[data-solution] li").count() == len(puzzle["line"])
    assert page.locator("[data-alternatives] li").count() == len(puzzle["alternatives"])
    assert page.locator('[data-alternatives] li[data-result="win"]').count() == 1

    page = new_context(**PHONE).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    _tap(page, solution["tile"], solution["end"])
    page.wait_for_selector('[data-verdict][data-correct="true"]')
    assert page.get_attribute("[data-puzzle]", "data-answered") == "correct"

    # An inference puzzle: choose the tiles the opponent can hold, then check.
    question = next((p for p in puzzles if p["kind"] == "infer"), None)
    assert question is not None, "six games gave no inference puzzle"
    page = new_context(**PHONE).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site_server.url}/puzzles/{question['id']}/")
    assert page.locator("button[data-pick]").count() == len(question["unseen"])
    for low, high in question["solution"]["tiles"]:
        page.tap(f'button[data-pick="{low}-{high}"]')
    page.tap("button[data-infer-submit]")
    page.wait_for_selector('[data-verdict][data-correct="true"]')
    assert page.locator("[data-alternatives] li[data-best]").count() == len(question["solution"]["tiles"])
    assert errors == []
