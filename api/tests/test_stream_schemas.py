"""The OpenAPI document describes the streams' lines (api.stream_schemas): real lines
read from the streams (Django's ASGI test client) match the served document's schemas;
a move's ``action`` has its pattern; a program downloads a game's record with its token."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client
from jsonschema import Draft202012Validator

from api import selectors, services, tokens
from api.forms import ChallengeForm
from api.routes import ACTION_PATTERN
from games.engine.notation import loads
from games.models import Table
from games.play import services as game_services
from games.play.modes import RANKED_MODES
from games.tests.factories import UserFactory, seed_in_play
from games.tests.helpers import play_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sent", "computer_queue")]


def _validator(line: str) -> Draft202012Validator:
    """A validator of one line of a stream, by the document the API serves."""
    document = Client().get("/api/openapi.json").json()
    return Draft202012Validator({"components": document["components"], "$ref": f"#/components/schemas/{line}"})


def _check(validator: Draft202012Validator, lines: list[dict]) -> None:
    for line in lines:
        errors = [f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(line)]
        assert not errors, (line["type"], errors)


def _bearer(user, *scopes) -> str:
    return "Bearer " + tokens.create_token(user=user, description="t", scopes=list(scopes)).raw


def _private_table(users) -> Table:
    spec = RANKED_MODES["duel-block"]
    return game_services.create_table(
        kind=Table.Kind.PRIVATE, rules=spec.rules, preset=spec.preset, public=False,
        seats=[game_services.SeatSpec(user=user) for user in users], server_seed=seed_in_play(spec.rules),
    )


def _read_all(path: str, authorization: str) -> list[dict]:
    async def read() -> bytes:
        response = await AsyncClient().get(path, headers={"Authorization": authorization})
        assert response.status_code == 200, response.content
        assert response["Content-Type"] == "application/x-ndjson"
        return b"".join([chunk async for chunk in response])

    body = async_to_sync(read)()
    return [json.loads(text) for text in body.decode().splitlines() if text.strip()]


def test_the_game_streams_lines_match_the_documents_schema():
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    table = _private_table([alice, bob])
    play_out(table, seed=3)
    authorization = _bearer(alice, "board:play")
    validator = _validator("GameStreamLine")
    full = _read_all(f"/api/board/game/stream/{table.pk}", authorization)
    assert [line["type"] for line in full] == ["gameFull"]
    assert full[0]["gameOver"]
    states = _read_all(f"/api/board/game/stream/{table.pk}?seq=0", authorization)
    assert {line["type"] for line in states} == {"gameState"}
    assert any("roundOver" in line for line in states)
    assert "gameOver" in states[-1]
    assert any(line["event"]["action"] == "play" for line in states)
    _check(validator, full + states)
    # A line with a field the document does not name is refused by it.
    assert not validator.is_valid({**states[0], "hidden": 1})


def test_the_event_streams_lines_match_the_documents_schema(settings):
    settings.API_EVENT_POLL_SECONDS = 0.01
    alice, bob, carol = (UserFactory.create(username=name) for name in ("alice", "bob", "carol"))
    form = ChallengeForm({"preset": "duel-block", "target": "0"})
    assert form.is_valid(), form.errors
    services.create_challenge(challenger=carol, username="alice", choices=form.cleaned_data)
    table = _private_table([alice, bob])
    game_id = table.game.pk
    authorization = _bearer(alice, "board:play")

    async def read() -> list[bytes]:
        response = await AsyncClient().get("/api/stream/event", headers={"Authorization": authorization})
        assert response["Content-Type"] == "application/x-ndjson"
        body = aiter(response)
        try:
            first = await anext(body)
            await sync_to_async(game_services.resign)(game_id=game_id, seat=1)
            return [first, await anext(body)]
        finally:
            await body.aclose()

    chunks = async_to_sync(read)()
    lines = [json.loads(text) for chunk in chunks for text in chunk.decode().splitlines() if text.strip()]
    assert [line["type"] for line in lines] == ["gameStart", "challenge", "gameFinish"]
    _check(_validator("EventStreamLine"), lines)


def test_a_moves_action_has_the_notations_pattern():
    document = Client().get("/api/openapi.json").json()
    for prefix in ("bot", "board"):
        parameters = document["paths"][f"/api/{prefix}/game/{{game_id}}/move/{{action}}"]["post"]["parameters"]
        action = next(parameter for parameter in parameters if parameter["name"] == "action")
        assert action["schema"]["pattern"] == ACTION_PATTERN
    for token in ("35R", "35L", "35", "00", "D", "P"):
        assert re.match(ACTION_PATTERN, token), token
    for token in ("66Z", "X1", "=", "D35", "77", ""):
        assert not re.match(ACTION_PATTERN, token), token
    assert "/api/game/{game_id}/export" in document["paths"]
    assert "/api/game/{game_id}/export.json" in document["paths"]


def test_a_program_downloads_its_own_game_from_a_private_table_with_its_token():
    alice, bob, carol = (UserFactory.create(username=name) for name in ("alice", "bob", "carol"))
    table = _private_table([alice, bob])
    game = play_out(table, seed=5)
    mine = Client().get(f"/api/game/{table.pk}/export", HTTP_AUTHORIZATION=_bearer(alice, "board:play"))
    assert mine.status_code == 200, mine.content
    assert mine["Content-Type"].startswith("text/plain")
    record = loads(mine.content.decode())
    assert record.tag("Seed") == game.seed
    assert record.tag("Seat0") == "alice"
    data = Client().get(f"/api/game/{table.pk}/export.json", HTTP_AUTHORIZATION=_bearer(bob, "bot:play")).json()
    assert data["finished"] is True
    assert data["notation"] == mine.content.decode()
    # Not a player of the private table: as if it did not exist; no token: 401.
    outsider = _bearer(carol, "board:play")
    for path in (f"/api/game/{table.pk}/export", f"/api/game/{table.pk}/export.json"):
        refused = Client().get(path, HTTP_AUTHORIZATION=outsider)
        assert refused.status_code == 404
        assert refused.json()["code"] == "not_found"
        assert Client().get(path).status_code == 401
    # The site's own route, without a session, does not show the private game either.
    assert Client().get(f"/game/{table.pk}/export").status_code == 404
    assert selectors.exported_game(carol, table.pk) is None


def test_the_streams_end_after_api_stream_max_seconds(settings):
    """A stream's lifetime is capped (``API_STREAM_MAX_SECONDS``): the event stream and the
    stream of a game still on both end; the game stream's client resumes from its last ``seq``."""
    import asyncio

    settings.API_STREAM_MAX_SECONDS = 0.2
    settings.API_EVENT_POLL_SECONDS = 0.05
    settings.API_STREAM_POLL_SECONDS = 0.05
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    table = _private_table([alice, bob])
    authorization = _bearer(alice, "board:play")

    async def read(path: str) -> list[dict]:
        response = await AsyncClient().get(path, headers={"Authorization": authorization})
        # Not a timing: without the cap these bodies never end (the test would hang).
        body = await asyncio.wait_for(_joined(response), timeout=60)
        return [json.loads(text) for text in body.decode().splitlines() if text.strip()]

    game = async_to_sync(read)(f"/api/board/game/stream/{table.pk}")
    assert [line["type"] for line in game] == ["gameFull"]
    assert not game[0].get("gameOver")
    events = async_to_sync(read)("/api/stream/event")
    assert [line["type"] for line in events] == ["gameStart"]
    resumed = async_to_sync(read)(f"/api/board/game/stream/{table.pk}?seq={game[0]['seq']}")
    assert resumed == []


async def _joined(response) -> bytes:
    return b"".join([chunk async for chunk in response])
