"""A bot account is marked wherever its name shows (docs/api.md): its seats
carry the flag (``games.Seat.bot``, stored when the seat is taken), and the
table page, the replay, the Watch list, a profile's games, the chat and the
exported records mark it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from accounts.services import become_bot
from games.engine import rules_for
from games.engine.notation import loads
from games.models import Seat, Table
from games.play import services
from games.tests.helpers import play_out, ranked_table

pytestmark = pytest.mark.django_db

MARK = re.compile(r'<span class="badge badge--bot" data-bot title="[^"]+">Bot</span>')


@pytest.fixture
def bot(make_member: Any) -> Any:
    member = make_member("deepbones")
    become_bot(user=member)
    return member


def _config(html: str) -> dict[str, Any]:
    match = re.search(r'<script id="table-config" type="application/json">(.*?)</script>', html, re.S)
    assert match is not None
    return json.loads(match.group(1))


def test_a_seat_is_flagged_where_a_bot_takes_it(make_member: Any, bot: Any) -> None:
    alice = make_member("alice")
    table = ranked_table([alice, bot])
    assert list(table.seats.order_by("number").values_list("bot", flat=True)) == [False, True]


def test_a_guest_s_seat_adopted_by_a_bot_is_flagged(bot: Any) -> None:
    table = services.create_computer_table(
        guest_key="k" * 32, preset="classic-block", players=2, teams=False, target=100, level="easy"
    )
    assert services.adopt_guest_seats(guest_key="k" * 32, user=bot) == 1
    assert list(table.seats.order_by("number").values_list("bot", flat=True)) == [True, False]


def test_a_waiting_table_flags_the_seat_a_bot_takes_until_it_is_given_back(make_member: Any, bot: Any) -> None:
    carol = make_member("carol")
    rules = rules_for("classic-block", players=3, teams=False, target=100)
    waiting = services.waiting.open_table(
        kind=Table.Kind.PRIVATE, rules=rules, preset="classic-block", owner=carol, public=True
    )
    seat = services.waiting.take_seat(table_id=waiting.pk, user=bot, kinds=[Table.Kind.PRIVATE])
    assert Seat.objects.get(pk=seat.pk).bot
    assert not Seat.objects.get(table=waiting, number=0).bot
    services.waiting.free_seat(table_id=waiting.pk, owner=carol, number=seat.number, kinds=[Table.Kind.PRIVATE])
    assert not Seat.objects.get(pk=seat.pk).bot


def test_the_table_page_gives_the_players_bot_flags(client: Client, make_member: Any, bot: Any) -> None:
    table = ranked_table([make_member("alice"), bot])
    players = _config(client.get(f"/table/{table.pk}/").content.decode())["players"]
    assert [(player["name"], player["bot"]) for player in players] == [("alice", False), ("deepbones", True)]


def test_the_replay_marks_the_bot_s_seat(client: Client, make_member: Any, bot: Any) -> None:
    table = ranked_table([make_member("alice"), bot])
    play_out(table, seed=3)
    html = client.get(f"/table/{table.pk}/replay/").content.decode()
    seats = re.findall(r'<div class="replay-seat" data-replay-seat="(\d)">\s*(.*?)\n', html)
    assert len(seats) == 2
    assert not MARK.search(seats[0][1])
    assert '<strong class="seat-name">deepbones</strong>' in seats[1][1]
    assert MARK.search(seats[1][1])


def test_a_profile_marks_a_bot_among_the_opponents(client: Client, make_member: Any, bot: Any) -> None:
    alice = make_member("alice")
    table = ranked_table([alice, bot])
    play_out(table, seed=4)
    html = client.get("/u/alice/").content.decode()
    row = re.search(rf'<tr data-table="{table.pk}">(.*?)</tr>', html, re.S)
    assert row is not None
    assert 'href="/u/deepbones/">deepbones</a> <span class="badge badge--bot" data-bot' in row.group(1)
    # The bot's own heading keeps the same mark.
    heading = re.search(r"<h1>(.*?)</h1>", client.get("/u/deepbones/").content.decode(), re.S)
    assert heading is not None
    assert MARK.search(heading.group(1))


def test_the_watch_list_marks_a_bot(client: Client, make_member: Any, bot: Any) -> None:
    table = ranked_table([make_member("alice"), bot])
    html = client.get("/live/").content.decode()
    item = re.search(rf'<li data-live-table="{table.pk}">(.*?)</li>', html, re.S)
    assert item is not None
    facts = item.group(1)
    assert "alice" in facts
    assert len(MARK.findall(facts)) == 1
    mark = MARK.search(facts)
    assert mark is not None
    assert facts.index("alice") < facts.index("deepbones") < mark.start()


def test_the_mark_is_translated(client: Client, make_member: Any, bot: Any) -> None:
    table = ranked_table([make_member("alice"), bot])
    html = client.get("/live/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f'data-live-table="{table.pk}"' in html
    assert 'data-bot title="Un programme qui joue par l\u2019API">Bot</span>' in html


def test_an_exported_record_titles_the_bot_s_seat(client: Client, make_member: Any, bot: Any) -> None:
    table = ranked_table([make_member("alice"), bot])
    play_out(table, seed=5)
    text = client.get(f"/game/{table.pk}/export").content.decode()
    assert '[Seat1 "deepbones"]\n[Seat1Title "BOT"]\n' in text
    assert "Seat0Title" not in text
    assert loads(text).bots == (1,)
    # A game still on is written as the public sees it, the title included.
    live = ranked_table([make_member("bob"), bot])
    assert '[Seat1Title "BOT"]' in client.get(f"/game/{live.pk}/export").content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_migration_flags_the_seats_bots_already_hold() -> None:
    executor = MigrationExecutor(connection)
    accounts_leaf = next(node for node in executor.loader.graph.leaf_nodes() if node[0] == "accounts")
    before = [("games", "0011_game_duplicate_round"), accounts_leaf]
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    User, Profile = apps.get_model("auth", "User"), apps.get_model("accounts", "Profile")
    OldTable, OldSeat = apps.get_model("games", "Table"), apps.get_model("games", "Seat")
    bot, person = User.objects.create(username="deepbones"), User.objects.create(username="alice")
    Profile.objects.create(user=bot, is_bot=True)
    Profile.objects.create(user=person)
    table = OldTable.objects.create(kind="private", status="finished", created_by=person)
    for number, user in enumerate((person, bot)):
        OldSeat.objects.create(table=table, number=number, user=user, name=user.username)
    try:
        executor = MigrationExecutor(connection)
        executor.migrate([("games", "0012_seat_bot")])
        seats = executor.loader.project_state([("games", "0012_seat_bot")]).apps.get_model("games", "Seat")
        assert list(seats.objects.filter(table_id=table.pk).order_by("number").values_list("bot", flat=True)) == [
            False, True,
        ]
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
