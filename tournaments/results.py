"""The published results file of a finished tournament (``results.json``,
docs/tournaments.md): its players, every scored game with its replay.json,
each game's points and the frozen standings, signed like replay.json
(games.fairplay.signing). ``python -m games.engine.verify --tournament FILE``
recomputes it all (games.verifier.tournament). Reads only."""

from __future__ import annotations

from typing import Any

from django.db.models import Min

from games.fairplay import fairness, signing
from games.models import Game
from games.verifier import duplicate
from games.verifier.tournament import KIND, VERSION, scoring_rules
from tournaments import duplicate as rounds
from tournaments.models import GameSeat, Player, Round, Score, Tournament, TournamentGame


def build_results(tournament: Tournament) -> dict[str, Any]:
    if tournament.status != Tournament.Status.FINISHED:
        raise ValueError("the results are published once the tournament is over")
    if tournament.format == Tournament.Format.DUPLICATE:
        return build_duplicate_results(tournament)
    players = [
        player.user.username
        for player in Player.objects.filter(tournament=tournament).select_related("user").order_by("joined_at", "pk")
    ]
    scored = (
        TournamentGame.objects.filter(tournament=tournament, scores__isnull=False)
        .annotate(first_score=Min("scores__pk"))
        .order_by("first_score")
    )
    games: list[dict[str, Any]] = []
    scores: list[dict[str, Any]] = []
    for tournament_game in scored:
        seats = list(GameSeat.objects.filter(game=tournament_game).select_related("player__user").order_by("number"))
        points = dict(Score.objects.filter(game=tournament_game).values_list("player_id", "points"))
        game = Game.objects.select_related("table").get(table_id=tournament_game.table_id)
        games.append(
            {
                "table": tournament_game.table_id,
                "seats": [
                    {"seat": seat.number, "player": seat.player.user.username, "berserk": seat.berserk}
                    for seat in seats
                ],
                "replay": fairness.build_replay(game),
            }
        )
        scores.append({"table": tournament_game.table_id, "points": [points[seat.player_id] for seat in seats]})
    data: dict[str, Any] = {
        "kind": KIND,
        "version": VERSION,
        "site": "dominoes",
        "format": tournament.format,
        "tournament": tournament.pk,
        "mode": tournament.mode,
        "rated": tournament.rated,
        "starts_at": tournament.starts_at.isoformat(),
        "ends_at": tournament.ends_at.isoformat(),
        "scoring": scoring_rules(tournament.mode),
        "players": players,
        "games": games,
        "scores": scores,
        "standings": [
            {key: row[key] for key in ("rank", "player", "score", "wins", "games")}
            for row in tournament.final_standings
        ],
        "verify": f"python -m games.engine.verify --tournament tournament-{tournament.pk}.json "
        f"--key {signing.public_key_hex()}",
    }
    return signing.sign(data)


def build_duplicate_results(tournament: Tournament) -> dict[str, Any]:
    """A duplicate tournament's file: its rounds (the seed and its commitment,
    every scored game with its replay.json, every result with its
    matchpoints) and the frozen standings (docs/tournaments.md)."""
    players = [
        player.user.username
        for player in Player.objects.filter(tournament=tournament).select_related("user").order_by("joined_at", "pk")
    ]
    scored = rounds.scored_rounds(tournament)
    round_rows: list[dict[str, Any]] = []
    for round in Round.objects.filter(tournament=tournament).order_by("number"):
        results = scored.get(round.number, [])
        tables = list(dict.fromkeys(table for table, _scored in results))
        games = []
        for table_id in tables:
            tournament_game = TournamentGame.objects.get(table_id=table_id)
            seats: list[dict[str, Any]] = [
                {"seat": seat.number, "player": seat.player.user.username}
                for seat in GameSeat.objects.filter(game=tournament_game).select_related("player__user")
            ]
            if tournament_game.computer:
                taken = {seat["seat"] for seat in seats}
                seats += [{"seat": number, "player": None, "computer": tournament_game.computer} for number in (0, 1) if number not in taken]
            seats.sort(key=lambda seat: seat["seat"])
            game = Game.objects.select_related("table").get(table_id=table_id)
            games.append({"table": table_id, "seats": seats, "replay": fairness.build_replay(game)})
        round_rows.append(
            {
                "round": round.number,
                "starts_at": round.starts_at.isoformat(),
                "commitment": round.commitment,
                "seed": round.revealed_seed,
                "games": games,
                "results": [
                    {
                        "table": table,
                        "seat": item.result.seat,
                        "player": item.result.player,
                        "outcome": item.result.outcome,
                        "margin": item.result.margin,
                        "matchpoints": item.matchpoints,
                        "top": item.top,
                        "percent": duplicate.shown(item.percent),
                    }
                    for table, item in results
                ],
            }
        )
    data: dict[str, Any] = {
        "kind": KIND,
        "version": VERSION,
        "site": "dominoes",
        "format": tournament.format,
        "tournament": tournament.pk,
        "mode": tournament.mode,
        "rated": tournament.rated,
        "starts_at": tournament.starts_at.isoformat(),
        "ends_at": tournament.ends_at.isoformat(),
        "minutes": tournament.minutes,
        "scoring": duplicate.scoring_rules(),
        "players": players,
        "rounds": round_rows,
        "standings": [
            {key: row[key] for key in ("rank", "player", "score", "matchpoints", "rounds")}
            for row in tournament.final_standings
        ],
        "verify": f"python -m games.engine.verify --tournament tournament-{tournament.pk}.json "
        f"--key {signing.public_key_hex()}",
    }
    return signing.sign(data)
