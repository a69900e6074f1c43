"""Replays of finished games: every step, all hands shown."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from accounts.replays import replay_steps
from games.models import Game, Move
from games.play import selectors
from games.tests.helpers import play_out, ranked_table

pytestmark = pytest.mark.django_db


def steps_of(html: str) -> list[dict]:
    match = re.search(r'<script id="replay-steps" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


def test_replay_shows_every_step_with_every_hand(client: Client, make_member) -> None:
    table = ranked_table([make_member("alice"), make_member("bob")], "duel-draw")
    game = play_out(table, seed=11)
    response = client.get(f"/table/{table.pk}/replay/")
    assert response.status_code == 200
    html = response.content.decode()
    steps = steps_of(html)
    assert len(steps) == game.seq + 1  # the deal, then one step per event
    first = steps[0]
    assert sum(len(hand) for hand in first["hands"]) + len(first["line"]) + first["boneyard"] == 28
    # Each step's hands match the engine's state rebuilt from the move log.
    for (_move, state), step in zip(selectors.iter_states(game), steps, strict=True):
        assert step["hands"] == [[tile.to_list() for tile in hand] for hand in state.hands]
        assert step["line"] == [list(pair) for _tile, pair in state.line]
    # The final position is drawn on the server with the tile tags.
    assert 'class="line line--static"' in html
    assert "data-tile=" in html
    labels = re.findall(r'data-goto="\d+">(.*?)</a>', html)
    assert len(labels) == len(steps)
    kinds = set(Move.objects.filter(game=game).values_list("kind", flat=True))
    if "draw" in kinds:
        assert any("draws" in label for label in labels)


def test_replay_steps_label_the_moves(make_member) -> None:
    table = ranked_table([make_member("alice"), make_member("bob")])
    game = play_out(table, seed=2)
    steps = replay_steps(game, ["alice", "bob"])
    assert steps[0].label.startswith("Round 1:")
    assert all(step.label for step in steps)
    assert steps[-1].state.game_over


def test_no_replay_while_the_game_is_live(client: Client, make_member) -> None:
    table = ranked_table([make_member("alice"), make_member("bob")])
    assert client.get(f"/table/{table.pk}/replay/").status_code == 404
    assert client.get("/table/999999/replay/").status_code == 404


def test_replay_of_a_private_table_is_for_its_players(client: Client, make_member) -> None:
    from games.play import services

    alice, bob, eve = make_member("alice"), make_member("bob"), make_member("eve")
    table = ranked_table([alice, bob])
    table.public = False
    table.save(update_fields=["public"])
    services.resign(game_id=Game.objects.get(table=table).pk, seat=1)
    assert client.get(f"/table/{table.pk}/replay/").status_code == 404
    client.force_login(eve)
    assert client.get(f"/table/{table.pk}/replay/").status_code == 404
    client.force_login(bob)
    assert client.get(f"/table/{table.pk}/replay/").status_code == 200
