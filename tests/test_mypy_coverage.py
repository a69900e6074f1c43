"""`make lint` type-checks whole packages (``[tool.mypy]`` ``files`` in pyproject.toml,
strict, pages and migrations excluded), so a new module or sub-package is checked
without editing a list. A new app is the one thing to add there: this test fails until
it is."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MYPY = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
# Top-level packages that are not the site's code.
NOT_THE_SITE = {"tests"}


def test_every_package_of_the_site_is_type_checked() -> None:
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - NOT_THE_SITE
    assert packages <= set(MYPY["files"]), sorted(packages - set(MYPY["files"]))


def test_only_pages_migrations_and_tests_are_left_out() -> None:
    excluded = [re.compile(pattern) for pattern in MYPY["exclude"]]

    def left_out(path: str) -> bool:
        return any(pattern.search(path) for pattern in excluded)

    assert MYPY["strict"] is True
    # Services, selectors, models, sockets, any package of games (a new one too): checked.
    for path in ("games/play/services/moves.py", "games/engine/events.py", "games/models.py", "lobby/consumers.py",
                 "accounts/selectors.py", "tournaments/pairing.py", "config/asgi.py", "games/a_new_package/module.py"):
        assert not left_out(path), path
    # The pages and what Django generates: not.
    for path in ("games/pages/game_pages.py", "lobby/views.py", "accounts/forms.py", "games/admin.py",
                 "tournaments/urls.py", "games/migrations/0001_initial.py", "games/tests/test_models.py",
                 "accounts/templatetags/accounts_extras.py", "puzzles/management/commands/x.py"):
        assert left_out(path), path
