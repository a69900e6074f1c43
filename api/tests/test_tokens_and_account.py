"""Personal access tokens (the page, the hashing, revocation, the rate limit),
the account, and bot accounts (upgrade, marks, out of the ranked queues)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.selectors import is_bot
from api import tokens
from api.models import AccessToken
from games.play.services import create_computer_table

pytestmark = pytest.mark.django_db


def _bearer(raw: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def test_the_page_makes_a_token_shown_once_stored_hashed_and_revocable(make_member):
    alice = make_member("alice")
    client = Client()
    client.force_login(alice)
    page = client.post("/account/tokens/", {"description": "my bot", "scopes": ["bot:play", "challenge:write"]})
    assert page.status_code == 200
    raw = re.search(r"<code data-new-token>([^<]+)</code>", page.content.decode()).group(1)
    row = AccessToken.objects.get(user=alice)
    assert row.scopes == "bot:play challenge:write"
    assert raw not in (row.digest, row.prefix)
    assert row.digest == tokens.digest(raw)
    assert raw not in client.get("/account/tokens/").content.decode()  # shown once
    assert Client().get("/api/account", **_bearer(raw)).json()["username"] == "alice"
    assert AccessToken.objects.get(pk=row.pk).last_used_at is not None
    assert "never used" not in client.get("/account/tokens/").content.decode()
    client.post(f"/account/tokens/{row.pk}/revoke/")
    answer = Client().get("/api/account", **_bearer(raw))
    assert answer.status_code == 401
    assert answer.json()["code"] == "unauthorized"


def test_the_page_refuses_unknown_scopes_and_speaks_french(make_member):
    alice = make_member("alice")
    client = Client()
    client.force_login(alice)
    page = client.post("/account/tokens/", {"description": "x", "scopes": ["root"]})
    assert page.status_code == 400
    assert not AccessToken.objects.exists()
    french = client.get("/account/tokens/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Jetons d\u2019accès" in french.content.decode()


def test_no_token_or_a_wrong_one_is_refused(make_member):
    make_member("alice")
    assert Client().get("/api/account").status_code == 401
    assert Client().get("/api/account", **_bearer("dom_nope")).status_code == 401


def test_a_token_over_its_rate_answers_429_with_retry_after(make_member, settings):
    settings.API_RATE_LIMIT = (3, 60)
    raw = tokens.create_token(user=make_member("alice"), description="x", scopes=["board:play"]).raw
    answers = [Client().get("/api/account", **_bearer(raw)) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert 1 <= int(answers[-1]["Retry-After"]) <= 60
    other = tokens.create_token(user=make_member("bob"), description="x", scopes=["board:play"]).raw
    assert Client().get("/api/account", **_bearer(other)).status_code == 200  # per token


def test_a_scope_is_needed_for_its_routes(make_member):
    raw = tokens.create_token(user=make_member("alice"), description="x", scopes=["board:play"]).raw
    answer = Client().post("/api/bot/account/upgrade", **_bearer(raw))
    assert answer.status_code == 403
    assert answer.json()["code"] == "missing_scope"
    assert not is_bot(AccessToken.objects.get().user_id)


def test_an_account_without_games_becomes_a_bot_for_good(make_member):
    bot = make_member("robot")
    raw = tokens.create_token(user=bot, description="x", scopes=["bot:play"]).raw
    assert Client().post("/api/bot/account/upgrade", **_bearer(raw)).json() == {"ok": True}
    assert Client().get("/api/account", **_bearer(raw)).json()["bot"] is True
    profile = Client().get("/u/robot/").content.decode()
    assert "data-bot" in profile


def test_an_account_that_played_cannot_become_a_bot(make_member):
    alice = make_member("alice")
    create_computer_table(user=alice, preset="classic-draw", players=2, teams=False, target=100, level="easy")
    raw = tokens.create_token(user=alice, description="x", scopes=["bot:play"]).raw
    answer = Client().post("/api/bot/account/upgrade", **_bearer(raw))
    assert answer.status_code == 400
    assert answer.json()["code"] == "cannot_upgrade"
    assert not is_bot(alice.pk)


def test_a_bot_never_enters_the_ranked_queues(make_member):
    from lobby import room_tables, services
    from lobby.models import QueueEntry

    bot = make_member("robot")
    from accounts.services import become_bot

    become_bot(user=bot)
    with pytest.raises(services.QueueRefused):
        services.join_queue(user=bot, mode=next(iter(services.RANKED_MODES)))
    with pytest.raises(room_tables.RoomError):
        room_tables.join_room_queue(user=bot, room=next(iter(room_tables.rooms.ROOMS)), mode=next(iter(services.RANKED_MODES)))
    assert not QueueEntry.objects.exists()
