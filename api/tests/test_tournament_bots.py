"""Bots in the tournaments that admit them (docs/api.md): a bot joins through
``POST /api/tournament/<id>/join`` (scope ``tournament:write``) an arena that
admits bots and is refused by one that does not; paired like anyone, it gets
the ``gameStart`` line of its table on its event stream, and the standings
mark it as a bot."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.services import become_bot
from api import streams, tokens
from lobby import broadcast
from tournaments import services
from tournaments.models import Player, Tournament, TournamentGame

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def lobby_frames(monkeypatch):
    frames = []
    monkeypatch.setattr(broadcast, "send_to_users", lambda user_ids, frame: frames.append((list(user_ids), frame)))
    return frames


def _auth(user, *scopes):
    raw = tokens.create_token(user=user, description="t", scopes=list(scopes)).raw
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def test_a_bot_joins_an_arena_that_admits_bots_and_gets_its_game_start(make_member):
    bot, alice = make_member("robot"), make_member("alice")
    become_bot(user=bot)
    bot_auth = _auth(bot, "bot:play", "tournament:write")
    closed = services.create_tournament(user=alice, format="arena", mode="duel-draw", minutes=5, starts_in=0)
    open_to_bots = services.create_tournament(
        user=alice, format="arena", mode="duel-draw", minutes=5, starts_in=0, admits_bots=True
    )

    refused = Client().post(f"/api/tournament/{closed.pk}/join", **bot_auth)
    assert refused.status_code == 403, refused.content
    assert refused.json()["code"] == "bots_not_admitted"
    # The site's own path refuses it too, and nothing was written.
    with pytest.raises(services.TournamentError):
        services.join(tournament=closed, user=bot)
    assert not Player.objects.filter(tournament=closed).exists()
    # The scope is needed; a tournament that does not exist is a 404.
    assert Client().post(f"/api/tournament/{open_to_bots.pk}/join", **_auth(bot, "bot:play")).status_code == 403
    assert Client().post("/api/tournament/999999/join", **bot_auth).status_code == 404

    joined = Client().post(f"/api/tournament/{open_to_bots.pk}/join", **bot_auth)
    assert joined.status_code == 200, joined.content
    assert joined.json() == {"ok": True, "tournament": open_to_bots.pk, "status": "created",
                             "url": f"/tournaments/{open_to_bots.pk}/"}
    services.join(tournament=open_to_bots, user=alice)

    watch = streams.EventWatch(bot.pk)
    assert watch.first_lines() == []
    report = services.tick(now=timezone.now() + timedelta(seconds=1))
    assert report["paired"] >= 1
    (game,) = TournamentGame.objects.filter(tournament=open_to_bots)
    starts = [line for line in watch.next_lines() if line["type"] == "gameStart"]
    assert [line["game"]["id"] for line in starts] == [game.table_id]
    assert starts[0]["game"]["kind"] == "ranked"  # rated: in the bots' pool once it ends
    assert {seat.user_id for seat in game.table.seats.all()} == {bot.pk, alice.pk}

    page = Client().get(f"/tournaments/{open_to_bots.pk}/").content.decode()
    row = page[page.find('data-player="robot"'):]
    row = row[: row.find("</tr>")]
    assert "data-bot" in row
    assert ">Bot<" in row
    alice_row = page[page.find('data-player="alice"'):]
    assert "data-bot" not in alice_row[: alice_row.find("</tr>")]
    assert "data-admits-bots" in page


def test_the_form_sets_whether_a_tournament_admits_bots(make_member):
    make_member("alice")
    client = Client()
    assert client.login(username="alice", password="secret-pass-123")
    form = {"format": "arena", "mode": "duel-block", "minutes": "20", "starts_in": "5", "rated": "on"}
    assert "admits_bots" in client.get("/tournaments/new/").content.decode()
    assert client.post("/tournaments/new/", form).status_code == 302
    assert client.post("/tournaments/new/", {**form, "admits_bots": "on"}).status_code == 302
    assert list(Tournament.objects.order_by("pk").values_list("admits_bots", flat=True)) == [False, True]
