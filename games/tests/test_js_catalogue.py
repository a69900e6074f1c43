"""The JavaScript catalogue (``/jsi18n/``) gives a text for every count.

Django's JavaScript ``ngettext`` picks ``catalog[msgid][pluralidx(n)]``, where
``pluralidx`` is the plural rule of the *merged* catalogue served by
``JavaScriptCatalog`` (Django 5.2's own French catalogue says three forms),
not the rule of our ``djangojs.po``. A catalogue written with fewer forms
leaves the others empty: in French every count of 2 or more came out blank.
This test renders every plural message of the served catalogue the way the
browser does, in both languages, at 0, 1, 2 and 5.
"""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
JS_PO = ROOT / "games/locale/fr/LC_MESSAGES/djangojs.po"
COUNTS = (0, 1, 2, 5)


def plural_messages() -> list[tuple[str, str]]:
    """(msgid, msgid_plural) of every plural message of the JS catalogue."""
    text = JS_PO.read_text(encoding="utf-8")
    pairs = re.findall(r'^msgid "(.*)"\nmsgid_plural "(.*)"$', text, flags=re.MULTILINE)
    assert pairs, "the JS catalogue holds no plural message"
    return pairs


def served_catalogue(language: str) -> tuple[dict, str | None]:
    """The catalogue and the plural rule as /jsi18n/ gives them to the page."""
    response = Client().get("/jsi18n/", headers={"cookie": f"django_language={language}"})
    assert response.status_code == 200
    body = response.content.decode()
    match = re.search(r"const newcatalog = (\{.*?\});\n", body, flags=re.DOTALL)
    catalogue = json.loads(match[1]) if match else {}  # English: no catalogue at all
    match = re.search(r"django\.pluralidx = function\(n\) \{\n\s*const v = (.*);\n", body)
    return catalogue, (match[1] if match else None)


def js_ngettext(catalogue: dict, plural: str | None, singular: str, many: str, count: int) -> str:
    """django/views/templates/i18n_catalog.js: ngettext and pluralidx."""
    value = catalogue.get(singular)
    if value is None:
        return singular if count == 1 else many
    if not isinstance(value, list):
        return value
    # The rule is a C expression (true/false or an index), as in .po headers.
    index = (0 if count == 1 else 1) if plural is None else int(gettext.c2py(plural)(count))
    return value[index] if index < len(value) else ""


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_plural_message_has_a_text_at_every_count(language: str) -> None:
    catalogue, plural = served_catalogue(language)
    if language == "fr":
        assert plural is not None, "the French catalogue has a plural rule"
    blank = []
    for singular, many in plural_messages():
        for count in COUNTS:
            text = js_ngettext(catalogue, plural, singular, many, count)
            if not text.strip():
                blank.append(f"{singular!r} at {count}")
    assert not blank, "empty texts:\n" + "\n".join(blank)


@pytest.mark.django_db
def test_french_counts_read_as_french() -> None:
    catalogue, plural = served_catalogue("fr")
    texts = {n: js_ngettext(catalogue, plural, "%(count)s tile", "%(count)s tiles", n) for n in COUNTS}
    assert texts[1] == "%(count)s domino", texts
    assert texts[5].strip(), texts
    assert texts[5] != texts[1], texts
