"""A robustness run of the API with schemathesis: cases generated from the
served OpenAPI document (``/api/openapi.json``, read from the app itself)
for every operation, once without a token and once with a bot's token
holding every scope; no answer may be a server error or fall outside the
document (status, content type, headers, body)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given, settings
from schemathesis import checks
from schemathesis.specs.openapi import checks as openapi_checks

from accounts.services import become_bot
from api import tokens

pytestmark = pytest.mark.django_db(transaction=False)

# Each operation gets this many generated cases per run (about 20 operations, two runs, well under a minute).
EXAMPLES = 12

CHECKS = [
    checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
]


@contextmanager
def _test_connection_kept() -> Iterator[None]:
    """The app is called as a WSGI application, in the test's thread and transaction: as
    Django's test client does, a request must not close the test's connection (PostgreSQL
    would lose the test's transaction). Around the run only: the test client reconnects them."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def _operations(*, streams: bool):
    """The document's operations, from the app as a client reads it. The streams answer a
    token-holder with an endless body, so the run with a token leaves them out (their lines
    are checked in test_event_stream.py); without a token they answer at once."""
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())
    found = [result.ok() for result in schema.get_all_operations()]
    assert len(found) >= 15, [operation.label for operation in found]
    return [operation for operation in found if streams or "/stream/" not in operation.path]


def _run(operation, headers: dict[str, str], known: dict[str, int] | None = None) -> set[int]:
    """The statuses of the operation's answers, each checked against the document; with
    ``known``, the path's ids (``game_id``...) are those of rows that exist."""
    statuses: set[int] = set()

    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case) -> None:
        for name, value in (known or {}).items():
            if name in (case.path_parameters or {}):
                case.path_parameters[name] = value
        statuses.add(case.call_and_validate(headers=headers, checks=CHECKS).status_code)

    check()
    return statuses


@pytest.fixture
def bot_token(make_member) -> tuple[dict[str, str], dict[str, int]]:
    """A bot account with a token of every scope, and the ids of a game it plays (against
    the computer) and of a challenge a person sent it."""
    bot = make_member("robot")
    alice = make_member("alice")
    raw = tokens.create_token(user=bot, description="robustness", scopes=list(tokens.SCOPES)).raw
    become_bot(user=bot)
    started = Client().post("/api/challenge/ai", {"preset": "duel-block", "target": 0},
                            HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert started.status_code == 200, started.content
    person = tokens.create_token(user=alice, description="t", scopes=["challenge:write"]).raw
    sent = Client().post("/api/challenge/robot", {"preset": "duel-block"}, HTTP_AUTHORIZATION=f"Bearer {person}")
    assert sent.status_code == 200, sent.content
    headers = {"Authorization": f"Bearer {raw}"}
    return headers, {"game_id": started.json()["game"]["id"], "challenge_id": sent.json()["id"]}


def test_every_operation_without_a_token_answers_within_the_document():
    with _test_connection_kept():
        for operation in _operations(streams=True):
            assert 401 in _run(operation, {}), operation.label


def test_every_operation_with_a_bot_token_answers_within_the_document(bot_token, settings):
    settings.API_RATE_LIMIT = (100_000, 60)
    headers, known = bot_token
    with _test_connection_kept():
        operations = _operations(streams=False)
        seen = {operation.label: _run(operation, headers) for operation in operations}
        on_rows = {operation.label: _run(operation, headers, known) for operation in operations
                   if set(known) & {parameter.name for parameter in operation.path_parameters}}
    # On rows that exist, the cases went past the look-up (to the table core's answers).
    assert all(404 not in statuses for label, statuses in on_rows.items() if "/bot/" in label), on_rows

    # The token was let in: the account answers, and no operation only ever refused the token.
    assert seen["GET /api/account"] == {200}, seen
    assert all(statuses - {401} for statuses in seen.values()), seen


def test_an_address_outside_the_routes_answers_the_apis_json_404():
    """A negative id matches no route (``{int:...}``): it was the site's HTML page (a 403
    CSRF page for a POST), outside the document."""
    for answer in (Client().get("/api/bot/game/stream/-5"), Client().post("/api/bot/game/-5/resign")):
        assert answer.status_code == 404
        assert answer["Content-Type"] == "application/json"
        assert answer.json()["code"] == "not_found"
