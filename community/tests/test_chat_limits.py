"""The chat's rules, at the service: members only, a timeout told with its
reason, the insult filter, flood and repeated lines."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from community import selectors, services
from community.models import ChatLine
from games.signals import ChatRefused
from games.tests.helpers import ranked_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_member):
    ada, bob = make_member("ada"), make_member("bob")
    return ranked_table([ada, bob]), ada, bob


def _say(table, user, text, **kwargs):
    return services.say(table_id=table.pk, game_id=None, seat=0, user_id=user.pk if user else None, text=text, **kwargs)


def test_insults_in_french_and_english_are_masked_and_shouting_lowered(table) -> None:
    table, ada, _bob = table
    assert _say(table, ada, "espèce de connard").frame["text"] == "espèce de ***"
    assert _say(table, ada, "you are an asshole").frame["text"] == "you are an ***"
    assert _say(table, ada, "WELL PLAYED MY FRIEND").frame["text"] == "well played my friend"
    assert _say(table, ada, "je vais bosser").frame["text"] == "je vais bosser"  # not an insult
    assert list(ChatLine.objects.order_by("pk").values_list("filtered", flat=True)) == [True, True, False, False]


def test_flood_and_a_line_said_again_are_refused(table) -> None:
    table, ada, _bob = table
    now = timezone.now()
    _say(table, ada, "gg", now=now)
    with pytest.raises(ChatRefused) as repeated:
        _say(table, ada, "GG", now=now + timedelta(seconds=5))
    assert repeated.value.code == "repeated"
    _say(table, ada, "gg", now=now + timedelta(seconds=services.REPEAT_SECONDS + 1))  # later, fine
    later = now + timedelta(minutes=10)
    for number in range(services.FLOOD_LINES):
        _say(table, ada, f"line {number}", now=later)
    with pytest.raises(ChatRefused) as flood:
        _say(table, ada, "one more", now=later + timedelta(seconds=1))
    assert flood.value.code == "rate_limited"
    _say(table, ada, "one more", now=later + timedelta(seconds=services.FLOOD_SECONDS + 1))
    assert ChatLine.objects.count() == 2 + services.FLOOD_LINES + 1


def test_a_chat_timeout_tells_its_reason_and_ends_on_time(table, make_member) -> None:
    table, ada, _bob = table
    moderator = make_member("mod")
    now = timezone.now()
    services.chat_timeout(member=ada, moderator=moderator, reason="insults at table 3", hours=1, now=now)
    with pytest.raises(ChatRefused) as refused:
        _say(table, ada, "hello", now=now + timedelta(minutes=59))
    assert refused.value.code == "chat_timeout"
    assert "insults at table 3" in refused.value.message
    assert ChatLine.objects.count() == 0
    _say(table, ada, "hello", now=now + timedelta(minutes=61))
    assert ChatLine.objects.count() == 1


def test_a_member_who_muted_the_table_s_chat_reads_none_of_it_even_on_the_replay(table) -> None:
    table, ada, bob = table
    _say(table, ada, "hello bob")
    services.mute_table(table_id=table.pk, user_id=bob.pk, mute=True)
    rooms = [ChatLine.Room.PLAYERS]
    assert selectors.lines_for(table_id=table.pk, rooms=rooms, viewer_id=bob.pk, limit=None) == []
    assert [f["text"] for f in selectors.lines_for(table_id=table.pk, rooms=rooms, viewer_id=ada.pk, limit=None)] == [
        "hello bob"
    ]
    services.mute_table(table_id=table.pk, user_id=bob.pk, mute=False)
    assert [f["text"] for f in selectors.lines_for(table_id=table.pk, rooms=rooms, viewer_id=bob.pk, limit=None)] == [
        "hello bob"
    ]


def test_guests_do_not_write(table) -> None:
    table, _ada, _bob = table
    with pytest.raises(ChatRefused) as refused:
        _say(table, None, "hello")
    assert refused.value.code == "not_allowed"
