"""The lanes of a parallel run (pytest-xdist, ``-n N --dist loadgroup``).

The stack tests (tests/stack and the two other files that start the real
stack as processes) run one after another on one worker, and so do the
browser tests (the ``test_browser_*.py`` files) on another: each lane holds
its processes, ports, Redis database and PostgreSQL databases alone, and a
lane's tests keep their order and their module- and session-scoped fixtures
(one Chromium per module, one site server, one stack per module). Every other
test is a lane of its own, spread over whichever worker is free.

The lanes are known from the test's file, because xdist's scheduler, in the
controlling process, sees only test ids: pytest-xdist 3.8 puts a test's
``xdist_group`` into its id by setting ``Item._nodeid``, which pytest 9 no
longer reads, so ``--dist loadgroup`` would spread every test. The root
conftest checks at collection that the ``stack`` and ``browser`` markers and
the files agree, so that a test cannot land in the wrong lane unnoticed.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from xdist.scheduler import LoadScopeScheduling

STACK_DIR = "tests/stack/"
STACK_FILES = frozenset({"games/tests/test_celery_worker.py", "lobby/tests/test_stack_lobby.py"})
BROWSER_FILES = "test_browser_*.py"


def lane_of(nodeid: str) -> str | None:
    """The lane of a test: "stack", "browser", or None (anywhere)."""
    path = nodeid.split("::", 1)[0]
    if path.startswith(STACK_DIR) or path in STACK_FILES:
        return "stack"
    if PurePosixPath(path).match(BROWSER_FILES):
        return "browser"
    return None


class LaneScheduling(LoadScopeScheduling):
    """xdist's scheduling by scope, the scope of a test being its lane (the
    largest lanes are handed out first, so that the long ones start at once)."""

    def _split_scope(self, nodeid: str) -> str:
        return lane_of(nodeid) or nodeid
