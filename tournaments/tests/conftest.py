"""The tournaments' tests read messages in English, whatever language an
earlier test's request left active in this thread (a French page of the rules
guide, say: Django's LocaleMiddleware does not restore it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield
