"""docs/rooms.md shows the figures of lobby/rooms.py, line for line."""

from __future__ import annotations

from pathlib import Path

from django.utils import translation

from lobby.tests.doc_tables import all_tables

DOC = Path(__file__).resolve().parents[2] / "docs" / "rooms.md"


def test_the_documents_tables_are_the_data() -> None:
    text = DOC.read_text(encoding="utf-8")
    with translation.override("en"):
        tables = all_tables()
    for name, lines in tables.items():
        block = "\n".join(lines)
        assert block in text, f"docs/rooms.md: the {name} table differs from lobby/rooms.py:\n{block}"
