"""A finished duplicate tournament's page in headless Chromium, on a phone in
English and on a desktop in French: the rounds with their commitments and
revealed seeds, the matchpoint standings in percent and the podium, nothing
wider than the screen. Screenshots go to test-artifacts/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

SETUP = """
from datetime import timedelta
from django.contrib.auth.models import User
from games.models import Table
from games.tests.helpers import play_out
from tournaments import services
from tournaments.models import Round

members = [User.objects.create_user(f"duplicate{index}-SUFFIX", password="x" * 12) for index in range(4)]
tournament = services.create_tournament(
    user=members[0], format="duplicate", mode="duel-block", minutes=5, rounds=2, starts_in=0
)
for member in members:
    services.join(tournament=tournament, user=member)
for number, round in enumerate(Round.objects.filter(tournament=tournament).order_by("number")):
    services.tick(now=round.starts_at + timedelta(seconds=1))
    for table in Table.objects.filter(tournament_game__round=round):
        play_out(table, seed=table.pk)
    services.tick(now=round.starts_at + timedelta(seconds=30))
tournament.refresh_from_db()
assert tournament.status == "finished", tournament.status
print("TOURNAMENT", tournament.pk)
"""


def finished_duplicate(site_server, suffix: str) -> int:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SETUP.replace("SUFFIX", suffix)],
        cwd=ROOT,
        env=site_server.env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith("TOURNAMENT "))
    return int(line.split()[1])


@pytest.mark.parametrize(
    ("locale", "viewport", "name", "words"),
    [
        ("en-GB", {"width": 390, "height": 844}, "duplicate-phone-en", ("Rounds", "Seed", "Podium")),
        ("fr-FR", {"width": 1280, "height": 900}, "duplicate-desktop-fr", ("Rondes", "Graine", "Podium")),
    ],
)
def test_a_finished_duplicate_page(new_context, site_server, locale, viewport, name, words) -> None:
    tournament = finished_duplicate(site_server, name)
    context = new_context(locale=locale, viewport=viewport)
    page = context.new_page()
    response = page.goto(f"{site_server.url}/tournaments/{tournament}/")
    assert response is not None
    assert response.status == 200
    text = page.inner_text("body")
    for word in words:
        assert word in text
    assert page.locator("[data-round]").count() == 2
    assert page.locator("[data-revealed-seed]").count() == 2
    rows = page.locator("[data-standing]")
    assert rows.count() == 4
    assert all("." in (rows.nth(index).get_attribute("data-score") or "") for index in range(4))
    assert page.locator("[data-podium-place]").count() == 3
    # Nothing is wider than the screen (the long hex strings wrap).
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    listing = page.goto(f"{site_server.url}/tournaments/")
    assert listing is not None
    assert page.locator(f'[data-tournament="{tournament}"][data-format="duplicate"][data-status="finished"]').count() == 1


RUNNING = """
from datetime import timedelta
from django.contrib.auth.models import User
from tournaments import services
from tournaments.tests.helpers import rounds_played_by_people

members = [User.objects.create_user(f"running{index}-SUFFIX", password="x" * 12) for index in range(2)]
tournament = services.create_tournament(
    user=members[0], format="duplicate", mode="duel-block", minutes=5, rounds=2, starts_in=0
)
rounds_played_by_people(tournament)  # round 1 must still be playing
for member in members:
    services.join(tournament=tournament, user=member)
services.tick(now=tournament.starts_at + timedelta(seconds=1))
print("TOURNAMENT", tournament.pk)
"""


def test_a_running_duplicate_page_counts_down_to_its_round_end(new_context, site_server) -> None:
    """French on a phone: "La ronde 1 se termine dans" and the clock ticking
    (docs/tournaments.md, "Duplicate")."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", RUNNING.replace("SUFFIX", "countdown")],
        cwd=ROOT,
        env=site_server.env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    tournament = next(line for line in done.stdout.splitlines() if line.startswith("TOURNAMENT ")).split()[1]
    context = new_context(locale="fr-FR", viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site_server.url}/tournaments/{tournament}/")
    countdown = page.locator('[data-countdown][data-countdown-round="1"][data-countdown-to="end"]')
    assert "La ronde 1 se termine dans" in countdown.inner_text()
    first = countdown.locator("[data-countdown-text]").inner_text()
    assert first.startswith("4:") or first == "5:00", first
    page.wait_for_function(
        "(first) => document.querySelector('[data-countdown-text]').textContent !== first", arg=first, timeout=10000
    )
    assert not errors
