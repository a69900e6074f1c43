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
from games.verifier.tournament import KIND, VERSION, scoring_rules
from tournaments.models import GameSeat, Player, Score, Tournament, TournamentGame


def build_results(tournament: Tournament) -> dict[str, Any]:
    if tournament.status != Tournament.Status.FINISHED:
        raise ValueError("the results are published once the tournament is over")
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
