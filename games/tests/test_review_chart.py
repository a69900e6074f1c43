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


def decision(seq: int, seat: int, cost: float, best_points: float = 10.0) -> dict:
    """A stored decision: the hard computer's choice (a 6-6 on the left) expects
    ``best_points``, the move played (a pass when it cost something) ``cost`` fewer."""
    best = {"type": "play", "seat": seat, "tile": [6, 6], "end": "left"}
    played = best if cost == 0 else {"type": "pass", "seat": seat}
    options = [{"action": best, "points": best_points, "wins": 0.6}]
    if cost:
        options.append({"action": played, "points": best_points - cost, "wins": 0.4})
    return {
        "seq": seq,
        "seat": seat,
        "round": 1,
        "played": played,
        "best": best,
        "agrees": cost == 0,
        "cost": cost,
        "mistake": cost >= 2.0,
        "options": options,
    }


def test_each_decision_is_a_point_of_its_players_two_lines_and_the_biggest_are_marked() -> None:
    moves = [decision(3, 0, 0.0), decision(4, 2, 1.5, 4.0), decision(7, 0, 6.25, -2.0), decision(9, 2, 2.5)]
    chart = review_page.review_chart(moves, {0: "Ann", 2: "Cy"}, [7])
    assert chart["x"] == [3, 4, 7, 9]
    ann_best, ann_played, cy_best, cy_played, marks = chart["series"]
    # The game's swing: the points expected after the best choice and after the move played.
    assert (ann_best["label"], ann_best["values"]) == ("Ann: the hard computer's choice", [10.0, None, -2.0, None])
    assert (ann_played["label"], ann_played["values"]) == ("Ann: the move played", [10.0, None, -8.25, None])
    assert cy_best["values"] == [None, 4.0, None, 10.0]
    assert cy_played["values"] == [None, 2.5, None, 7.5]
    assert chart["y_label"] == "Expected points of the round"
    # The biggest mistake is marked where the move played left its side.
    assert marks["points"] is True
    assert marks["values"] == [None, None, -8.25, None]
    assert chart["goto"] == [2, 3, 6, 8]  # move n is shown at the replay's step n - 1


def test_a_decision_without_the_options_has_no_point() -> None:
    moves = [{**decision(3, 0, 3.0), "options": []}, decision(5, 0, 0.0)]
    best, played, marks = review_page.review_chart(moves, {0: "Ann"}, [3])["series"]
    assert best["values"] == [None, 10.0]
    assert played["values"] == [None, 10.0]
    assert marks["values"] == [None, None]


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
    assert sum(v is not None for v in chart["series"][1]["values"]) == 3
    assert chart["series"][-1]["values"] == [None, 6.0, None]  # 10 expected, 4 lost
    # The table of every choice holds the two lines' points (the chart's text alternative).
    assert (html.count("<td>+10"), html.count("<td>+6"), html.count("<td>+9")) == (4, 1, 1)
    assert caption in html
    # The biggest mistake's link to its position, as the chart's point leads to it.
    assert f'href="#step-{seqs[1]}" data-goto="{seqs[1] - 1}"' in html
