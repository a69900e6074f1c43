"""A member's data file (/account/export/) holds what the apps above accounts keep
about them too (accounts.hooks.export_parts): the community's chat lines, blocks,
reports made and moderation; the tournaments they joined."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from community import services as community
from community.models import ModerationAction
from games.play import services as game_services
from games.tests.helpers import ranked_table
from tournaments import services as tournaments

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sent", "computer_queue")]


def test_the_download_holds_the_chat_blocks_reports_moderation_and_tournaments(make_member) -> None:
    alice, bob, staff = make_member("alice"), make_member("bob"), make_member("staff")
    table = ranked_table([alice, bob])
    community.say(table_id=table.pk, game_id=table.game.pk, seat=0, user_id=alice.pk, text="good luck!")
    community.block(blocker=alice, blocked=bob)
    community.report(reporter=alice, reported=bob, reason="abuse", text="rude", table_id=table.pk)
    ModerationAction.objects.create(member=alice, moderator=staff, kind="warn", reason="be kind")
    game_services.resign(game_id=table.game.pk, seat=0)
    tournament = tournaments.create_tournament(
        user=alice, format="arena", mode="duel-block", minutes=10, starts_in=5
    )
    tournaments.join(tournament=tournament, user=alice)
    client = Client()
    client.force_login(alice)
    data = json.loads(client.get("/account/export/").content)
    assert [line["text"] for line in data["chat_lines"]] == ["good luck!"]
    assert data["chat_lines"][0]["table"] == table.pk
    assert [block["member"] for block in data["blocks"]] == ["bob"]
    assert [(report["about"], report["reason"], report["text"]) for report in data["reports_made"]] == [
        ("bob", "abuse", "rude")
    ]
    assert [(action["kind"], action["reason"]) for action in data["moderation"]] == [("warn", "be kind")]
    assert "staff" not in json.dumps(data["moderation"])
    assert [(entry["tournament"], entry["format"], entry["mode"]) for entry in data["tournaments"]] == [
        (tournament.pk, "arena", "duel-block")
    ]
