"""Muting a member in a tournament's chat (docs/moderation.md, "The
tournament chat"): the Mute button beside Report on the tournament page, the
lines gone for the member who muted (for them only, in that tournament only),
unmuted from the muted member's profile. A test of two apps: the community's
mute, the tournaments' page."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from community import services as community
from community.models import ChatMute
from tournaments import services

pytestmark = pytest.mark.django_db


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_player_mutes_another_in_the_tournament_chat_and_unmutes_from_the_profile(make_member) -> None:
    ada, bob, cleo = make_member("ada"), make_member("bob"), make_member("cleo")
    tournament = services.create_tournament(user=ada, format="arena", mode="duel-block", minutes=10, starts_in=5)
    other = services.create_tournament(user=ada, format="arena", mode="duel-block", minutes=10, starts_in=5)
    for member in (ada, bob, cleo):
        services.join(tournament=tournament, user=member)
        services.join(tournament=other, user=member)
    community.say_in_tournament(tournament_id=tournament.pk, user_id=ada.pk, text="you all play badly")
    community.say_in_tournament(tournament_id=other.pk, user_id=ada.pk, text="hello there")
    chat_url = f"/tournaments/{tournament.pk}/chat/"
    bob_client = _logged_in(bob)
    lines = bob_client.get(chat_url).content.decode()
    # A Mute button beside Report on another member's line, none on one's own.
    assert lines.count("data-chat-mute") == 1
    assert 'action="/u/ada/mute/"' in lines
    assert "data-chat-mute" not in _logged_in(ada).get(chat_url).content.decode()

    answer = bob_client.post("/u/ada/mute/", {"tournament": str(tournament.pk), "next": f"/tournaments/{tournament.pk}/#chat"})
    assert answer.status_code == 302
    assert answer["Location"] == f"/tournaments/{tournament.pk}/#chat"
    assert "you all play badly" not in bob_client.get(chat_url).content.decode()
    community.say_in_tournament(tournament_id=tournament.pk, user_id=ada.pk, text="still there")
    assert "still there" not in bob_client.get(chat_url).content.decode()
    # For him only, and in this tournament only.
    assert "still there" in _logged_in(cleo).get(chat_url).content.decode()
    assert "hello there" in bob_client.get(f"/tournaments/{other.pk}/chat/").content.decode()
    # In his data file, with where.
    data = json.loads(bob_client.get("/account/export/").content)
    assert data["chat_mutes"] == [{"member": "ada", "table": None, "tournament": tournament.pk}]
    # Unmuted from her profile: her lines come back.
    profile = bob_client.get("/u/ada/").content.decode()
    assert "data-unmute-form" in profile
    bob_client.post("/u/ada/mute/", {"tournament": str(tournament.pk), "mute": "0"})
    assert not ChatMute.objects.exists()
    assert "still there" in bob_client.get(chat_url).content.decode()


def test_only_a_member_who_wrote_in_that_chat_can_be_muted_there(make_member) -> None:
    ada, bob = make_member("ada"), make_member("bob")
    tournament = services.create_tournament(user=ada, format="arena", mode="duel-block", minutes=10, starts_in=5)
    client = _logged_in(bob)
    client.post("/u/ada/mute/", {"tournament": str(tournament.pk)})
    client.post("/u/bob/mute/", {"tournament": str(tournament.pk)})
    assert not ChatMute.objects.exists()
    assert client.post("/u/ada/mute/", {}).status_code == 400
    assert client.post("/u/ada/mute/", {"tournament": str(tournament.pk), "next": "https://evil.example/"})[
        "Location"
    ] == "/u/ada/"
