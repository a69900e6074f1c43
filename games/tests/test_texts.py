"""Words and numbers as a reader sees them, in English and in French."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.coach.wording import points_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("language", "points", "text"),
    [("en", 26.1, "+26.1"), ("fr", 26.1, "+26,1"), ("fr", -3.84, "-3,8"), ("en", -0.04, "+0.0"), ("fr", 0, "+0,0")],
)
def test_expected_points_are_written_in_the_language(language: str, points: float, text: str) -> None:
    with translation.override(language):
        assert points_text(points) == text


@pytest.mark.parametrize(
    ("language", "agreed", "text"),
    [
        ("en", 1, "the same choice as the hard computer 1 time out of 6"),
        ("en", 4, "the same choice as the hard computer 4 times out of 6"),
        ("fr", 1, "le même choix que l\u2019ordinateur difficile 1 fois sur 6"),
        ("fr", 4, "le même choix que l\u2019ordinateur difficile 4 fois sur 6"),
    ],
)
def test_the_review_counts_agreements_in_good_grammar(language: str, agreed: int, text: str) -> None:
    row = {"seat": 0, "name": "Ann", "agreed": agreed, "decisions": 6, "mistakes": 0}
    with translation.override(language):
        html = render_to_string("games/_review.html", {"review_ready": True, "summary": [row]})
    assert text in " ".join(html.split())


def french_texts() -> list[tuple[str, str]]:
    texts = []
    for po in ROOT.glob("**/locale/fr/LC_MESSAGES/*.po"):
        if ".venv" in po.parts:
            continue
        for number, line in enumerate(po.read_text(encoding="utf-8").splitlines(), start=1):
            if line.startswith(("msgstr", '"')):
                texts.append((f"{po.relative_to(ROOT)}:{number}", line))
    return texts


def test_one_french_word_for_a_tile_everywhere() -> None:
    """The guide says "domino": so do the table, the review and the hints."""
    tuile = [where for where, line in french_texts() if "tuile" in line.lower()]
    assert tuile == []


@pytest.mark.django_db
def test_the_guide_heading_names_the_computer_opponents_in_french(client) -> None:
    html = client.get("/rules/", headers={"cookie": "django_language=fr"}).content.decode()
    assert "L\u2019ordinateur comme adversaire" in html
    assert "adversaires de l\u2019ordinateur" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/rules/", "/live/", "/accounts/login/"])
def test_every_page_names_an_icon_that_is_served(client, path: str) -> None:
    import re

    html = client.get(path).content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert icon, path
    assert icon[1].endswith(".svg")
    redirect = client.get("/favicon.ico")
    assert redirect.status_code == 301
    assert redirect["Location"] == icon[1]
    # Asked with HEAD (crawlers, link checkers): the same answer, not 405.
    head = client.head("/favicon.ico")
    assert head.status_code == 301
    assert head["Location"] == icon[1]
    assert client.post("/favicon.ico").status_code == 405
