"""The charts (static/js/charts.js over the vendored uPlot, docs/charts.md) in
headless Chromium, on a phone in French and a desktop in English: the profile's
ratings, chips, level, puzzle rating and results by variant (stacked bars),
and the replay's review, each drawn
with as many points as its data (the JSON in the page) and the database hold,
each with its text alternative, no serious accessibility violation; a chosen
point of the review opens its position on the replay, as its mistake's link does."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid

import pytest

from tests.support.accessibility import serious_violations
from tests.support.browser import DESKTOP, PHONE
from tests.support.site import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Run against the site's own database: a member with three rated duels (the
# first played out, with a review of three of its moves stored), two chip
# entries beside the welcome chips, and two rated puzzle answers.
SETUP = """
import json, django
django.setup()
from django.conf import settings
settings.GAMES_DISPATCH = "queue"  # no real review computed behind the stored one (games.jobs)
from django.contrib.auth import get_user_model
from django.core.management import call_command
from accounts import services as account_services
from games.models import GameReview, Move
from games.play import services as game_services
from games.tests.helpers import play_out, play_past_the_opening, ranked_table
from lobby import chips
from lobby.models import ChipEntry
from puzzles import services as puzzle_services
from puzzles.models import Puzzle

User = get_user_model()
name = {name!r}
alice = User.objects.create_user(username=name, password="a-long-pass-phrase-42")
bob = User.objects.create_user(username=name + "b", password="a-long-pass-phrase-42")
# The first game with three tiles laid past the opening: the decisions the stored
# review is of (a random deal may block sooner; such a game is left unrated).
for _attempt in range(20):
    first = play_out(ranked_table([alice, bob]), seed=7)
    plays = list(Move.objects.filter(game=first, kind="play").order_by("seq").values_list("seq", "seat")[:3])
    if len(plays) == 3:
        break
assert len(plays) == 3, plays
account_services.rate_finished_game(game_id=first.pk)
for n in range(2):
    game = play_past_the_opening(ranked_table([alice, bob]))
    game_services.resign(game_id=game.pk, seat=n)
    account_services.rate_finished_game(game_id=game.pk)
seqs = [seq for seq, _seat in plays]
def decision(seq, seat, cost):
    best = {{"type": "play", "seat": seat, "tile": [6, 6], "end": "left"}}
    played = {{"type": "pass", "seat": seat}}
    return {{"seq": seq, "seat": seat, "round": 1, "played": played, "best": best, "agrees": cost == 0,
            "cost": cost, "mistake": cost >= 2,
            "options": [{{"action": best, "points": 8.0, "wins": 0.6}}, {{"action": played, "points": 8.0 - cost, "wins": 0.4}}]}}
# Each decision is two points of the chart: the points expected after the best choice and after the move played.
moves = [decision(seq, seat, cost) for (seq, seat), cost in zip(plays, (0.0, 5.5, 1.0))]
GameReview.objects.update_or_create(game=first, defaults={{
    "status": GameReview.Status.READY, "data": {{"moves": moves, "biggest": [seqs[1]], "summary": {{}}}}}})
for amount, xp in ((40, 30), (-15, 30)):
    chips.post(user_id=alice.pk, amount=amount, xp=xp, reason=ChipEntry.Reason.ADMIN, note="test")
call_command("make_puzzles", "--self-play", "6", "--seed", name, verbosity=0)
answered = 0
for puzzle in Puzzle.objects.exclude(kind=Puzzle.Kind.INFER).order_by("pk")[:2]:
    low, high = puzzle.solution_tile
    puzzle_services.answer(puzzle, user=alice, session_key="", tile=f"{{low}}-{{high}}", end=puzzle.solution_ends[0])
    answered += 1
print(json.dumps({{"table": first.table_id, "mistake": seqs[1], "puzzles": answered,
                  "entries": ChipEntry.objects.filter(user=alice).count()}}))
