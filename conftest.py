"""Fixtures shared by every test: one behaviour for every app's Django tests
(a fresh channel layer, computer turns and reviews waiting in a queue that
the test runs), members, real services (PostgreSQL, Redis), headless
Chromium, and a real site server (Daphne) for end-to-end tests.

A test that needs a service skips with the reason when it is missing, except
under REQUIRE_SERVICES=1 (or REQUIRE_BROWSER=1 for Chromium), where it fails.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from hypothesis import settings as hypothesis_settings

from tests.support import lanes, services
from tests.support.site import SiteServer, start_site

ROOT = Path(__file__).resolve().parent

# No time limit on a hypothesis example: its default of 200 ms is a timed
# assertion, and the suite shares two cores with its own parallel lanes (a
# pairing example took 386 ms in a full run). Speed is the benchmarks' (bench/).
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")
PURE_DIRS = (ROOT / "games" / "tests" / "engine", ROOT / "games" / "tests" / "ai")
STACK_DIR = ROOT / "tests" / "stack"


@pytest.fixture(scope="session", autouse=True)
def _compiled_core(request: pytest.FixtureRequest) -> None:
    """The computer players' compiled core, loaded once before the first test of a session
    that may play a computer, never during collection: from the cache that the install
    built (``python -m games.ai.build``), or compiled here, once, if that step was skipped.
    The servers the tests start (``tests/support``) then find it in the cache too."""
    apps = {ROOT / name for name in ("games", "lobby", "accounts", "tests")}
    if any(apps & set(Path(str(item.path)).parents) for item in request.session.items):
        from games.ai import warm

        warm.load()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks the plain-Python tests ``pure`` and the tests of tests/stack ``stack``,
    and refuses a ``stack`` or ``browser`` test outside its lane's files (or a
    test in them without the marker): the parallel run (tests/support/lanes.py)
    knows the lanes by file."""
    misplaced = []
    for item in items:
        path = Path(str(item.path))
        if any(directory in path.parents for directory in PURE_DIRS):
            item.add_marker(pytest.mark.pure)
        if STACK_DIR in path.parents:
            item.add_marker(pytest.mark.stack)
        marked = next((name for name in ("stack", "browser") if item.get_closest_marker(name)), None)
        if marked != lanes.lane_of(item.nodeid):
            misplaced.append(f"{item.nodeid}: marked {marked or 'neither stack nor browser'}")
    if misplaced:
        raise pytest.UsageError(
            "a stack test belongs in tests/stack or tests/support/lanes.py's STACK_FILES, a browser test in"
            " a test_browser_*.py file, and only they:\n" + "\n".join(misplaced)
        )


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup``: the stack tests on one worker, the browser tests on another."""
    if config.getvalue("dist") == "loadgroup":
        return lanes.LaneScheduling(config, log)
    return None


@pytest.fixture(autouse=True)
def _fresh_channel_layer(request: pytest.FixtureRequest) -> Iterator[None]:
    """A new channel layer per test: the Redis layer keeps asyncio locks bound
    to the event loop of the test that first used it, and every async test
    runs its own loop. (Not for the plain-Python engine and AI tests.)"""
    if request.node.get_closest_marker("pure"):
        yield
        return
    from channels.layers import channel_layers

    from games.play import live_games as live

    channel_layers.backends.clear()
    # The live games a process keeps between moves: a rolled-back test
    # database reuses game ids.
    live.clear()
    yield
    channel_layers.backends.clear()
    live.clear()


@pytest.fixture(autouse=True)
def _deals_in_play(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fresh seeds the site draws in a test (``new_seed``, for every table it opens)
    deal a first round still in play after its automatic opening in every ranked mode:
    about one block-duel deal in 110 is over before anyone moves, and the tests of play,
    rematches, arenas and rooms expect a live game (each failed in a full run now and
    then), and so do the seeds of duplicate tournaments' rounds (every table of a round
    is dealt from it: a round over at its opening closes, and shows its seed, at its
    start). A test of that case patches ``new_seed`` itself (tournaments' test_arena,
    games' test_views). Not for the plain-Python tests, which draw no server seed; the
    site a browser test starts draws its own (tournaments.tests.helpers)."""
    if request.node.get_closest_marker("pure"):
        return
    from games.engine import new_game
    from games.fairplay import fairness
    from games.play.modes import RANKED_MODES
    from games.play.services import tables
    from tournaments import duplicate

    drawn = fairness.new_seed
    rules = [mode.rules for mode in RANKED_MODES.values()]

    def in_play() -> str:
        for _attempt in range(100):
            seed = drawn()
            if not any(new_game(each, seed).round_over for each in rules):
                return seed
        raise AssertionError("no seed in 100 deals a first round in play")

    monkeypatch.setattr(fairness, "new_seed", in_play)
    monkeypatch.setattr(tables, "new_seed", in_play)
    monkeypatch.setattr(duplicate, "new_seed", in_play)


