"""The pages of a duplicate tournament, in English and in French: the form,
the card on /tournaments/, the rounds with their commitments (and the seeds
once revealed), the computer opponent marked as such, the matchpoint
standings in percent and the podium."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import translation

from games.fairplay import signing
from games.models import Table
from games.tests.helpers import play_out
from lobby import broadcast
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_lobby(monkeypatch):
    monkeypatch.setattr(broadcast, "send_to_users", lambda user_ids, frame: None)


def page(client, tournament, language):
    with translation.override(language):  # the request's language does not outlive the test
        return client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_a_member_creates_a_duplicate_tournament_and_its_page_shows_the_rounds(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    response = client.post(
        "/tournaments/new/",
        {"format": "duplicate", "mode": "duel-draw", "minutes": "8", "rounds": "3", "starts_in": "5", "rated": "on"},
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.format, tournament.rounds, tournament.minutes) == ("duplicate", 3, 8)
    assert tournament.ends_at - tournament.starts_at == timedelta(minutes=24)
    listing = client.get("/tournaments/").content.decode()
    assert f'data-tournament="{tournament.pk}" data-format="duplicate" data-status="created"' in listing
    assert client.post(f"/tournaments/{tournament.pk}/join/").status_code == 303
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    english = page(client, tournament, "en")
    assert english.count("data-round=") == 3
    assert 'data-current-round="1"' in english
    assert rounds[0].commitment in english
    assert all(round.seed not in english for round in rounds)
    assert "How duplicate scores" in english
    assert "matchpoints" in english
    assert "data-berserk" not in english
    assert 'data-standing data-player="alice" data-rank="1" data-score="0.00"' in english
    french = page(client, tournament, "fr")
    assert "Rondes" in french
    assert "points de match" in french
    assert "La graine est révélée une fois la ronde terminée." in french


def test_a_finished_duplicate_shows_the_seeds_the_computer_and_the_podium(client, make_member, tmp_path):
    members = [make_member(name) for name in ("ana", "ben", "cy")]
    tournament = services.create_tournament(
        user=members[0], format="duplicate", mode="duel-block", minutes=5, rounds=1, starts_in=0
    )
    for member in members:
        services.join(tournament=tournament, user=member)
    services.tick(now=tournament.starts_at + timedelta(seconds=1))
    running = page(client, tournament, "en")
    assert "data-computer-opponent" in running
    assert "medium level" in running
    assert "Games in progress" not in running  # a round's tables are not watched
    for table in Table.objects.filter(tournament_game__tournament=tournament):
        play_out(table, seed=table.pk)
    services.tick(now=tournament.starts_at + timedelta(seconds=30))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    seed = Round.objects.get(tournament=tournament).seed
    for language, words in (("en", ("Podium", "Seed")), ("fr", ("Podium", "Graine"))):
        shown = page(client, tournament, language)
        assert seed in shown
        assert "data-revealed-seed" in shown
        assert "data-podium" in shown
        for word in words:
            assert word in shown
        for row in tournament.final_standings:
            assert f'data-player="{row["player"]}" data-rank="{row["rank"]}" data-score="{row["score"]}"' in shown
            assert f'{row["score"]} %' in shown
    response = client.get(f"/tournaments/{tournament.pk}/results.json")
    assert response.status_code == 200
    data = response.json()
    assert data["format"] == "duplicate"
    assert data["rounds"][0]["seed"] == seed
    # The command anyone runs: OK, then one matchpoint changed and signed again is refused.
    key = signing.public_key_hex()
    path = tmp_path / f"tournament-{tournament.pk}.json"
    path.write_text(json.dumps(data))
    run = subprocess.run(
        [sys.executable, "-m", "games.engine.verify", "--tournament", str(path), "--key", key],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("OK")
    data.pop("signature")
    data["rounds"][0]["results"][0]["matchpoints"] += 1
    path.write_text(json.dumps(signing.sign(data)))
    run = subprocess.run(
        [sys.executable, "-m", "games.engine.verify", "--tournament", str(path), "--key", key],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert "MISMATCH" in run.stdout + run.stderr
