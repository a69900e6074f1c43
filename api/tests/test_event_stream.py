"""The event stream's lines: what is in progress first, then challenges, game start and game end."""

from __future__ import annotations

import pytest

from api import services, streams
from api.forms import ChallengeForm
from games.play.services import resign

pytestmark = pytest.mark.django_db


def _choices():
    form = ChallengeForm({"preset": "duel-block", "target": "0"})
    assert form.is_valid(), form.errors
    return form.cleaned_data


def test_in_progress_first_then_challenges_start_and_finish(make_member):
    alice, bob = make_member("alice"), make_member("bob")
    pending = services.create_challenge(challenger=alice, username="bob", choices=_choices())
    watch = streams.EventWatch(bob.pk)
    first = watch.first_lines()
    assert [(line["type"], line["challenge"]["id"]) for line in first] == [("challenge", pending.pk)]
    assert watch.next_lines() == []
    table = services.accept_challenge(user=bob, challenge_id=pending.pk)
    lines = watch.next_lines()
    assert [line["type"] for line in lines] == ["challenge", "gameStart"]
    assert lines[0]["challenge"]["status"] == "accepted"
    assert lines[1]["game"]["id"] == table.pk
    assert lines[1]["game"]["seat"] == 1
    resign(game_id=table.game.pk, seat=1)
    finished = watch.next_lines()
    assert [line["type"] for line in finished] == ["gameFinish"]
    assert finished[0]["game"]["status"] == "finished"
    assert watch.next_lines() == []
    # A new watcher sees nothing in progress.
    assert streams.EventWatch(bob.pk).first_lines() == []


def test_a_watcher_that_connects_mid_game_gets_it_first(make_member):
    alice, bob = make_member("alice"), make_member("bob")
    challenge = services.create_challenge(challenger=alice, username="bob", choices=_choices())
    table = services.accept_challenge(user=bob, challenge_id=challenge.pk)
    first = streams.EventWatch(alice.pk).first_lines()
    assert [(line["type"], line["game"]["id"]) for line in first] == [("gameStart", table.pk)]
