"""Rated challenges and the bots' rating pool (docs/api.md, docs/members.md),
through the API: a rated challenge opens a ranked table of its mode, and its
end rates in the bots' pool when a bot sits there, in the people's otherwise."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import Pool, RatedGame, Rating, RatingChange
from accounts.services import become_bot
from api import selectors, tokens
from api.models import Challenge
from games.engine import view_for
from games.models import Game, Table
from games.play import selectors as game_selectors

pytestmark = pytest.mark.django_db


def _auth(user, *scopes):
    raw = tokens.create_token(user=user, description="t", scopes=list(scopes)).raw
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


@pytest.fixture
def players(make_member):
    bot, alice, bob = make_member("robot"), make_member("alice"), make_member("bob")
    become_bot(user=bot)
    return {
        "robot": (bot, _auth(bot, "bot:play"), "bot"),
        "alice": (alice, _auth(alice, "board:play", "challenge:write"), "board"),
        "bob": (bob, _auth(bob, "board:play", "challenge:write"), "board"),
    }


def _challenge(auth, dest, body):
    return Client().post(f"/api/challenge/{dest}", json.dumps(body), content_type="application/json", **auth)


def _play_to_the_end(table_id, seats, capture):
    """Each seat posts its first legal action through its API (bot or board)
    until the game is over; the end's work after the commit runs (the rating)."""
    for _ in range(400):
        game = Game.objects.get(table_id=table_id)
        state = game_selectors.game_state(game)
        if state.game_over:
            return game
        with capture(execute=True):
            if state.round_over:
                _user, auth, prefix = seats[0]
                answer = Client().post(f"/api/{prefix}/game/{table_id}/next-round?seq={game.seq}", **auth)
            else:
                _user, auth, prefix = seats[state.to_move]
                legal = selectors.legal_tokens(view_for(state, state.to_move).to_dict())
                answer = Client().post(f"/api/{prefix}/game/{table_id}/move/{legal[0]}?seq={game.seq}", **auth)
        assert answer.status_code == 200, answer.content
    raise AssertionError("the game never ended")


def _rated_game(players, challenger, dest, capture, body=None):
    made = _challenge(players[challenger][1], dest, body or {"preset": "duel-block", "rated": True})
    assert made.status_code == 200, made.content
    assert made.json()["rated"] is True
    accepted = Client().post(f"/api/challenge/{made.json()['id']}/accept", **players[dest][1])
    assert accepted.status_code == 200, accepted.content
    table_id = accepted.json()["game"]["id"]
    _play_to_the_end(table_id, [players[challenger], players[dest]], capture)
    return Table.objects.get(pk=table_id)


def test_a_rated_challenge_with_a_bot_rates_in_the_bots_pool(players, django_capture_on_commit_callbacks):
    table = _rated_game(players, "alice", "robot", django_capture_on_commit_callbacks)
    assert (table.kind, table.mode) == (Table.Kind.RANKED, "duel-block")
    record = RatedGame.objects.get(game__table=table)
    assert (record.mode, record.pool) == ("duel-block", Pool.BOTS)
    bot, alice = players["robot"][0], players["alice"][0]
    assert set(Rating.objects.values_list("user_id", "pool", "games")) == {
        (bot.pk, Pool.BOTS, 1),
        (alice.pk, Pool.BOTS, 1),
    }  # never a row in the people's pool
    assert RatingChange.objects.filter(rated_game=record).count() == 2

    # The bot's profile shows its rating in the bots' pool; alice's shows hers
    # apart from her people's ratings (still the newcomer's 1500?).
    bot_rating = Rating.objects.get(user=bot)
    page = Client().get("/u/robot/").content.decode()
    assert 'data-pool="bots"' in page
    assert f'data-rating="{bot_rating.display}"' in page
    page = Client().get("/u/alice/").content.decode()
    assert 'data-pool="people"' in page
    assert "Against bots" in page
    assert f'data-rating="{Rating.objects.get(user=alice).display}"' in page
    # The bot list shows its rating in the bots' pool.
    online = Client().get("/api/bot/online", **players["alice"][1]).json()
    (listed,) = online
    assert listed["username"] == "robot"
    duel = next(item for item in listed["ratings"] if item["mode"] == "duel-block")
    assert duel == {"mode": "duel-block", "rating": bot_rating.display, "provisional": True, "games": 1}
    # The people's leaderboard never lists the bots' pool, even settled ratings.
    assert _leaderboard("duel-block") == []


def _leaderboard(mode):
    from accounts.selectors import leaderboard

    Rating.objects.update(sigma=1.0)  # settled, so that the board would list them
    return list(leaderboard(mode))


def test_a_rated_challenge_between_people_rates_in_their_pool_and_repeats_count_less(
    players, django_capture_on_commit_callbacks
):
    first = _rated_game(players, "alice", "bob", django_capture_on_commit_callbacks)
    second = _rated_game(players, "bob", "alice", django_capture_on_commit_callbacks,
                         {"preset": "arena", "target": 50, "rated": True})
    assert (second.kind, second.mode) == (Table.Kind.RANKED, "duel-draw")
    records = [RatedGame.objects.get(game__table=table) for table in (first, second)]
    assert [(r.mode, r.pool) for r in records] == [("duel-block", Pool.PEOPLE), ("duel-draw", Pool.PEOPLE)]
    # The repeated-games rule (docs/members.md): the second game of the pair within a day counts 1/2.
    assert set(RatingChange.objects.filter(rated_game=records[0]).values_list("weight", flat=True)) == {1.0}
    assert set(RatingChange.objects.filter(rated_game=records[1]).values_list("weight", flat=True)) == {0.5}
    assert not Rating.objects.filter(pool=Pool.BOTS).exists()


def test_an_unrated_challenge_stays_a_private_table(players):
    made = _challenge(players["alice"][1], "robot", {"preset": "duel-block", "target": 0})
    assert made.json()["rated"] is False
    accepted = Client().post(f"/api/challenge/{made.json()['id']}/accept", **players["robot"][1]).json()
    table = Table.objects.get(pk=accepted["game"]["id"])
    assert (table.kind, table.mode) == (Table.Kind.PRIVATE, "")


@pytest.mark.parametrize(
    "body",
    [
        {"preset": "classic-draw", "rated": True},  # no ranked mode is played on it
        {"preset": "arena", "target": 100, "rated": True},  # a ranked mode's preset, another target
        {"preset": "arena", "players": 3, "target": 50, "rated": True},  # a ranked mode, but computers would sit
    ],
)
def test_rated_is_refused_outside_the_ranked_duels(players, body):
    answer = _challenge(players["alice"][1], "robot", body)
    assert answer.status_code == 400, answer.content
    error = answer.json()
    assert error["reason"] == "choices"
    assert "rated challenge" in error["message"]
    assert "duel-block" in error["message"]
    assert "rated" in json.loads(error["detail"])
    assert not Challenge.objects.exists()
