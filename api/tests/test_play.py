"""Challenges, moves in the notation and the game stream's lines."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.services import become_bot
from api import selectors, tokens
from api.models import Challenge
from games.engine import view_for
from games.models import Game, Table
from games.play import selectors as game_selectors
from games.play.services import StaleSeq, play_move, take_computer_turn

pytestmark = pytest.mark.django_db


def _auth(user, *scopes):
    raw = tokens.create_token(user=user, description="t", scopes=list(scopes)).raw
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


@pytest.fixture
def bot_and_person(make_member):
    bot, alice = make_member("robot"), make_member("alice")
    become_bot(user=bot)
    return bot, alice, _auth(bot, "bot:play"), _auth(alice, "board:play", "challenge:write")


def test_a_challenge_accepted_opens_the_table(bot_and_person):
    bot, alice, bot_auth, alice_auth = bot_and_person
    made = Client().post("/api/challenge/robot", json.dumps({"preset": "duel-block", "target": 0}),
                         content_type="application/json", **alice_auth)
    assert made.status_code == 200, made.content
    challenge = made.json()
    assert challenge["status"] == "created"
    assert challenge["dest"] == "robot"
    accepted = Client().post(f"/api/challenge/{challenge['id']}/accept", **bot_auth).json()
    table = Table.objects.get(pk=accepted["game"]["id"])
    assert table.status == Table.Status.PLAYING
    assert [s.user_id for s in game_selectors.table_seats(table.pk)] == [alice.pk, bot.pk]
    assert Challenge.objects.get().status == "accepted"
    page = Client().get(f"/table/{table.pk}/").content.decode()
    assert "data-bots" in page
    assert "robot is a bot" in page, page[page.find("data-bots") - 50:page.find("data-bots") + 300]
    again = Client().post(f"/api/challenge/{challenge['id']}/decline", **bot_auth)
    assert again.status_code == 409


def test_bad_challenges_are_refused_and_change_nothing(bot_and_person):
    _bot, _alice, _bot_auth, alice_auth = bot_and_person
    for body in ({"preset": "nope"}, {"players": 5}, {"rated": True}, {"preset": "duel-block", "players": 4}):
        answer = Client().post("/api/challenge/robot", json.dumps(body), content_type="application/json", **alice_auth)
        assert answer.status_code == 400, body
        assert answer.json()["reason"] == "choices", body
    assert Client().post("/api/challenge/nobody", {"preset": "quick"}, **alice_auth).status_code == 404
    assert Client().post("/api/challenge/alice", **alice_auth).status_code == 400
    assert not Challenge.objects.exists()
    made = Client().post("/api/challenge/robot", {"preset": "quick"}, **alice_auth).json()  # a form body
    assert Client().post(f"/api/challenge/{made['id']}/accept", **alice_auth).status_code == 403
    assert Client().post(f"/api/challenge/{made['id']}/cancel", **alice_auth).json() == {"ok": True}


def _my_turn(game, computer_queue):
    """Run the computer's turns until seat 0 is to move."""
    for _ in range(20):
        game.refresh_from_db()
        state = game_selectors.game_state(game)
        if state.to_move == 0:
            return state
        # The computer's turn (queued after the commit, which the test's transaction never makes).
        take_computer_turn(game_id=game.pk, seq=game.seq)
    raise AssertionError(f"seat 0 never got the turn: {state.to_move}, jobs {computer_queue.PENDING}")


def _computer_game(client_auth):
    answer = Client().post("/api/challenge/ai", {"level": "easy", "preset": "quick", "target": 0}, **client_auth)
    assert answer.status_code == 200, answer.content
    return answer.json()["game"]["id"]


def test_moves_in_the_notation_and_the_engines_refusals(bot_and_person, computer_queue):
    bot, _alice, bot_auth, _ = bot_and_person
    table_id = _computer_game({**bot_auth})
    game = Game.objects.get(table_id=table_id)
    line, cursor = selectors.game_full(game, seat=0)
    assert line["type"] == "gameFull"
    assert line["view"]["seat"] == 0
    assert line["id"] == table_id
    assert "hand" in line["view"]
    assert all(player.get("bot") is not None for player in line["players"])
    state = _my_turn(game, computer_queue)
    view = view_for(state, 0)
    legal = selectors.legal_tokens(view.to_dict())
    assert legal
    bad = Client().post(f"/api/bot/game/{table_id}/move/66Z", **bot_auth)
    assert bad.status_code == 400
    assert bad.json()["code"] == "bad_frame"
    not_held = next(t for t in ("00", "01", "11", "02", "12", "22") if t not in legal and not state.line) if not state.line else None
    if not_held is not None:
        refused = Client().post(f"/api/bot/game/{table_id}/move/{not_held}", **bot_auth)
        assert refused.status_code == 400
        assert refused.json()["code"] == "illegal"
    stale = Client().post(f"/api/bot/game/{table_id}/move/{legal[0]}?seq={game.seq - 1}", **bot_auth)
    assert stale.status_code == 409
    assert stale.json()["seq"] == game.seq
    ok = Client().post(f"/api/bot/game/{table_id}/move/{legal[0]}?seq={game.seq}", **bot_auth)
    assert ok.json() == {"ok": True, "seq": game.seq + 1}
    lines = selectors.game_lines(cursor)
    assert lines
    assert lines[-1]["seq"] >= game.seq + 1
    assert all(line["type"] == "gameState" for line in lines)
    # The board API is for people; the bot API for bots.
    assert Client().post(f"/api/board/game/{table_id}/resign", **_auth(bot, "board:play")).status_code == 403