@pytest.fixture(autouse=True)
def _the_default_language_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test starts in the site's default language: a request in French
    (Django's LocaleMiddleware activates the language in the test's thread and
    leaves it there) must not make the next test's texts French, whichever
    order the workers run them in."""
    yield
    if request.node.get_closest_marker("pure"):
        return
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _jobs_in_the_test_thread(request: pytest.FixtureRequest) -> Iterator[None]:
    """Computer turns and post-game reviews wait in games.jobs's queues
    (``PENDING``, ``PENDING_REVIEWS``) until the test runs them
    (``jobs.run_pending()``), never on threads behind the test's back."""
    if request.node.get_closest_marker("pure"):
        yield
        return
    from django.conf import settings

    from games import jobs

    saved = getattr(settings, "GAMES_DISPATCH", None)
    settings.GAMES_DISPATCH = "queue"
    jobs.PENDING.clear()
    jobs.PENDING_REVIEWS.clear()
    yield
    jobs.PENDING.clear()
    jobs.PENDING_REVIEWS.clear()
    if saved is None:
        del settings.GAMES_DISPATCH
    else:
        settings.GAMES_DISPATCH = saved


@pytest.fixture
def computer_queue() -> Any:
    """``games.jobs``, whose queue holds the computer turns until the test
    runs them with ``jobs.run_pending()`` (the autouse fixture above set
    it up)."""
    from games import jobs

    return jobs


@pytest.fixture
def make_member(db: Any) -> Callable[..., Any]:
    """A member with a known password (``secret-pass-123``)."""
    from django.contrib.auth import get_user_model

    def make(username: str, *, email: str | None = None) -> Any:
        return get_user_model().objects.create_user(
            username=username, email=email or f"{username}@example.com", password="secret-pass-123"
        )

    return make


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every (group, message) the services broadcast, instead of the layer."""
    from games.live import broadcast

    messages: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(broadcast, "_send", lambda batch: messages.extend(batch))
    return messages


def _missing(what: str, reason: str, flag: str) -> NoReturn:
    message = f"{what} is not available: {reason}"
    if os.environ.get(flag) == "1":
        pytest.fail(f"{message} ({flag}=1, so this fails instead of skipping)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, whose connections left open by other
    threads (the sockets' database threads keep theirs: CONN_MAX_AGE) are
    closed on PostgreSQL before it is dropped; else the drop fails and the
    database is left behind."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of a PostgreSQL server that answers (TEST_POSTGRES_URL)."""
    url = services.postgres_url()
    problem = services.postgres_problem(url)
    if problem:
        _missing("PostgreSQL", problem, "REQUIRE_SERVICES")
    return url


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of a Redis server that answers (TEST_REDIS_URL)."""
    url = services.redis_url()
    problem = services.redis_problem(url)
    if problem:
        _missing("Redis", problem, "REQUIRE_SERVICES")
    return url


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    if not os.path.exists(path):
        _missing("Chromium", f"{path} not found (apt-get install -y chromium)", "REQUIRE_BROWSER")
    return path


@pytest.fixture(scope="session")
def gettext_tools() -> None:
    """GNU gettext's programs, which ``makemessages`` runs (.ci/run installs them)."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        _missing("GNU gettext", "xgettext not found (apt-get install -y gettext)", "REQUIRE_SERVICES")


@pytest.fixture(scope="session")
def node_path() -> str:
    """Node.js (20 or later), which runs the browser code's pure modules in
    tests (tests/js/, ``node --test``); .ci/run installs it when missing."""
    path = shutil.which("node")
    if path is None:
        _missing("Node.js", "node not found (apt-get install -y nodejs)", "REQUIRE_SERVICES")
    return path


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[object]:
    """Headless Debian Chromium driven by Playwright (never a downloaded one).

    Module-scoped: Playwright's sync API keeps an event loop running in the main
    thread while it is open, which would stop later asyncio tests from running."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Callable[..., Any]]:
    """``new_context(**options)``: a fresh browser context (its own cookies and
    pages) from the module's Chromium, closed when the test ends, passed or not."""
    contexts: list[Any] = []

    def new(**options: Any) -> Any:
        context = browser.new_context(**options)
        contexts.append(context)
        return context

    yield new
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def site_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteServer]:
    """The real site under Daphne on a free port, embedded mode (its own SQLite
    file, in-memory layer, in-process computer moves, no move delay)."""
    server = start_site(tmp_path_factory.mktemp("site"))
    try:
        yield server
    finally:
        server.stop()
