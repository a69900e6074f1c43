"""The reference bot (``python -m api.bot``) plays whole games on the real
site (Daphne, ASGI), through the API only: against the hard computer, and
against a person who challenged it and plays through the table websocket;
and, sending the challenge itself, against another bot; then the game
downloads in the notation."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import urllib.request

import pytest

from api.bot import Api
from games.engine.notation import loads
from tests.support.players import Guest, TableClient
from tests.support.site import ROOT, start_site

# Each starts its own site (its own SQLite file, no Redis): the first pass only.
pytestmark = [pytest.mark.slow, pytest.mark.one_pass]

MAKE_TOKEN = """
from django.contrib.auth import get_user_model
from api import tokens
user = get_user_model().objects.create_user(username="refbot", password="x" * 12)
print(tokens.create_token(user=user, description="reference bot", scopes=["bot:play"]).raw)
"""


def test_the_reference_bot_plays_the_hard_level_to_the_end(tmp_path):
    server = start_site(tmp_path, API_KEEPALIVE_SECONDS="1")
    try:
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MAKE_TOKEN],
            cwd=ROOT, env=server.env, capture_output=True, text=True, check=True,
        )
        raw = made.stdout.strip().splitlines()[-1]
        bot = subprocess.run(
            [sys.executable, "-m", "api.bot", "--url", server.url, "--token", raw, "--upgrade",
             "--computer", "hard", "--brain", "medium", "--preset", "duel-block", "--target", "0",
             "--export", str(tmp_path / "games")],
            cwd=ROOT, env=server.env, capture_output=True, text=True, timeout=240,
        )
        assert bot.returncode == 0, bot.stderr + server.log()[-3000:]
        words = bot.stdout.split()
        assert words[0] == "finished", bot.stdout
        assert "winner" in words, bot.stdout
        table_id = int(words[1])
        # The bot downloaded the finished game itself (--export), in the notation.
        path = tmp_path / "games" / f"dominoes-{table_id}.txt"
        assert bot.stdout.splitlines()[-1] == f"exported {path}"
        record = loads(path.read_text(encoding="utf-8"))
        assert record.tag("Table") == str(table_id)
        assert record.tag("Seat0") == "refbot"
        assert record.bots == (0,)  # a bot account's seat is titled BOT
        assert record.tag("Seed")
        assert record.tag("Result")
        assert record.result == record.tag("Result") != "*"
        with urllib.request.urlopen(f"{server.url}/game/{table_id}/export", timeout=10) as answer:
            assert answer.read().decode() == path.read_text(encoding="utf-8")
    finally:
        server.stop()


MAKE_BOT_AND_PERSON = """
from django.contrib.auth import get_user_model
from api import tokens
users = get_user_model().objects
bot = users.create_user(username="refbot", password="x" * 12)
alice = users.create_user(username="alice", email="alice@example.com", password="secret-pass-123")
print(tokens.create_token(user=bot, description="reference bot", scopes=["bot:play"]).raw)
print(tokens.create_token(user=alice, description="challenges", scopes=["challenge:write"]).raw)
"""


def test_the_reference_bot_accepts_a_persons_challenge_and_plays_their_websocket_client_to_the_end(tmp_path):
    server = start_site(tmp_path, API_KEEPALIVE_SECONDS="1")
    bot = None
    try:
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MAKE_BOT_AND_PERSON],
            cwd=ROOT, env=server.env, capture_output=True, text=True, check=True,
        )
        bot_raw, person_raw = made.stdout.strip().splitlines()[-2:]
        bot = subprocess.Popen(
            [sys.executable, "-m", "api.bot", "--url", server.url, "--token", bot_raw, "--upgrade",
             "--accept", "--games", "1", "--brain", "medium", "--verbose"],
            cwd=ROOT, env=server.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        # The person: signed in in a browser-like client, their challenge sent with their token.
        person = Guest(server.url)
        person.post_form("/accounts/login/", {"login": "alice", "password": "secret-pass-123"},
                         form_page="/accounts/login/")
        assert person.session_key
        api = Api(server.url, person_raw, prefix="board")
        status, challenge = api.call("POST", "/api/challenge/refbot", {"preset": "duel-block", "target": 0})
        assert status == 200, challenge
        # The person's event stream says when the bot accepted, with the game's id.
        started = next(event for event in api.stream("/api/stream/event") if event["type"] == "gameStart")
        table_id = started["game"]["id"]

        async def play() -> TableClient:
            async with TableClient(server.url, table_id, person.cookie) as client:
                await client.play_until(lambda c: c.game_over is not None, timeout=180)
                return client

        client = asyncio.run(play())
        assert client.game_over is not None
        assert not [error for error in client.errors if error.get("code") != "rate_limited"], client.errors
        try:
            out, err = bot.communicate(timeout=120)  # a guard against a hang, not a timing
        except subprocess.TimeoutExpired:
            bot.kill()
            out, err = bot.communicate()
            pytest.fail(f"the bot did not stop after the game: {out!r} {err!r}\n{server.log()[-3000:]}")
        assert bot.returncode == 0, err + server.log()[-3000:]
        words = out.split()
        assert words[:2] == ["finished", str(table_id)], out
        with urllib.request.urlopen(f"{server.url}/game/{table_id}/export", timeout=10) as answer:
            record = loads(answer.read().decode())
        assert {record.tag("Seat0"), record.tag("Seat1")} == {"refbot", "alice"}
        assert record.tag("Result")
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.communicate()
        server.stop()


MAKE_TWO_BOTS = """
from django.contrib.auth import get_user_model
from api import tokens
users = get_user_model().objects
for name in ("refbot", "otherbot"):
    user = users.create_user(username=name, password="x" * 12)
    print(tokens.create_token(user=user, description="reference bot", scopes=["bot:play"]).raw)