def test_two_moves_at_one_seq_one_wins(bot_and_person, computer_queue):
    _bot, _alice, _bot_auth, alice_auth = bot_and_person
    table_id = _computer_game(alice_auth)
    game = Game.objects.get(table_id=table_id)
    state = _my_turn(game, computer_queue)
    action = view_for(state, 0).legal[0]
    play_move(game_id=game.pk, seat=0, action=action, expected_seq=game.seq)
    with pytest.raises(StaleSeq):
        play_move(game_id=game.pk, seat=0, action=action, expected_seq=game.seq)


def test_no_line_carries_a_tile_the_reader_may_not_see(bot_and_person, computer_queue):
    _bot, _alice, _bot_auth, alice_auth = bot_and_person
    table_id = _computer_game(alice_auth)
    game = Game.objects.get(table_id=table_id)
    _line, cursor = selectors.game_full(game, seat=0)
    for _ in range(40):
        game.refresh_from_db()
        state = game_selectors.game_state(game)
        if state.game_over or state.round_over:
            break
        if state.to_move != 0:
            take_computer_turn(game_id=game.pk, seq=game.seq)
            continue
        if state.to_move == 0:
            play_move(game_id=game.pk, seat=0, action=view_for(state, 0).legal[0], expected_seq=game.seq)
    lines = selectors.game_lines(cursor)
    state = game_selectors.game_state(Game.objects.get(pk=game.pk))
    computer_hand = {tuple(t.to_list()) for t in view_for(state, 1).hand}
    for line in lines:
        if "view" in line and not line.get("roundOver"):
            assert line["view"]["seat"] == 0
            assert not computer_hand & {tuple(t) for t in line["view"]["hand"]}
        event = line.get("event", {})
        if event.get("action") == "draw" and event.get("seat") == 1:
            assert "tile" not in event
    # Resumed from a seq: the same lines after it, nothing missed.
    resumed = selectors.game_lines(selectors.cursor_at(Game.objects.get(pk=game.pk), seat=0, seq=lines[0]["seq"] - 1))
    assert resumed == lines


def test_the_openapi_document_is_served_with_its_version():
    from api.routes import API_VERSION

    document = Client().get("/api/openapi.json").json()
    assert document["info"]["version"] == API_VERSION
    assert document["openapi"].startswith("3.")
    paths = document["paths"]
    for route in ("/api/account", "/api/bot/account/upgrade", "/api/stream/event", "/api/bot/game/stream/{game_id}",
                  "/api/bot/game/{game_id}/move/{action}", "/api/bot/game/{game_id}/resign", "/api/challenge/{username}",
                  "/api/challenge/{challenge_id}/accept", "/api/board/game/stream/{game_id}",
                  "/api/tournament/{tournament_id}/join"):
        assert route in paths, route
    from openapi_spec_validator import validate

    validate(document)


def test_a_challenge_from_a_blocked_member_never_reaches_the_blocker(bot_and_person):
    """The blocked one can no longer challenge the member who blocked them, and is
    not told: their challenge is made and stays open for them, and the blocker's
    event stream never lists it nor can it be accepted (docs/moderation.md)."""
    from community.services import block

    bot, alice, bot_auth, alice_auth = bot_and_person
    block(blocker=bot, blocked=alice)
    made = Client().post("/api/challenge/robot", json.dumps({"preset": "duel-block", "target": 0}),
                         content_type="application/json", **alice_auth)
    assert made.status_code == 200, made.content
    assert made.json()["status"] == "created"
    challenge_id = made.json()["id"]
    assert [c.pk for c in selectors.challenges_of(alice.pk, open_only=True)] == [challenge_id]
    assert selectors.challenges_of(bot.pk, open_only=True) == []
    refused = Client().post(f"/api/challenge/{challenge_id}/accept", **bot_auth)
    assert refused.status_code == 404
    assert not Table.objects.exists()
    assert Challenge.objects.get().status == "created"
