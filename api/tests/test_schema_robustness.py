"""A robustness run of the API with schemathesis: cases generated from the
served OpenAPI document (``/api/openapi.json``, read from the app itself)
for every operation (the streams too: ``API_STREAM_MAX_SECONDS`` ends them),
once without a token and once with a bot's token holding every scope; no answer may be a server error or fall outside the
document (status, content type, headers, body)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator
from schemathesis import checks
from schemathesis.specs.openapi import checks as openapi_checks

from accounts.services import become_bot
from api import streams, tokens

pytestmark = pytest.mark.django_db(transaction=False)

# Each operation gets this many generated cases per run (about 20 operations, two runs, well under a minute).
EXAMPLES = 12

def ndjson_lines_conformance(ctx, response, case) -> None:
    """A stream's body (schemathesis reads no NDJSON): every non-blank line matches the
    schema the document gives the operation's 200 for ``application/x-ndjson``."""
    if not response.headers.get("content-type", [""])[0].startswith(streams.NDJSON):
        return
    document = case.operation.schema.raw_schema
    line_schema = case.operation.definition.raw["responses"]["200"]["content"][streams.NDJSON]["schema"]
    validator = Draft202012Validator({"components": document["components"], **line_schema})
    NDJSON_SEEN.add(case.operation.label)
    for text in response.content.decode().splitlines():
        if text.strip():
            line = json.loads(text)
            errors = [error.message for error in validator.iter_errors(line)]
            assert not errors, (case.operation.label, line, errors)


# The stream operations whose lines the check above read (with a token).
NDJSON_SEEN: set[str] = set()

CHECKS = [
    checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
    ndjson_lines_conformance,
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


def _operations():
    """The document's operations, from the app as a client reads it. A stream answers a
    token-holder with a body that ends after ``API_STREAM_MAX_SECONDS`` (set short here)."""
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())
    found = [result.ok() for result in schema.get_all_operations()]
    assert len(found) >= 15, [operation.label for operation in found]
    return found


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
        for operation in _operations():
            assert 401 in _run(operation, {}), operation.label


# schemathesis calls the app as WSGI: Django reads the streams' async bodies whole (they end
# after API_STREAM_MAX_SECONDS) and says so; under ASGI, as served, they are streamed.
@pytest.fixture
def one_loop_layer(monkeypatch):
    """The in-memory channel layer, whatever the settings say. Called as WSGI, a stream's
    view runs in one event loop (it joins its group there) and its body is read in another
    (Django's ``async_to_sync`` over the body); Redis's pub/sub layer keeps its
    subscriptions per loop, and a body read in the second loop hung on them until the
    test's timeout in CI's second pass. As served (ASGI) both run in the server's one loop,
    which the stream tests on the live site check (api/tests/test_http_guarantees.py); this
    test checks the answers against the document, on PostgreSQL all the same."""
    from channels.layers import InMemoryChannelLayer, channel_layers

    monkeypatch.setitem(channel_layers.backends, "default", InMemoryChannelLayer())


@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume asynchronous iterators:Warning")
@pytest.mark.usefixtures("one_loop_layer")
def test_every_operation_with_a_bot_token_answers_within_the_document(bot_token, settings):
    settings.API_RATE_LIMIT = (100_000, 60)
    # The streams end (clients resume): their lines are read and checked too.
    settings.API_STREAM_MAX_SECONDS = 0.2
    settings.API_EVENT_POLL_SECONDS = 0.05
    settings.API_STREAM_POLL_SECONDS = 0.05
    NDJSON_SEEN.clear()
    headers, known = bot_token
    with _test_connection_kept():
        operations = _operations()
        seen = {operation.label: _run(operation, headers) for operation in operations}
        on_rows = {operation.label: _run(operation, headers, known) for operation in operations
                   if set(known) & {parameter.name for parameter in operation.path_parameters}}
    # On rows that exist, the cases went past the look-up (to the table core's answers).
    assert all(404 not in statuses for label, statuses in on_rows.items() if "/bot/" in label), on_rows

    # Both kinds of stream were read with the token, the bot's own game's among them.
    assert {"GET /api/stream/event", "GET /api/bot/game/stream/{game_id}"} <= NDJSON_SEEN, NDJSON_SEEN
    assert 200 in on_rows["GET /api/bot/game/stream/{game_id}"], on_rows
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
