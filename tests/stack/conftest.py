"""Fixtures of the fault tests: the real stack as processes (tests/support/stack.py).

One fresh PostgreSQL database (migrated once) and one Redis database number
per test session; Daphne A and B and a Celery worker per module. Everything is
torn down at the end, whatever happened. Without PostgreSQL or Redis the
tests skip (or fail under REQUIRE_SERVICES=1) through the root fixtures.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.support.stack import (
    Stack,
    claim_redis_db,
    create_database,
    drop_database,
    guarded,
    release_redis_db,
)

# Short enough for a test, above the longest move of the tests (AI_MOVE_DELAY_MS).
VISIBILITY_TIMEOUT_S = 10
CORE_LOADED = "compiled core: loaded from numba's cache"
# Seconds a process gets to load the compiled core: 10-20 s under CI's load (two test
# passes side by side on two cores), once over 30 s.
CORE_LOAD_TIMEOUT = 120


def assert_core_loaded(stack: Stack, name: str, *, since: int = 0, timeout: float = CORE_LOAD_TIMEOUT) -> None:
    """Process ``name`` loaded the computer players' compiled core from the install's
    build, compiling nothing (a worker before it is ready, a web process just after)."""
    deadline = time.monotonic() + timeout
    while CORE_LOADED not in stack.log(name)[since:]:
        assert time.monotonic() < deadline, f"{name} did not load the compiled core:\n{stack.log(name)[-4000:]}"
        time.sleep(0.2)


@pytest.fixture(scope="session")
def stack_database(postgres_url: str) -> Iterator[str]:
    url = create_database(postgres_url, "dominoes_stack")
    try:
        yield url
    finally:
        drop_database(postgres_url, url)


@pytest.fixture(scope="session")
def stack_redis(redis_url: str) -> Iterator[str]:
    url = claim_redis_db(redis_url)
    try:
        yield url
    finally:
        release_redis_db(url)


@pytest.fixture(scope="module")
def stack(stack_database: str, stack_redis: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Daphne A and B and one Celery worker on the session's database and Redis."""
    running = Stack(
        tmp_path_factory.mktemp("stack"),
        database_url=stack_database,
        redis_url=stack_redis,
        env_overrides={
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT_S),
            "CELERY_RESTORE_INTERVAL": "1",
        },
    )
    with guarded(running):
        running.start_webs("a", "b")
        running.start_worker("worker")
        for name in ("a", "b", "worker"):
            assert_core_loaded(running, name)
        yield running
