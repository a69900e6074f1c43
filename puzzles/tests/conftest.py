"""The puzzle search waits in ``puzzles.jobs.PENDING_SEARCHES`` (the root
conftest puts ``games.jobs`` in its "queue" mode) until a test runs it; each
test starts with none waiting and the search's cache keys free."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache

from puzzles import jobs, services


@pytest.fixture(autouse=True)
def _no_search_waiting() -> Iterator[None]:
    jobs.PENDING_SEARCHES.clear()
    cache.delete_many([jobs.QUEUED_KEY, services.SEARCH_LOCK])
    yield
    jobs.PENDING_SEARCHES.clear()
    cache.delete_many([jobs.QUEUED_KEY, services.SEARCH_LOCK])
