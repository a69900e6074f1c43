"""A duplicate tournament's page counts down to its rounds (docs/tournaments.md,
"Duplicate"): the next round's start, and while a round is playing, its end;
the rule (`duplicate.round_countdown`) at the edges, and the page in English
and French as the rounds go."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from games.models import Table
from games.tests.helpers import play_out
from lobby import broadcast
from tournaments import duplicate, services
from tournaments.duplicate import RoundCountdown, RoundView

START = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def views(*statuses: str) -> list[RoundView]:
    """Rounds of 5 minutes from START, with these statuses."""
    return [
        RoundView(
            number=index + 1,
            starts_at=START + timedelta(minutes=5 * index),
            ends_at=START + timedelta(minutes=5 * (index + 1)),
            commitment="",
            seed="",
            status=status,
            tables=0,
            computer_tables=[],
        )
        for index, status in enumerate(statuses)
    ]


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def test_before_the_start_it_counts_to_the_first_round():
    assert duplicate.round_countdown(views("coming", "coming"), at(-2)) == RoundCountdown(1, "start", 120)


def test_while_a_round_plays_it_counts_to_its_end():
    assert duplicate.round_countdown(views("playing", "coming"), at(1)) == RoundCountdown(1, "end", 240)


def test_a_round_over_early_counts_to_the_next_start():
    assert duplicate.round_countdown(views("over", "coming"), at(3)) == RoundCountdown(2, "start", 120)


def test_a_round_in_its_grace_gives_way_to_the_next_one_playing():
    assert duplicate.round_countdown(views("playing", "playing"), at(6)) == RoundCountdown(2, "end", 240)


def test_a_round_whose_time_has_come_waits_at_zero_for_the_tick():
    assert duplicate.round_countdown(views("over", "coming"), at(5.1)) == RoundCountdown(2, "start", 0)


def test_nothing_to_count_in_the_last_grace_or_once_over():
    assert duplicate.round_countdown(views("over", "playing"), at(10.5)) is None
    assert duplicate.round_countdown(views("over", "over"), at(11)) is None


@pytest.mark.django_db(transaction=True)
def test_the_page_counts_down_to_each_round_in_english_and_french(client, make_member, monkeypatch):
    monkeypatch.setattr(broadcast, "send_to_users", lambda user_ids, frame: None)
    members = [make_member(name) for name in ("ana", "ben")]
    tournament = services.create_tournament(
        user=members[0], format="duplicate", mode="duel-block", minutes=5, rounds=2, starts_in=0
    )
    for member in members:
        services.join(tournament=tournament, user=member)

    def countdown(language: str) -> tuple[str, str, int, str]:
        with translation.override(language):
            html = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        found = re.search(
            r'data-countdown="(\d+)" data-countdown-round="(\d)" data-countdown-to="(\w+)"[^>]*>\s*([^<]*?)\s*<strong',
            html,
        )
        assert found, html
        return found[2], found[3], int(found[1]), found[4]

    number, to, _seconds, text = countdown("en")
    assert (number, to, text) == ("1", "start", "Round 1 starts in")
    services.tick(now=tournament.starts_at + timedelta(seconds=1))
    number, to, seconds, text = countdown("en")
    assert (number, to, text) == ("1", "end", "Round 1 ends in")
    assert 280 <= seconds <= 300
    assert countdown("fr")[3] == "La ronde 1 se termine dans"
    for table in Table.objects.filter(tournament_game__tournament=tournament):
        play_out(table, seed=table.pk)
    services.tick(now=tournament.starts_at + timedelta(seconds=30))  # the round is over: its tables are
    number, to, seconds, text = countdown("en")
    assert (number, to, text) == ("2", "start", "Round 2 starts in")
    assert 280 <= seconds <= 300
    assert countdown("fr")[3] == "La ronde 2 commence dans"
