"""The member's data file (/account/export/) holds every kind of data the site
keeps about a member: a guard over every model of every app with a foreign key
(or a one-to-one) to the user model. Each such field is either listed in
``EXPORTED`` with the section of the file that holds its rows, or in
``EXCLUDED`` with the reason it must not be exported; a new one fails here
until it is given one (docs/members.md, "Your data"). An API test: the app
above all the others that keep member data, so it sees every part."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client

from api import tokens
from api.models import Challenge
from community import services as community
from community.models import ModerationAction
from lobby.models import Invitation
from lobby.tests.test_member_data import member_with_everything  # noqa: F401  (a fixture)
from puzzles.models import Attempt, Puzzle, PuzzleRating
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

# (model, field) -> the path of the file's section that holds the member's rows.
EXPORTED: dict[tuple[str, str], tuple[str, ...]] = {
    ("accounts.Profile", "user"): ("profile",),
    ("accounts.Rating", "user"): ("ratings",),
    ("accounts.RatingChange", "user"): ("rating_history",),
    ("accounts.Friendship", "from_user"): ("friends",),
    ("accounts.Friendship", "to_user"): ("friends",),
    ("accounts.Abandonment", "user"): ("profile", "abandonments"),
    ("account.EmailAddress", "user"): ("account", "email_addresses"),
    ("mfa.Authenticator", "user"): ("account", "two_factor"),
    ("games.Seat", "user"): ("games",),
    # The member is seated at the tables they open (its owner, first seat).
    ("games.Table", "created_by"): ("games",),
    ("community.ChatLine", "author"): ("chat_lines",),
    ("community.ChatMute", "member"): ("chat_mutes",),
    ("community.Block", "blocker"): ("blocks",),
    ("community.Report", "reporter"): ("reports_made",),
    ("community.ModerationAction", "member"): ("moderation",),
    ("lobby.ChipWallet", "user"): ("chips",),
    ("lobby.ChipEntry", "user"): ("chip_ledger",),
    ("lobby.QueueEntry", "user"): ("queue",),
    ("lobby.Invitation", "from_user"): ("invitations",),
    ("lobby.Invitation", "to_user"): ("invitations",),
    ("puzzles.PuzzleRating", "user"): ("puzzle_rating",),
    ("puzzles.Attempt", "user"): ("puzzle_answers",),
    ("tournaments.Player", "user"): ("tournaments",),
    ("tournaments.Tournament", "created_by"): ("tournaments_created",),
    ("api.AccessToken", "user"): ("api_tokens",),
    ("api.Challenge", "challenger"): ("challenges",),
    ("api.Challenge", "dest"): ("challenges",),
}

# (model, field) -> why it is not in the member's file.
EXCLUDED: dict[tuple[str, str], str] = {
    # Another member's choice the member must never learn (docs/moderation.md):
    ("community.Block", "blocked"): "who blocked the member: the blocked one is never told",
    ("community.ChatMute", "muted"): "who muted the member at a table: never told either",
    ("community.Report", "reported"): "reports about the member: the reporters are not exposed; what was done is in moderation",
    ("community.Standing", "member"): "the troll mark is not told to the member; their timeouts are in moderation",
    # The staff's work, not data about them as members:
    ("community.ModerationAction", "moderator"): "the moderator who acted: the staff's names are not given out",
    ("lobby.ChipEntry", "created_by"): "the staff member who made a correction (the entry is in the member's chip ledger)",
    ("admin.LogEntry", "user"): "the admin's log of the staff's changes",
    # Nothing kept: rows of what is happening now.
    ("games.Presence", "user"): "a live socket's row, gone within a minute of the socket",
    ("games.StandIn", "user"): "a computer standing in during a game; what it leaves is in games and profile.abandonments",
}


def user_fields() -> set[tuple[str, str]]:
    user_model = get_user_model()
    return {
        (model._meta.label, field.name)
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if (field.many_to_one or field.one_to_one) and field.concrete and field.related_model is user_model
    }


def test_every_foreign_key_to_a_member_is_exported_or_excluded_with_a_reason() -> None:
    found = user_fields()
    assert not set(EXPORTED) & set(EXCLUDED)
    missing = found - set(EXPORTED) - set(EXCLUDED)
    assert not missing, f"add these to the member's data file (an export_parts receiver) or to EXCLUDED: {missing}"
    assert not (set(EXPORTED) | set(EXCLUDED)) - found, "a listed field no longer exists"


def _section(data: dict, path: tuple[str, ...]):
    for key in path:
        data = data[key]
    return data


def test_the_download_holds_a_row_of_every_exported_kind(member_with_everything, make_member) -> None:  # noqa: F811
    alice = member_with_everything["member"]
    ranked = member_with_everything["ranked"]
    bob, erin = make_member("bob2"), make_member("erin")
    community.say(table_id=ranked.pk, game_id=ranked.game.pk, seat=0, user_id=alice.pk, text="good luck!")
    community.mute(table_id=ranked.pk, user_id=alice.pk, username="bob", mute=True)
    community.block(blocker=alice, blocked=bob)
    community.report(reporter=alice, reported=bob, reason="abuse", text="rude", table_id=ranked.pk)
    ModerationAction.objects.create(member=alice, moderator=erin, kind="warn", reason="be kind")
    tournament = tournaments.create_tournament(user=alice, format="arena", mode="duel-block", minutes=10, starts_in=5)
    tournaments.join(tournament=tournament, user=alice)
    puzzle = Puzzle.objects.create(
        table=ranked, seq=1, round=1, kind="block", preset="classic-draw", players=2, to_move=0,
        solution_tile=[1, 2], solution_ends=["left"], alternatives=[], line=[], position={}, nodes=1,
    )
    PuzzleRating.objects.create(user=alice, mu=26.0, sigma=7.0, solved=1, best_streak=1)
    Attempt.objects.create(puzzle=puzzle, user=alice, tile=[1, 2], end="left", correct=True, rated=True)
    token = tokens.create_token(user=alice, description="my bot", scopes=["challenge:write"])
    Challenge.objects.create(challenger=alice, dest=erin, preset="classic-draw")
    # An invitation sent (the fixture's member has one received; a row: she is seated at a live game).
    Invitation.objects.create(table=member_with_everything["room"], from_user=alice, to_user=erin)
    Challenge.objects.create(challenger=erin, dest=alice, preset="classic-draw")

    client = Client()
    client.force_login(alice)
    raw = client.get("/account/export/").content.decode()
    data = json.loads(raw)
    for (label, field), path in EXPORTED.items():
        model = apps.get_model(label)
        assert model.objects.filter(**{field: alice}).exists(), f"the fixture has no {label}.{field} of the member"
        assert _section(data, path), f"{label}.{field}: nothing in {'.'.join(path)}"
    assert [(row["direction"], row["member"]) for row in data["challenges"]] == [("sent", "erin"), ("received", "erin")]
    assert data["api_tokens"][0]["description"] == "my bot"
    assert data["api_tokens"][0]["scopes"] == ["challenge:write"]
    assert token.raw not in raw
    assert data["chat_mutes"] == [{"member": "bob", "table": ranked.pk, "tournament": None}]
    assert [row["correct"] for row in data["puzzle_answers"]] == [True]
    assert data["puzzle_rating"]["best_streak"] == 1
    assert [row["tournament"] for row in data["tournaments_created"]] == [tournament.pk]
    # Never a secret (the token's digest), nor the excluded: who reported, muted or blocked them.
    from api.models import AccessToken

    assert AccessToken.objects.get(user=alice).digest not in raw