"""

SCREENS = [({"viewport": PHONE, "is_mobile": True, "has_touch": True, "locale": "fr-FR"}, "fr"),
           ({"viewport": DESKTOP, "locale": "en-GB"}, "en")]

CAPTIONS = {
    "en": {"rating": "over 3 rated games", "chips": "now (3 entries)", "review": "each of 3 choices",
           "results": "The wins, draws and losses in 1 variant"},
    "fr": {"rating": "en 3 parties classées", "chips": "maintenant (3 opérations)", "review": "chacun des 3 choix",
           "results": "Les victoires, nuls et défaites dans 1 variante"},
}


@pytest.fixture(scope="module")
def member(site_server) -> dict:
    name = f"charts{uuid.uuid4().hex[:8]}"
    run = subprocess.run(
        [sys.executable, "-c", SETUP.format(name=name)],
        cwd=ROOT, env=site_server.env, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    return {"name": name, **json.loads(run.stdout.strip().splitlines()[-1])}


def drawn(page, selector: str) -> dict:
    """What the chart ``selector`` drew (read back from uPlot) and what its JSON holds."""
    figure = page.locator(selector)
    figure.and_(page.locator("[data-chart-drawn]")).wait_for()
    data = json.loads(page.text_content(f"script#{figure.get_attribute('data-chart')}"))
    box = page.locator(f"{selector} canvas").bounding_box()
    return {
        "points": int(figure.get_attribute("data-chart-points")),
        "marks": int(figure.get_attribute("data-chart-marks")),
        "in_json": sum(v is not None for s in data["series"] if not s.get("points") for v in s["values"]),
        "canvas": bool(box and box["width"] > 200 and box["height"] > 100),
        "caption": figure.locator("figcaption").text_content(),
    }


@pytest.mark.parametrize(("options", "language"), SCREENS)
def test_the_profile_draws_every_chart_with_its_points(new_context, site_server, member, options, language) -> None:
    page = new_context(**options).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site_server.url}/u/{member['name']}/")
    rating = drawn(page, '[data-rating-chart="duel-block"]')
    chips = drawn(page, "[data-chips-chart]")
    level = drawn(page, "[data-level-chart]")
    puzzles = drawn(page, "[data-puzzle-rating-chart]")
    # The results by variant: one bar (duels) of wins, draws and losses stacked.
    results = drawn(page, "[data-results-chart]")
    assert (rating["points"], rating["in_json"]) == (3, 3)
    assert (chips["points"], chips["in_json"]) == (member["entries"], member["entries"]) == (3, 3)
    assert level["points"] == 3
    assert puzzles["points"] == puzzles["in_json"] == member["puzzles"] == 2
    assert results["points"] == results["in_json"] == 3
    assert all(chart["canvas"] for chart in (rating, chips, level, puzzles, results))
    assert CAPTIONS[language]["results"] in results["caption"]
    assert CAPTIONS[language]["rating"] in rating["caption"]
    assert CAPTIONS[language]["chips"] in chips["caption"]
    if options["viewport"] == PHONE:  # nothing wider than the phone's screen
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_violations(page) == []
    assert errors == []


@pytest.mark.parametrize(("options", "language"), SCREENS)
def test_the_review_chart_marks_the_mistake_and_opens_its_position(new_context, site_server, member, options, language) -> None:
    page = new_context(**options).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site_server.url}/table/{member['table']}/replay/")
    review = drawn(page, "[data-review-chart]")
    assert (review["points"], review["in_json"], review["marks"]) == (6, 6, 1)
    assert review["canvas"]
    assert CAPTIONS[language]["review"] in review["caption"]
    # The mistake's link opens its position: the chart's marked point does the same.
    page.click(f'[data-mistake-jump="{member["mistake"]}"]')
    by_link = page.text_content("[data-replay-index]")
    page.click('[data-step="first"]')
    assert page.text_content("[data-replay-index]") != by_link
    data = json.loads(page.text_content("script#review-chart"))
    over = page.locator("[data-review-chart] .u-over")
    over.scroll_into_view_if_needed()
    box = over.bounding_box()
    low, high = data["x"][0], data["x"][-1]
    x = box["x"] + box["width"] * (member["mistake"] - low) / (high - low)
    page.mouse.move(x, box["y"] + box["height"] / 2)
    page.mouse.click(x, box["y"] + box["height"] / 2)
    assert page.text_content("[data-replay-index]") == by_link
    assert serious_violations(page) == []
    assert errors == []
