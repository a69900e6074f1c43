"""The tournaments' pages and routes (the page hooks other programs read), and
the published results file checked by the verifier."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games.tests.helpers import play_out
from games.verifier import Disagreement, verify_tournament
from lobby import broadcast
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)



@pytest.fixture(autouse=True)
def _no_lobby(monkeypatch):
    monkeypatch.setattr(broadcast, "send_to_users", lambda user_ids, frame: None)


def finished_arena(make_member, count=4):
    members = [make_member(f"member{index}") for index in range(count)]
    tournament = services.create_tournament(user=members[0], format="arena", mode="duel-block", minutes=10, starts_in=0)
    for member in members:
        services.join(tournament=tournament, user=member)
    services.tick(now=timezone.now() + timedelta(seconds=1))
    from games.models import Table as GameTable

    for round_ in range(2):
        for table in GameTable.objects.filter(tournament_game__tournament=tournament, status="playing"):
            play_out(table, seed=round_ + table.pk)
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    for table in GameTable.objects.filter(tournament_game__tournament=tournament, status="playing"):
        play_out(table, seed=table.pk)
    assert services.tick()["finished"] == 1
    tournament.refresh_from_db()
    return tournament, members


def test_create_join_withdraw_through_the_routes(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    response = client.post(
        "/tournaments/new/",
        {"format": "arena", "mode": "duel-draw", "minutes": "15", "rounds": "", "starts_in": "5", "rated": "on"},
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.mode, tournament.minutes, tournament.rated, tournament.private) == ("duel-draw", 15, True, False)
    page = client.get("/tournaments/").content.decode()
    assert f'data-tournament="{tournament.pk}" data-format="arena" data-status="created"' in page
    assert client.post(f"/tournaments/{tournament.pk}/join/").status_code == 303
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-standing data-player="alice" data-rank="1" data-score="0"' in page
    assert "data-countdown=" in page
    assert "data-withdraw" in page
    assert "data-berserk" in page
    assert client.post(f"/tournaments/{tournament.pk}/withdraw/").status_code == 303
    assert tournament.players.get().withdrawn


def test_a_bad_form_is_refused_with_its_reason_and_writes_nothing(client, make_member):
    client.force_login(make_member("alice"))
    response = client.post("/tournaments/new/", {"format": "arena", "mode": "pairs", "minutes": "10", "starts_in": "0"})
    assert response.status_code == 400
    assert "duel mode" in response.content.decode()
    response = client.post("/tournaments/new/", {"format": "arena", "mode": "duel-block", "minutes": "0", "starts_in": "0"})
    assert response.status_code == 400
    assert Tournament.objects.count() == 0


def test_visitors_see_the_list_in_french_and_must_log_in_to_create(client):
    page = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Tournois" in page
    response = client.post("/tournaments/new/", {"format": "arena"})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_a_private_tournament_is_seen_with_its_link_only(client, make_member):
    alice = make_member("alice")
    tournament = services.create_tournament(
        user=alice, format="arena", mode="duel-block", minutes=5, starts_in=5, private=True
    )
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 404
    assert client.get(f"/tournaments/{tournament.pk}/?key={tournament.token}").status_code == 200
    assert f'data-tournament="{tournament.pk}"' not in client.get("/tournaments/").content.decode()


def test_the_finished_page_shows_the_podium_and_publishes_results_anyone_can_verify(client, make_member, tmp_path):
    tournament, _members = finished_arena(make_member)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "data-podium" in page
    winner = tournament.final_standings[0]
    assert f'data-standing data-player="{winner["player"]}" data-rank="1" data-score="{winner["score"]}"' in page
    response = client.get(f"/tournaments/{tournament.pk}/results.json")
    assert response.status_code == 200
    data = json.loads(response.content)
    assert data["format"] == "arena"
    assert len(data["players"]) == 4
    assert len(data["games"]) == len(data["scores"]) >= 4
    report = verify_tournament(data)
    assert [row.player for row in report.standings] == [row["player"] for row in tournament.final_standings]

    path = tmp_path / "tournament.json"
    path.write_text(json.dumps(data))
    key = data["signature"]["public_key"]
    run = subprocess.run(
        [sys.executable, "-m", "games.engine.verify", "--tournament", str(path), "--key", key],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("OK")


def test_the_verifier_refuses_a_file_with_one_result_changed(client, make_member, tmp_path):
    from games.fairplay import signing

    tournament, _members = finished_arena(make_member)
    data = json.loads(client.get(f"/tournaments/{tournament.pk}/results.json").content)
    # One game's points changed, the file signed again (as a forger with the key would):
    # the recomputation refuses it anyway.
    forged = json.loads(json.dumps(data))
    forged["scores"][0]["points"][0] += 2
    with pytest.raises(Disagreement, match="scores"):
        verify_tournament(signing.sign(forged))
    # A changed standing, signed again.
    forged = json.loads(json.dumps(data))
    forged["standings"][0]["score"] += 1
    with pytest.raises(Disagreement, match="rank 1"):
        verify_tournament(signing.sign(forged))
    # A changed result without the key: the signature refuses it; the command says so and exits 1.
    forged = json.loads(json.dumps(data))
    forged["scores"][0]["points"][0] += 2
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    run = subprocess.run(
        [sys.executable, "-m", "games.engine.verify", "--tournament", str(path)],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 1
    assert "MISMATCH" in run.stdout
    # A game's winner changed inside its replay (and the file signed again): the replay check refuses it.
    forged = json.loads(json.dumps(data))
    forged["games"][0]["replay"]["final_scores"] = [999, 0]
    with pytest.raises(Disagreement, match="game 1"):
        verify_tournament(signing.sign(forged))


def test_results_are_not_published_before_the_end(client, make_member):
    tournament = services.create_tournament(
        user=make_member("alice"), format="arena", mode="duel-block", minutes=5, starts_in=5
    )
    assert client.get(f"/tournaments/{tournament.pk}/results.json").status_code == 404


def test_the_profile_shows_the_tournament_history_and_trophies(client, make_member):
    tournament, members = finished_arena(make_member)
    podium = {row["user_id"]: row["rank"] for row in tournament.final_standings}
    winner = next(member for member in members if podium[member.pk] == 1)
    private = services.create_tournament(
        user=winner, format="arena", mode="duel-draw", minutes=10, starts_in=30, private=True
    )
    services.join(tournament=private, user=winner)
    page = client.get(f"/u/{winner.username}/").content.decode()
    assert 'data-profile-tournaments data-gold="1" data-silver="0" data-bronze="0"' in page
    assert f'data-history="{tournament.pk}" data-status="finished" data-rank="1"' in page
    assert 'data-podium="1"' in page
    assert f'data-history="{private.pk}"' not in page  # a private tournament's link is not shown to others
    client.force_login(winner)
    page = client.get(f"/u/{winner.username}/").content.decode()
    assert f'data-history="{private.pk}" data-status="created"' in page
    last = next(member for member in members if podium[member.pk] == len(members))
    with translation.override("fr"):  # the request's language does not outlive the test
        page = client.get(f"/u/{last.username}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'data-gold="0" data-silver="0" data-bronze="0"' in page
    assert f'data-rank="{len(members)}"' in page
    assert "Historique des tournois" in page
    # A member who never played a tournament has no such panel.
    assert "data-profile-tournaments" not in client.get(f"/u/{make_member('newcomer').username}/").content.decode()
