"""Eight members play a four-player free-for-all arena to its end through the
services: tables of four, placement points once per game, the end, the
podium, the ratings, and the published results the verifier recomputes (and
refuses once one result is changed)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import RatedGame, Rating
from games.fairplay import signing
from games.models import Game, Table
from games.play import selectors as game_selectors
from games.tests.helpers import play_out
from games.verifier import Disagreement, verify_tournament
from games.verifier.arena import PLACE_POINTS, placements, replay_standings
from tournaments import results, services
from tournaments.models import GameSeat, Player, Score, Tournament, TournamentGame
from tournaments.tests.helpers import finished_count, live_tables

pytestmark = pytest.mark.django_db(transaction=True)





def test_eight_members_play_a_four_player_arena_to_its_end(make_member, lobby_frames):
    members = [make_member(f"four{index}") for index in range(8)]
    tournament = services.create_tournament(
        user=members[0], format="arena", mode="four", minutes=30, starts_in=0, rated=True
    )
    for member in members:
        services.join(tournament=tournament, user=member)
    report = services.tick(now=timezone.now() + timedelta(seconds=1))
    assert report["started"] == 1
    assert report["paired"] >= 2
    for user_ids, frame in lobby_frames:
        table = Table.objects.get(pk=frame["table"])
        assert frame["type"] == "matched"
        assert frame["tournament"] == tournament.pk
        assert sorted(user_ids) == sorted(table.seats.values_list("user_id", flat=True))
        assert len(set(user_ids)) == 4
        assert (table.kind, table.mode) == (Table.Kind.RANKED, "four")

    # Two waves played out: each game is scored and its four players seated again at once.
    for wave in range(2):
        for table in live_tables(tournament):
            play_out(table, seed=wave * 10 + table.pk)
    played = finished_count(tournament)
    assert played >= 4
    assert Score.objects.filter(game__tournament=tournament).count() == 4 * played
    # Two tables of four again, nobody at two of them.
    tables = live_tables(tournament)
    assert len(tables) == 2
    seated = [user_id for table in tables for user_id in table.seats.values_list("user_id", flat=True)]
    assert sorted(seated) == sorted(member.pk for member in members)

    # Time is up: the games still playing finish within the grace and count; then the end, once.
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert services.tick()["finished"] == 0
    for table in live_tables(tournament):
        play_out(table, seed=table.pk)
    played = finished_count(tournament)
    assert services.tick()["finished"] == 1
    assert services.tick()["finished"] == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Score.objects.filter(game__tournament=tournament).count() == 4 * played

    # Every game scored its places: the winner 5 (10 on a streak), the places from the final state.
    for tournament_game in TournamentGame.objects.filter(tournament=tournament):
        state = game_selectors.game_state(Game.objects.get(table_id=tournament_game.table_id))
        places = placements(state.scores, winner=state.winner, resigned=state.resigned)
        seats = list(GameSeat.objects.filter(game=tournament_game).order_by("number"))
        points = {score.player_id: score.points for score in Score.objects.filter(game=tournament_game)}
        for seat, place in zip(seats, places, strict=True):
            assert points[seat.player_id] in (PLACE_POINTS[place - 1], 2 * PLACE_POINTS[place - 1])
        assert sorted(places)[0] == 1
        assert state.winner is not None

    # The standings are the rules replayed over the games in the order scored.
    players = list(Player.objects.filter(tournament=tournament).order_by("joined_at", "pk"))
    order = list(
        dict.fromkeys(
            Score.objects.filter(game__tournament=tournament).order_by("pk").values_list("game_id", flat=True)
        )
    )
    games = []
    for game_id in order:
        tournament_game = TournamentGame.objects.get(pk=game_id)
        seats = list(GameSeat.objects.filter(game=tournament_game).order_by("number").select_related("player__user"))
        facts = services.game_facts(Game.objects.get(table_id=tournament_game.table_id), seats)
        games.append([(seat.player.user.username, fact) for seat, fact in zip(seats, facts, strict=True)])
    _sheets, _points, expected = replay_standings([player.user.username for player in players], games)
    assert [(row["player"], row["score"], row["rank"], row["wins"]) for row in tournament.final_standings] == [
        (row.player, row.score, row.rank, row.wins) for row in expected
    ]
    # One first place per game.
    assert sum(row["wins"] for row in tournament.final_standings) == played

    # Rated in the four-player mode like any ranked game.
    assert RatedGame.objects.filter(game__table__tournament_game__tournament=tournament).count() == played
    for player in players:
        assert Rating.objects.get(user=player.user, mode="four").games == player.games

    # The published results: recomputed by the verifier, refused once one result is changed.
    data = json.loads(json.dumps(results.build_results(tournament)))
    assert data["mode"] == "four"
    assert data["scoring"]["places"] == [5, 3, 1, 0]
    report = verify_tournament(data)
    assert [row.player for row in report.standings] == [row["player"] for row in tournament.final_standings]
    forged = json.loads(json.dumps(data))
    forged["scores"][0]["points"][0] += 1
    with pytest.raises(Disagreement, match="scores"):
        verify_tournament(signing.sign(forged))
    forged = json.loads(json.dumps(data))
    forged["scoring"]["places"] = [6, 3, 1, 0]
    with pytest.raises(Disagreement, match="scoring rules"):
        verify_tournament(signing.sign(forged))
    forged = json.loads(json.dumps(data))
    forged["mode"] = "duel-block"
    forged["scoring"] = {"win": 2, "draw": 1, "streak_after": 2, "berserk_bonus": 1, "berserk_tiles": 3}
    with pytest.raises(Disagreement, match="not a game of 2 players"):
        verify_tournament(signing.sign(forged))


def test_the_four_player_arena_is_created_through_the_form(client, make_member):
    client.force_login(make_member("alice"))
    page = client.get("/tournaments/new/").content.decode()
    assert 'value="four"' in page
    response = client.post(
        "/tournaments/new/", {"format": "arena", "mode": "four", "minutes": "20", "starts_in": "5", "rated": "on"}
    )
    assert response.status_code == 302
    assert Tournament.objects.get().mode == "four"


def test_berserk_in_a_four_player_arena_halves_the_player_s_turn_at_their_table(make_member, lobby_frames):
    members = [make_member(f"berserk{index}") for index in range(4)]
    tournament = services.create_tournament(user=members[0], format="arena", mode="four", minutes=10, starts_in=0)
    for member in members:
        services.join(tournament=tournament, user=member)
    services.berserk(tournament=tournament, user=members[2])
    services.tick(now=timezone.now() + timedelta(seconds=1))
    # The first table (a deal over at its opening would be followed by another at once).
    seat = GameSeat.objects.filter(player__user=members[2]).order_by("game_id").first()
    assert seat.berserk is True
    turns = dict(seat.game.table.seats.values_list("user_id", "turn_percent"))
    assert turns == {member.pk: 50 if member == members[2] else 100 for member in members}
    assert not Player.objects.filter(tournament=tournament, berserk=True).exists()
