"""The tournament's chat: its players write and read it on the tournament page
(the community's rules: filter, flood, troll, blocks); nobody else does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from community import services as community
from community.models import ChatLine
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def arena(make_member):
    ada, bob, cleo = make_member("ada"), make_member("bob"), make_member("cleo")
    tournament = services.create_tournament(user=ada, format="arena", mode="duel-block", minutes=10, starts_in=5)
    services.join(tournament=tournament, user=ada)
    services.join(tournament=tournament, user=bob)
    return tournament, ada, bob, cleo


def _lines(client: Client, tournament: Tournament) -> str:
    response = client.get(f"/tournaments/{tournament.pk}/chat/")
    assert response.status_code == 200
    return response.content.decode()


def test_players_chat_on_the_tournament_page_and_the_refresh_brings_the_lines(arena) -> None:
    tournament, ada, bob, _cleo = arena
    answer = _logged_in(ada).post(f"/tournaments/{tournament.pk}/chat/", {"text": "<b>good luck</b> all"})
    assert answer.status_code == 303
    assert answer["Location"].endswith(f"/tournaments/{tournament.pk}/#chat")
    line = ChatLine.objects.get()
    assert (line.tournament_id, line.table_id, line.room, line.text) == (
        tournament.pk, None, "tournament", "<b>good luck</b> all",
    )
    page = _logged_in(bob).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="chat"' in page
    # Text only: the markup shows as typed.
    assert "&lt;b&gt;good luck&lt;/b&gt; all" in page
    assert "<b>good luck</b>" not in page
    assert "&lt;b&gt;good luck&lt;/b&gt; all" in _lines(_logged_in(bob), tournament)


def test_only_the_players_read_and_write_it(arena, client) -> None:
    tournament, ada, _bob, cleo = arena
    community.say_in_tournament(tournament_id=tournament.pk, user_id=ada.pk, text="hello")
    outsider = _logged_in(cleo)
    assert outsider.get(f"/tournaments/{tournament.pk}/chat/").status_code == 404
    assert 'id="chat"' not in outsider.get(f"/tournaments/{tournament.pk}/").content.decode()
    refused = outsider.post(f"/tournaments/{tournament.pk}/chat/", {"text": "let me in"}, follow=True)
    assert "Only the tournament&#x27;s players write in its chat." in refused.content.decode()
    assert client.get(f"/tournaments/{tournament.pk}/chat/").status_code == 404  # a guest
    assert client.post(f"/tournaments/{tournament.pk}/chat/", {"text": "hi"}).status_code == 302
    assert list(ChatLine.objects.values_list("text", flat=True)) == ["hello"]


def test_the_table_chat_s_rules_apply_filter_flood_repeat_and_timeout(arena) -> None:
    tournament, ada, bob, _cleo = arena
    client = _logged_in(ada)
    url = f"/tournaments/{tournament.pk}/chat/"
    client.post(url, {"text": "you are an asshole"})
    assert ChatLine.objects.get().text == "you are an ***"
    assert "You have just said that." in client.post(url, {"text": "YOU are an asshole"}, follow=True).content.decode()
    for index in range(4):
        client.post(url, {"text": f"line {index}"})
    too_fast = client.post(url, {"text": "one more"}, follow=True).content.decode()
    assert "You are writing too fast" in too_fast
    assert ChatLine.objects.count() == 5
    moderator = get_user_model().objects.create_user("mod", is_staff=True)
    community.chat_timeout(member=bob, moderator=moderator, reason="insults", hours=1)
    refused = _logged_in(bob).post(url, {"text": "hello"}, follow=True).content.decode()
    assert "A moderator closed the chat to you until" in refused
    assert "insults" in refused
    assert not ChatLine.objects.filter(author=bob).exists()


def test_a_troll_s_lines_reach_only_themselves_and_a_blocker_does_not_see_the_blocked(arena, make_member) -> None:
    tournament, ada, bob, _cleo = arena
    dan = make_member("dan")
    services.join(tournament=tournament, user=dan)
    moderator = get_user_model().objects.create_user("mod", is_staff=True)
    community.mark_troll(member=ada, moderator=moderator, reason="spam")
    community.say_in_tournament(tournament_id=tournament.pk, user_id=ada.pk, text="buy chips")
    community.block(blocker=dan, blocked=bob)
    community.say_in_tournament(tournament_id=tournament.pk, user_id=bob.pk, text="hi dan")
    assert "buy chips" in _lines(_logged_in(ada), tournament)
    assert "buy chips" not in _lines(_logged_in(bob), tournament)
    seen_by_dan = _lines(_logged_in(dan), tournament)
    assert "buy chips" not in seen_by_dan
    assert "hi dan" not in seen_by_dan
    assert "hi dan" in _lines(_logged_in(bob), tournament)


def test_a_tournament_s_chat_is_apart_from_another_s(arena, make_member) -> None:
    tournament, ada, _bob, _cleo = arena
    other = services.create_tournament(
        user=ada, format="arena", mode="duel-block", minutes=10, starts_in=5
    )
    services.join(tournament=other, user=ada)
    community.say_in_tournament(tournament_id=tournament.pk, user_id=ada.pk, text="first")
    community.say_in_tournament(
        tournament_id=other.pk, user_id=ada.pk, text="first", now=timezone.now() + timedelta(seconds=1)
    )
    assert ChatLine.objects.filter(tournament_id=other.pk).count() == 1
    assert _lines(_logged_in(ada), tournament).count("first") == 1


def test_another_player_s_line_can_be_reported_with_the_tournament_and_their_lines_attached(arena) -> None:
    from community.models import Report

    tournament, ada, bob, _cleo = arena
    community.say_in_tournament(tournament_id=tournament.pk, user_id=ada.pk, text="you all play badly")
    community.say_in_tournament(tournament_id=tournament.pk, user_id=ada.pk, text="and slowly")
    community.say_in_tournament(tournament_id=tournament.pk, user_id=bob.pk, text="be nice")
    first = ChatLine.objects.get(text="you all play badly")
    reader = _logged_in(bob)
    lines = _lines(reader, tournament)
    # A Report link on the other member's lines, none on one's own.
    assert f'href="/u/ada/?report_line={first.pk}#report"' in lines
    assert "/u/bob/?report_line=" not in lines
    assert lines.count("data-chat-report") == 2
    # It opens the profile's report form with the line attached, and the site attaches the evidence.
    form = reader.get(f"/u/ada/?report_line={first.pk}").content.decode()
    assert "you all play badly" in form
    response = reader.post("/u/ada/report/", {"reason": "abuse", "text": "", "chat_line": str(first.pk)})
    assert response.status_code == 302
    report = Report.objects.get()
    assert report.chat_line == first
    assert report.evidence["tournament"] == tournament.pk
    assert [line["text"] for line in report.evidence["chat"]] == ["you all play badly", "and slowly"]
    # In French.
    reader.cookies["django_language"] = "fr"
    assert "Signaler" in _lines(reader, tournament)
