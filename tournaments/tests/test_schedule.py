"""The schedule: hourly, daily and weekly tournaments created by the periodic
tick from the settings table, once per slot, and the home page's next
tournament."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation

from games.engine import commit_seed
from games.signals import periodic_tick
from tournaments import services
from tournaments.admin import ScheduleForm
from tournaments.models import Round, Schedule, Tournament

pytestmark = pytest.mark.django_db

# A Wednesday.
NOW = datetime(2026, 12, 2, 10, 20, 30, tzinfo=UTC)


def schedule(**fields) -> Schedule:
    values = {"name": "Hourly blitz", "mode": "duel-block", "minutes": 30, "cadence": "hourly", "lead_minutes": 60}
    values.update(fields)
    return Schedule.objects.create(**values)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"cadence": "hourly", "minute": 0}, datetime(2026, 12, 2, 11, 0, tzinfo=UTC)),
        ({"cadence": "hourly", "minute": 45}, datetime(2026, 12, 2, 10, 45, tzinfo=UTC)),
        ({"cadence": "daily", "hour": 10, "minute": 20}, datetime(2026, 12, 3, 10, 20, tzinfo=UTC)),
        ({"cadence": "daily", "hour": 18, "minute": 0}, datetime(2026, 12, 2, 18, 0, tzinfo=UTC)),
        ({"cadence": "weekly", "weekday": 2, "hour": 20}, datetime(2026, 12, 2, 20, 0, tzinfo=UTC)),
        ({"cadence": "weekly", "weekday": 2, "hour": 9}, datetime(2026, 12, 9, 9, 0, tzinfo=UTC)),
        ({"cadence": "weekly", "weekday": 0, "hour": 9}, datetime(2026, 12, 7, 9, 0, tzinfo=UTC)),
    ],
)
def test_the_next_slot_of_each_cadence(fields, expected) -> None:
    assert services.next_slot(schedule(**fields), NOW) == expected


def test_the_tick_creates_each_slot_once() -> None:
    hourly = schedule(minute=0)
    daily = schedule(name="Daily", cadence="daily", hour=20, minute=0, minutes=60, rated=False)
    # Within the hourly's lead (40 minutes before 11:00), not the daily's (20:00).
    assert services.schedule_due(now=NOW) == 1
    (tournament,) = Tournament.objects.all()
    assert tournament.schedule == hourly
    assert tournament.starts_at == datetime(2026, 12, 2, 11, 0, tzinfo=UTC)
    assert tournament.ends_at == tournament.starts_at + timedelta(minutes=30)
    assert (tournament.mode, tournament.format, tournament.rated, tournament.private) == (
        "duel-block",
        "arena",
        True,
        False,
    )
    assert tournament.status == Tournament.Status.CREATED
    # Another tick in the same slot creates nothing.
    assert services.schedule_due(now=NOW + timedelta(minutes=5)) == 0
    # The daily comes within its lead; the next hour's tournament after this one starts.
    assert services.schedule_due(now=datetime(2026, 12, 2, 19, 30, tzinfo=UTC)) == 2
    assert Tournament.objects.filter(schedule=daily, starts_at=datetime(2026, 12, 2, 20, 0, tzinfo=UTC)).exists()
    assert not Tournament.objects.get(schedule=daily).rated
    assert Tournament.objects.filter(schedule=hourly).count() == 2


def test_a_slot_is_unique_in_the_database() -> None:
    hourly = schedule()
    starts_at = datetime(2026, 12, 2, 11, 0, tzinfo=UTC)
    fields = {"mode": "duel-block", "minutes": 30, "schedule": hourly, "starts_at": starts_at, "ends_at": starts_at}
    Tournament.objects.create(**fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(**fields)


def test_inactive_or_invalid_schedules_create_nothing() -> None:
    schedule(active=False)
    schedule(name="Four players", mode="four-ffa")
    schedule(name="Duplicate", format="duplicate")
    assert services.schedule_due(now=NOW) == 0
    assert not Tournament.objects.exists()


def test_the_periodic_tick_runs_the_schedule() -> None:
    schedule(minute=0, lead_minutes=24 * 60)
    reports = [report for _receiver, report in periodic_tick.send(None)]
    assert {"tournaments": {"scheduled": 1, "started": 0, "scored": 0, "paired": 0, "finished": 0}} in reports
    assert Tournament.objects.filter(schedule__isnull=False).count() == 1


def test_the_admin_form_refuses_what_the_service_would() -> None:
    data = {
        "name": "Weekly",
        "mode": "duel-draw",
        "format": "duplicate",
        "minutes": 60,
        "rated": True,
        "cadence": "weekly",
        "minute": 0,
        "hour": 20,
        "weekday": 6,
        "lead_minutes": 120,
        "active": True,
    }
    form = ScheduleForm(data=data)
    with translation.override("en"):
        assert not form.is_valid()  # a duplicate without rounds
        assert "from 1 to 12 rounds" in str(form.errors)
        form = ScheduleForm(data={**data, "rounds": 13})
        assert not form.is_valid()
        assert "from 1 to 12 rounds" in str(form.errors)
        form = ScheduleForm(data={**data, "rounds": 3, "mode": "four"})
        assert not form.is_valid()
        assert "duel mode" in str(form.errors)
    form = ScheduleForm(data={**data, "format": "arena", "minutes": 500})
    assert not form.is_valid()
    form = ScheduleForm(data={**data, "format": "arena", "rounds": 4})
    assert form.is_valid(), form.errors
    form.save()
    arena = Schedule.objects.get()
    assert (arena.cadence, arena.rounds) == ("weekly", 0)  # an arena has no rounds
    form = ScheduleForm(data={**data, "name": "Weekly duplicate", "rounds": 3, "minutes": 20})
    assert form.is_valid(), form.errors
    form.save()
    scheduled = Schedule.objects.get(name="Weekly duplicate")
    assert (scheduled.format, scheduled.rounds, scheduled.minutes) == ("duplicate", 3, 20)


def test_the_tick_creates_a_scheduled_duplicate_tournament_with_its_rounds() -> None:
    daily = schedule(
        name="Daily duplicate", format="duplicate", rounds=3, minutes=15, cadence="daily", hour=11, minute=0
    )
    assert services.schedule_due(now=NOW) == 1
    tournament = Tournament.objects.get(schedule=daily)
    starts_at = datetime(2026, 12, 2, 11, 0, tzinfo=UTC)
    assert (tournament.format, tournament.mode, tournament.rounds, tournament.minutes) == (
        "duplicate",
        "duel-block",
        3,
        15,
    )
    assert tournament.starts_at == starts_at
    assert tournament.ends_at == starts_at + timedelta(minutes=45)
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [round.starts_at for round in rounds] == [starts_at + timedelta(minutes=15 * n) for n in range(3)]
    assert all(round.commitment == commit_seed(round.seed) for round in rounds)
    assert len({round.seed for round in rounds}) == 3
    assert services.schedule_due(now=NOW + timedelta(minutes=1)) == 0


def test_the_home_page_shows_the_next_tournament(client, make_member) -> None:
    assert b"data-next-tournament" not in client.get(reverse("games:home")).content
    member = make_member("host")
    later = services.create_tournament(user=member, format="arena", mode="duel-block", minutes=10, starts_in=90)
    sooner = services.create_tournament(user=member, format="arena", mode="duel-draw", minutes=20, starts_in=30)
    services.create_tournament(
        user=member, format="arena", mode="duel-draw", minutes=20, starts_in=5, private=True
    )
    page = client.get(reverse("games:home")).content.decode()
    assert f'data-next-tournament="{sooner.pk}"' in page
    assert f'data-next-tournament="{later.pk}"' not in page
    assert f'href="/tournaments/{sooner.pk}/"' in page
    client.cookies["django_language"] = "fr"
    with translation.override("fr"):  # the request's language does not outlive the test
        page = client.get(reverse("games:home"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Prochain tournoi" in page
