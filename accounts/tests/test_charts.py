"""The series the profile's charts draw (accounts.selectors.rating_histories,
accounts.charts.time_chart) and their place on the profile page: the data as
JSON with one point per rated game, and a text alternative in both languages."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import ratings, selectors, services
from accounts.charts import time_chart
from accounts.models import RatingChange
from games.play import services as game_services
from games.tests.helpers import play_past_the_opening, ranked_table

pytestmark = pytest.mark.django_db


def resigned_ranked_games(alice, bob, count: int) -> None:
    """``count`` ranked duels that alice resigns or wins in turn, each rated."""
    for n in range(count):
        game = play_past_the_opening(ranked_table([alice, bob]))
        game_services.resign(game_id=game.pk, seat=n % 2)
        services.rate_finished_game(game_id=game.pk)


def chart_json(html: str, chart_id: str) -> dict:
    match = re.search(rf'<script id="{chart_id}" type="application/json">(.*?)</script>', html, re.S)
    assert match, f"no {chart_id} in the page"
    return json.loads(match.group(1))


def test_the_rating_history_is_the_rating_after_each_rated_game_oldest_first(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    assert selectors.rating_histories(alice) == []  # no rated game, no chart
    resigned_ranked_games(alice, bob, 3)
    (history,) = selectors.rating_histories(alice)
    assert history.mode.key == "duel-block"
    changes = list(RatingChange.objects.filter(user=alice).order_by("rated_game__rated_at", "pk"))
    expected = [ratings.display_rating(change.mu_after) for change in changes]
    assert [value for _, value in history.points] == expected
    assert history.start == ratings.display_rating(ratings.MU)
    assert history.last == ratings.display_rating(selectors.ratings_of(alice)[0].mu)
    assert history.chart["series"][0]["values"] == expected
    assert len(history.chart["x"]) == 3
    assert history.chart["x"] == sorted(history.chart["x"])
    # Alice resigns the first and the third game, wins the second: down, up, down.
    assert history.start > expected[0] < expected[1] > expected[2]


def test_the_rating_history_keeps_the_newest_games(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    resigned_ranked_games(alice, bob, 3)
    (history,) = selectors.rating_histories(alice, limit=2)
    changes = list(RatingChange.objects.filter(user=alice).order_by("rated_game__rated_at", "pk"))
    assert [value for _, value in history.points] == [ratings.display_rating(c.mu_after) for c in changes[1:]]
    assert history.start == ratings.display_rating(changes[1].mu_before)


def test_a_series_of_another_length_than_its_times_is_refused() -> None:
    with pytest.raises(ValueError, match="2 values for 1 times"):
        time_chart([selectors.timezone.now()], [("x", [1, 2], "line")], y_label="y")


@pytest.mark.parametrize(("language", "caption"), [("en", "over 2 rated games"), ("fr", "en 2 parties classées")])
def test_the_profile_draws_each_played_mode_with_a_text_alternative(make_member, language, caption) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    resigned_ranked_games(alice, bob, 2)
    html = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("accounts:profile", args=["alice"])).content.decode()
    data = chart_json(html, "rating-chart-duel-block")
    assert len(data["series"][0]["values"]) == 2
    assert html.count("data-rating-chart=") == 1  # only the mode played
    assert caption in html
    assert "vendor/uplot/uPlot.iife.min.js" in html
    assert "js/charts.js" in html


@pytest.mark.parametrize(
    ("language", "labels", "caption"),
    [
        ("en", ["Wins", "Draws", "Losses"], "The wins, draws and losses in 1 variant"),
        ("fr", ["Victoires", "Nuls", "Défaites"], "Les victoires, nuls et défaites dans 1 variante"),
    ],
)
def test_the_results_by_variant_are_stacked_bars_beside_their_table(make_member, language, labels, caption) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    resigned_ranked_games(alice, bob, 3)  # alice resigns the first and the third
    (line,) = selectors.results_by_variant(alice, viewer=None)
    assert (line.wins, line.draws, line.losses) == (1, 0, 2)
    html = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("accounts:profile", args=["alice"])).content.decode()
    data = chart_json(html, "results-chart")
    assert data["kind"] == "bars"
    assert data["x"] == [0]
    with translation.override(language):
        (shown,) = selectors.results_by_variant(alice, viewer=None)
    assert data["categories"] == [shown.label]
    assert [series["label"] for series in data["series"]] == labels
    assert [series["values"] for series in data["series"]] == [[1], [0], [2]]
    assert caption in html
    assert 'data-results="1-2-0"' in html  # the table stays, the chart's text alternative


def test_no_results_no_bars(make_member) -> None:
    make_member("alice")
    assert selectors.results_chart([]) is None
    assert "results-chart" not in Client().get(reverse("accounts:profile", args=["alice"])).content.decode()
