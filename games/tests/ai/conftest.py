"""The compiled core of the computer players is loaded once per test session, before the
tests, so that no test's first decision pays for it."""
from __future__ import annotations

import pytest

from games.ai import core


@pytest.fixture(scope="session", autouse=True)
def _ai_core_loaded() -> None:
    core.warm_up()
