"""The guide's tournaments section shows the arena's scoring as the code
applies it (games/verifier/arena.py, the turn clock), in both languages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games.verifier import arena
from rules_guide import facts
from rules_guide.tests.test_guide_page import get_page


def test_the_worked_series_is_scored_by_the_arena_code() -> None:
    series = facts.arena_series()
    # Win, win, then on fire: a draw doubled, the streak over; two wins rebuild it,
    # the berserk win with enough tiles gets its bonus on top of the double.
    assert [step.points for step in series] == [
        arena.WIN,
        arena.WIN,
        arena.DRAW * 2,
        arena.WIN,
        arena.WIN + arena.BERSERK_BONUS,
        arena.WIN * 2 + arena.BERSERK_BONUS,
        0,
    ]
    assert [step.on_fire for step in series] == [False, False, True, False, False, True, True]
    assert series[-1].total == sum(step.points for step in series)


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ("Tournaments: the arena", "on fire", "Berserk")), ("fr", ("Tournois : l\u2019arène", "en feu", "Berserk"))],
)
def test_the_tournaments_section_is_the_data(client: Client, db, settings, language: str, words) -> None:
    settings.TURN_SECONDS = 40
    from rules_guide.views import guide_body

    guide_body.cache_clear()
    with translation.override(language):  # the request's language does not outlive the test
        _tree, html = get_page(client, language)
    section = html[html.index('id="tournaments"') : html.index('id="strategy"')]
    for word in words:
        assert word in section
    assert f'data-win="{arena.WIN}" data-draw="{arena.DRAW}" data-loss="{arena.LOSS}"' in section
    assert f'data-streak-after="{arena.STREAK_AFTER}" data-win-on-fire="{arena.WIN * 2}"' in section
    assert (
        f'data-percent="{arena.BERSERK_TURN_PERCENT}" data-bonus="{arena.BERSERK_BONUS}" '
        f'data-tiles="{arena.BERSERK_TILES}"'
    ) in section
    # The berserk turn is the clock's: half of 40 seconds.
    assert "20 seconds" in section or "20 secondes" in section
    for step in facts.arena_series():
        assert f'data-step="{step.number}" data-outcome="{step.outcome}" data-points="{step.points}"' in section
    assert 'href="#tournaments"' in html
    guide_body.cache_clear()


@pytest.mark.parametrize(("language", "word"), [("en", "four-player arena"), ("fr", "arène à quatre joueurs")])
def test_the_four_player_arena_is_explained_from_the_scoring_code(client: Client, db, language: str, word: str) -> None:
    from rules_guide.views import guide_body

    guide_body.cache_clear()
    with translation.override(language):
        _tree, html = get_page(client, language)
    section = html[html.index('id="tournaments"') : html.index('id="strategy"')]
    places = " ".join(str(points) for points in arena.PLACE_POINTS)
    first_on_fire = 2 * arena.PLACE_POINTS[0]
    assert (
        f'data-arena="four" data-places="{places}" data-four-draw="{arena.FOUR_DRAW}" '
        f'data-first-on-fire="{first_on_fire}"'
    ) in section
    assert word in section
    assert str(arena.PLACE_POINTS[0]) in section
    guide_body.cache_clear()