"""


def test_the_reference_bot_sends_a_challenge_to_another_bot_and_plays_it(tmp_path):
    """One bot (--challenge) challenges another (--accept) through the API; both
    play the game to the end through their game streams, and the challenger
    downloads it (--export)."""
    server = start_site(tmp_path, API_KEEPALIVE_SECONDS="1")
    accepting = None
    try:
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MAKE_TWO_BOTS],
            cwd=ROOT, env=server.env, capture_output=True, text=True, check=True,
        )
        challenger_raw, other_raw = made.stdout.strip().splitlines()[-2:]
        upgraded = subprocess.run(
            [sys.executable, "-c", "import sys; from api.bot import Api; "
             "print(Api(sys.argv[1], sys.argv[2]).call('POST', '/api/bot/account/upgrade')[0])",
             server.url, other_raw],
            cwd=ROOT, env=server.env, capture_output=True, text=True, check=True,
        )
        assert upgraded.stdout.strip() == "200", upgraded.stdout + upgraded.stderr
        accepting = subprocess.Popen(
            [sys.executable, "-m", "api.bot", "--url", server.url, "--token", other_raw,
             "--accept", "--games", "1", "--brain", "easy"],
            cwd=ROOT, env=server.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        challenger = subprocess.run(
            [sys.executable, "-m", "api.bot", "--url", server.url, "--token", challenger_raw, "--upgrade",
             "--challenge", "otherbot", "--preset", "duel-block", "--target", "0", "--brain", "medium",
             "--export", str(tmp_path / "games")],
            cwd=ROOT, env=server.env, capture_output=True, text=True, timeout=240,
        )
        assert challenger.returncode == 0, challenger.stderr + server.log()[-3000:]
        lines = challenger.stdout.splitlines()
        assert lines[0].split()[:2] == ["challenged", "otherbot"], challenger.stdout
        finished = lines[1].split()
        assert finished[0] == "finished", challenger.stdout
        table_id = int(finished[1])
        out, err = accepting.communicate(timeout=60)
        assert accepting.returncode == 0, err + server.log()[-3000:]
        assert out.split()[:2] == ["finished", str(table_id)], out
        record = loads((tmp_path / "games" / f"dominoes-{table_id}.txt").read_text(encoding="utf-8"))
        # The challenger sits at seat 0 (docs/api.md); both seats are bots'.
        assert (record.tag("Seat0"), record.tag("Seat1")) == ("refbot", "otherbot")
        assert record.bots == (0, 1)
        assert record.result != "*"
    finally:
        if accepting is not None and accepting.poll() is None:
            accepting.kill()
            accepting.communicate()
        server.stop()
