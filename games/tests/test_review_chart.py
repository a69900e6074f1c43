"""The review as a chart (games.coach.review_page.review_chart): one point per
decision of a player, the biggest mistakes marked, each point leading to its
replay step; on the replay page's review with its text alternative, in both
languages."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games.coach import review_page
from games.models import GameReview, Move
from games.tests.test_fairness import new_session_key
from games.tests.test_review import finished_computer_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def decision(seq: int, seat: int, cost: float) -> dict:
    return {
        "seq": seq,
        "seat": seat,
        "round": 1,
        "played": {"type": "pass"},
        "best": {"type": "pass"},
        "agrees": cost == 0,
        "cost": cost,
        "mistake": cost >= 2.0,
        "options": [],
    }


def test_each_decision_is_a_point_of_its_players_line_and_the_biggest_are_marked() -> None:
    moves = [decision(3, 0, 0.0), decision(4, 2, 1.5), decision(7, 0, 6.25), decision(9, 2, 2.5)]
    chart = review_page.review_chart(moves, {0: "Ann", 2: "Cy"}, [7])
    assert chart["x"] == [3, 4, 7, 9]
    ann, cy, marks = chart["series"]
    assert (ann["label"], ann["values"]) == ("Ann", [0.0, None, 6.25, None])
    assert (cy["label"], cy["values"]) == ("Cy", [None, 1.5, None, 2.5])
    assert marks["points"] is True
    assert marks["values"] == [None, None, 6.25, None]
    assert chart["goto"] == [2, 3, 6, 8]  # move n is shown at the replay's step n - 1


def review_fragment(game, key: str, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["sessionid"] = key
    return client.get(f"/table/{game.table_id}/review/").content.decode()


@pytest.mark.parametrize(
    ("language", "caption"), [("en", "at each of 3 choices of the players"), ("fr", "à chacun des 3 choix des joueurs")]
)
def test_the_review_fragment_holds_the_chart_data_and_its_text_alternative(language, caption) -> None:
    key = new_session_key()
    game = finished_computer_game(seed=4, key=key)
    seqs = list(Move.objects.filter(game=game, seat=0).order_by("seq").values_list("seq", flat=True)[:3])
    moves = [decision(seqs[0], 0, 0.0), decision(seqs[1], 0, 4.0), decision(seqs[2], 0, 1.0)]
    GameReview.objects.update_or_create(
        game=game,
        defaults={"status": GameReview.Status.READY, "data": {"moves": moves, "biggest": [seqs[1]], "summary": {}}},
    )
    html = review_fragment(game, key, language)
    match = re.search(r'<script id="review-chart" type="application/json">(.*?)</script>', html, re.S)
    assert match
    chart = json.loads(match.group(1))
    assert chart["x"] == seqs
    assert sum(v is not None for v in chart["series"][0]["values"]) == 3
    assert chart["series"][-1]["values"] == [None, 4.0, None]
    assert caption in html
    # The biggest mistake's link to its position, as the chart's point leads to it.
    assert f'href="#step-{seqs[1]}" data-goto="{seqs[1] - 1}"' in html
