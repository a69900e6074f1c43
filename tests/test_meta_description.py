"""Every page tells search engines what it is: one ``<meta name="description">``
per page, written for its kind of page (home, rules guide, profile, table,
replay, rooms, ...), in the page's language; pages of no particular kind
get the site's own (templates/base.html)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from games.models import Table
from games.play import services
from games.tests.factories import UserFactory, make_table

pytestmark = pytest.mark.django_db

META = re.compile(r'<meta name="description" content="([^"]*)">')


def description(client: Client, path: str, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    found = META.findall(response.content.decode())
    assert len(found) == 1, (path, found)
    return " ".join(unescape(found[0]).split())


def pages() -> tuple[Client, dict[str, str], dict[str, str]]:
    """A member's client, the path of each kind of page, and the text that
    kind's description must name (a member's name, a table's number)."""
    member = UserFactory(username="anna")
    client = Client()
    client.force_login(member)
    live = make_table(kind=Table.Kind.PRIVATE, public=True)
    over = make_table(kind=Table.Kind.PRIVATE, public=True)
    services.resign(game_id=over.game.pk, seat=0)
    paths = {
        "home": "/",
        "rules guide": "/rules/",
        "profile": "/u/anna/",
        "table": f"/table/{live.pk}/",
        "replay": f"/table/{over.pk}/replay/",
        "rooms": "/rooms/",
        "room": "/rooms/passport/",
        "ranked": "/ranked/",
        "leaderboard": "/leaderboard/",
        "live tables": "/live/",
        "friends (the site's own)": "/friends/",
    }
    names = {"profile": "anna", "table": str(live.pk), "replay": str(over.pk)}
    return client, paths, names


def test_every_kind_of_page_has_its_own_description() -> None:
    client, paths, names = pages()
    for language in ("en", "fr"):
        seen: dict[str, str] = {}
        for kind, path in paths.items():
            text = description(client, path, language)
            assert 50 <= len(text) <= 200, (kind, language, text)  # what a search result shows
            assert names.get(kind, "") in text, (kind, text)
            assert text not in seen.values(), (kind, "same as", [k for k, v in seen.items() if v == text])
            seen[kind] = text
    # The account pages (allauth) have theirs too, for a visitor.
    assert description(Client(), "/accounts/login/", "en") not in seen.values()


def test_descriptions_are_translated() -> None:
    client, paths, _names = pages()
    for kind, path in paths.items():
        english, french = description(client, path, "en"), description(client, path, "fr")
        assert english != french, kind
    assert description(Client(), "/accounts/login/", "fr") != description(Client(), "/accounts/login/", "en")
