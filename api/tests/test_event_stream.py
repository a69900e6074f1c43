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


def test_a_seat_taken_at_a_table_older_than_the_stream_is_announced(make_member):
    """Joining a friend's waiting private table (made before the stream connected)
    comes as a ``gameStart`` line, and its end as a ``gameFinish``: the stream used to
    look only at tables newer than the last one it knew when it connected."""
    from lobby import private

    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    older = private.create_private_table(owner=alice, preset="quick", players=2, teams=False, target=0, public=False)
    newer = private.create_private_table(owner=carol, preset="quick", players=2, teams=False, target=0, public=False)
    watch = streams.EventWatch(bob.pk)
    assert watch.first_lines() == []
    private.take_seat(table_id=older.pk, user=bob)
    lines = watch.next_lines()
    assert [(line["type"], line["game"]["id"], line["game"]["seat"]) for line in lines] == [("gameStart", older.pk, 1)]
    assert watch.next_lines() == []
    older.refresh_from_db()
    resign(game_id=older.game.pk, seat=1)
    assert [(line["type"], line["game"]["id"]) for line in watch.next_lines()] == [("gameFinish", older.pk)]
    assert watch.next_lines() == []
    assert newer.pk > older.pk
