"""The reference bot (``python -m api.bot``) plays a whole game against the
hard computer on the real site (Daphne, ASGI), through the API only, then the
game downloads in the notation."""

from __future__ import annotations

import subprocess
import sys
import urllib.request

import pytest

from games.engine.notation import loads
from tests.support.site import ROOT, start_site

pytestmark = pytest.mark.slow

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
             "--computer", "hard", "--brain", "medium", "--preset", "duel-block", "--target", "0"],
            cwd=ROOT, env=server.env, capture_output=True, text=True, timeout=240,
        )
        assert bot.returncode == 0, bot.stderr + server.log()[-3000:]
        words = bot.stdout.split()
        assert words[0] == "finished", bot.stdout
        assert "winner" in words, bot.stdout
        table_id = int(words[1])
        with urllib.request.urlopen(f"{server.url}/game/{table_id}/export", timeout=10) as answer:
            record = loads(answer.read().decode())
        assert record.tag("Seat0") == "refbot"
        assert record.tag("Seed")
        assert record.tag("Result")
    finally:
        server.stop()
