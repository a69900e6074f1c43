"""The guide's duplicate matchpoints come from games/verifier/duplicate.py, in both languages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games.verifier import duplicate
from rules_guide import facts
from rules_guide.tests.test_guide_page import get_page


def test_the_worked_round_is_scored_by_the_duplicate_code() -> None:
    example = facts.duplicate_example()
    # A win by 30 beats the three others; the two wins by 12 tie each other and beat the loss.
    top = duplicate.BEATEN * 3
    assert [row.matchpoints for row in example] == [top, duplicate.BEATEN + duplicate.TIED, duplicate.BEATEN + duplicate.TIED, 0]
    assert [row.percent for row in example] == ["100.00", "50.00", "50.00", "0.00"]


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ("Duplicate tournaments", "matchpoints", "medium level")), ("fr", ("Les tournois en duplicate", "points de match", "niveau moyen"))],
)
def test_the_duplicate_rules_are_the_data(client: Client, db, language: str, words) -> None:
    from rules_guide.views import guide_body

    guide_body.cache_clear()
    with translation.override(language):  # the request's language does not outlive the test
        _tree, html = get_page(client, language)
    section = html[html.index('id="tournaments"') : html.index('id="strategy"')]
    for word in words:
        assert word in section
    assert (
        f'data-beaten="{duplicate.BEATEN}" data-tied="{duplicate.TIED}" data-alone="{duplicate.ALONE_PERCENT}"'
    ) in section
    for row in facts.duplicate_example():
        assert f'data-example-table="{row.table}" data-matchpoints="{row.matchpoints}" data-percent="{row.percent}"' in section
    guide_body.cache_clear()
