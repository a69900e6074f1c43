"""A closed account's name no longer shows on what it did: its chat lines (at a
table and in a tournament) and its tournaments (the standings, the podium, the
list's winner, the live frame, the published results file, which still
checks). accounts/tests/test_close.py::test_the_name_of_a_closed_account_no_longer_shows_on_its_games
covers the games' own pages; this is its extension to the apps above accounts
(a tournaments test: the app that sees them all)."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import services as account_services
from community import selectors as community_selectors
from community import services as community
from games.models import Table
from games.tests.helpers import play_out, ranked_table
from games.verifier import verify_tournament
from lobby import broadcast
from tournaments import selectors, services
from tournaments.models import Tournament

PASSWORD = "secret-pass-123"


@pytest.fixture(autouse=True)
def _no_lobby(monkeypatch):
    monkeypatch.setattr(broadcast, "send_to_users", lambda user_ids, frame: None)


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _named(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text) is not None


@pytest.mark.django_db
def test_a_closed_account_s_table_chat_lines_show_under_closed_account(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    game = table.game
    community.say(table_id=table.pk, game_id=game.pk, seat=0, user_id=alice.pk, text="good game to you")
    community.say(table_id=table.pk, game_id=game.pk, seat=1, user_id=bob.pk, text="thanks a lot")
    play_out(table, seed=4)
    account_services.close_account(user=alice, password=PASSWORD)
    # The socket's catch-up and the replay's chat panel.
    frames = community_selectors.history(table_id=table.pk, seat=1, user_id=bob.pk)
    assert [(frame["from"], frame["text"]) for frame in frames] == [
        ("Closed account", "good game to you"),
        ("bob", "thanks a lot"),
    ]
    replay = _logged_in(bob).get(f"/table/{table.pk}/replay/").content.decode()
    assert "good game to you" in replay
    assert not _named(replay, "alice")


def _finished_arena(members: list) -> Tournament:
    tournament = services.create_tournament(user=members[0], format="arena", mode="duel-block", minutes=10, starts_in=0)
    for member in members:
        services.join(tournament=tournament, user=member)
    services.tick(now=timezone.now() + timedelta(seconds=1))
    for round_ in range(2):
        for table in Table.objects.filter(tournament_game__tournament=tournament, status="playing"):
            play_out(table, seed=round_ + table.pk)
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    for table in Table.objects.filter(tournament_game__tournament=tournament, status="playing"):
        play_out(table, seed=table.pk)
    assert services.tick()["finished"] == 1
    tournament.refresh_from_db()
    return tournament


@pytest.mark.django_db(transaction=True)
def test_a_closed_account_s_tournaments_and_results_file_no_longer_name_it(make_member) -> None:
    members = [make_member(name) for name in ("alice", "bob", "carol", "dave")]
    alice, bob = members[0], members[1]
    tournament = _finished_arena(members)
    community.say_in_tournament(tournament_id=tournament.pk, user_id=alice.pk, text="well played everyone")
    before = json.loads(Client().get(f"/tournaments/{tournament.pk}/results.json").content)
    assert "alice" in before["players"]
    assert "alice" in {row["player"] for row in tournament.final_standings}

    account_services.close_account(user=alice, password=PASSWORD)
    viewer = _logged_in(bob)
    pages = {
        "tournament page": viewer.get(f"/tournaments/{tournament.pk}/").content.decode(),
        "standings": viewer.get(f"/tournaments/{tournament.pk}/standings/").content.decode(),
        "chat": viewer.get(f"/tournaments/{tournament.pk}/chat/").content.decode(),
        "list": viewer.get("/tournaments/").content.decode(),
        "frame": json.dumps(selectors.standings_frame(tournament, bob.pk, streak_after=2)),
    }
    for where, text in pages.items():
        assert not _named(text, "alice"), where
    assert "well played everyone" in pages["chat"]
    assert "Closed account" in pages["chat"]
    assert 'data-player="Closed account"' in pages["tournament page"]
    assert "Closed account" in pages["frame"]

    # The results file is built when asked for: the name resolved then, the file still checks.
    data = json.loads(Client().get(f"/tournaments/{tournament.pk}/results.json").content)
    assert not _named(json.dumps(data), "alice")
    assert "Closed account 1" in data["players"]
    report = verify_tournament(data)
    assert [row.player for row in report.standings] == [
        "Closed account 1" if row["player"] == "alice" else row["player"] for row in tournament.final_standings
    ]
    seats = [seat for game in data["games"] for seat in game["seats"] if seat["player"] == "Closed account 1"]
    assert seats
    # The copy published before the account closed still checks too.
    assert verify_tournament(before).games == report.games

    # In French, on the pages.
    viewer.cookies["django_language"] = "fr"
    assert 'data-player="Compte fermé"' in viewer.get(f"/tournaments/{tournament.pk}/").content.decode()
