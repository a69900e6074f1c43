"""The French catalogues are complete and compiled.

Every message of every ``.po`` file of the project has a French text (none
empty, none fuzzy), and the committed ``.mo`` next to it holds exactly those
texts, so that the site speaks French without gettext installed (the
``.mo`` files are what Django reads). ``make messages`` regenerates both.
"""

from __future__ import annotations

import ast
import gettext
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = sorted(
    path for path in ROOT.glob("**/locale/fr/LC_MESSAGES/*.po") if ".venv" not in path.parts
)


@dataclass
class Entry:
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    texts: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    line: int = 0


def read_po(path: Path) -> list[Entry]:
    """The live entries of a .po file (obsolete ``#~`` ones left out)."""
    entries: list[Entry] = []
    entry = Entry()
    target: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal entry
        if target is not None:
            entries.append(entry)
        entry = Entry()

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#"):
            if target is not None and target[0] == "msgstr":
                finish()
                target = None
            if line.startswith("#,") and "fuzzy" in line:
                entry.fuzzy = True
            continue
        keyword, _space, rest = line.partition(" ")
        if line.startswith('"'):
            assert target is not None, f"{path}:{number}: a string outside an entry"
            value = ast.literal_eval(line)
        else:
            value = ast.literal_eval(rest)
            if keyword in ("msgctxt", "msgid") and target is not None and target[0] == "msgstr":
                finish()
            if keyword.startswith("msgstr["):
                target = ("msgstr", int(keyword[7:-1]))
            else:
                target = ({"msgstr": "msgstr"}.get(keyword, keyword), 0)
            if keyword == "msgid":
                entry.line = number
        kind, index = target
        if kind == "msgctxt":
            entry.context = (entry.context or "") + value
        elif kind == "msgid":
            entry.msgid += value
        elif kind == "msgid_plural":
            entry.plural = (entry.plural or "") + value
        else:
            entry.texts[index] = entry.texts.get(index, "") + value
    finish()
    return [e for e in entries if e.msgid]  # the header has an empty msgid


def test_the_project_has_french_catalogues() -> None:
    names = {str(path.relative_to(ROOT)) for path in CATALOGUES}
    for app in ("locale", "games/locale", "accounts/locale", "lobby/locale", "rules_guide/locale"):
        assert f"{app}/fr/LC_MESSAGES/django.po" in names
    for app in ("games/locale", "lobby/locale"):
        assert f"{app}/fr/LC_MESSAGES/djangojs.po" in names


@pytest.mark.one_pass
@pytest.mark.usefixtures("gettext_tools")
def test_make_messages_finds_every_text_translated_in_its_apps_catalogue(tmp_path: Path) -> None:
    """``make messages`` run on the sources changes no translation: every text
    of the code and templates is in the catalogue of the app it lives in
    (an app without a locale directory of its own would send its texts,
    untranslated, to the project's catalogue), and has its French text."""
    copy = tmp_path / "site"
    # (not the virtualenv, git's files, caches or collected static files)
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".*", "staticfiles", "node_modules", "__pycache__"))
    for domain in ("django", "djangojs"):
        run = subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", "fr", "-d", domain],
            cwd=copy,
            capture_output=True,
            text=True,
        )
        if run.returncode:
            pytest.fail(f"makemessages -d {domain} failed:\n{run.stderr}")
    problems = []
    for po in sorted(copy.glob("**/locale/fr/LC_MESSAGES/*.po")):
        where = po.relative_to(copy)
        if not (ROOT / where).exists():
            problems.append(f"{where}: a new catalogue")
        for e in read_po(po):
            if e.fuzzy or not e.texts or not all(e.texts.values()):
                problems.append(f"{where}:{e.line} {e.msgid!r}")
    assert not problems, "texts make messages would leave untranslated:\n" + "\n".join(problems)


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_message_is_translated_and_compiled(po: Path) -> None:
    entries = read_po(po)
    assert entries, f"{po} holds no message"
    missing = [f"{po.name}:{e.line} {e.msgid!r}" for e in entries if e.fuzzy or not all(e.texts.values()) or not e.texts]
    assert not missing, "untranslated or fuzzy messages:\n" + "\n".join(missing)
    with po.with_suffix(".mo").open("rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    stale = []
    for e in entries:
        key = e.msgid if e.context is None else f"{e.context}\x04{e.msgid}"
        if e.plural is None:
            if catalogue.get(key) != e.texts[0]:
                stale.append(f"{po.name}:{e.line} {e.msgid!r}")
        elif any(catalogue.get((key, n)) != text for n, text in e.texts.items()):
            stale.append(f"{po.name}:{e.line} {e.msgid!r}")
    assert not stale, f"{po.with_suffix('.mo').name} is not compiled from {po.name} (make messages):\n" + "\n".join(stale)
