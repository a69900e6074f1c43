"""The published results file of a finished tournament (``results.json``,
docs/tournaments.md): its players, every scored game with its replay.json,
each game's points and the frozen standings, signed like replay.json
(games.fairplay.signing). ``python -m games.engine.verify --tournament FILE``
recomputes it all (games.verifier.tournament). Reads only.

The file is built when it is asked for, so a member's name is resolved then:
a closed account's is never published again. It is "Closed account 1",
"Closed account 2"... (``accounts.selectors.file_names``, in the order of
joining) in the players, the seats, the results and the standings, and the
member of its seats in each game's replay, which is signed again with the
site's key (the replay.json of the table itself names nobody for that seat):
the file still checks. A copy downloaded before the account closed keeps its
own signature and still checks too (docs/tournaments.md, "The results file")."""

from __future__ import annotations

from typing import Any

from django.db.models import Min

from accounts.selectors import file_names
from games.fairplay import fairness, signing
from games.models import Game
from games.verifier import duplicate, duplicate_file
from games.verifier.tournament import KIND, VERSION, scoring_rules
from tournaments import duplicate as rounds
from tournaments.models import GameSeat, Player, Round, Score, Tournament, TournamentGame


def build_results(tournament: Tournament) -> dict[str, Any]:
    if tournament.status != Tournament.Status.FINISHED:
        raise ValueError("the results are published once the tournament is over")
    if tournament.format == Tournament.Format.DUPLICATE:
        return build_duplicate_results(tournament)
    joined, names = _joined(tournament)
    players = [names[player.user_id] for player in joined]
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
                    {"seat": seat.number, "player": names[seat.player.user_id], "berserk": seat.berserk}
                    for seat in seats
                ],
                "replay": _named(fairness.build_replay(game), {seat.number: names[seat.player.user_id] for seat in seats}),
            }
        )
        scores.append({"table": tournament_game.table_id, "points": [points[seat.player_id] for seat in seats]})
    data: dict[str, Any] = {
        **_heading(tournament),
        "scoring": scoring_rules(tournament.mode),
        "players": players,
        "games": games,
        "scores": scores,
        "standings": [
            {key: row[key] for key in ("rank", "player", "score", "wins", "games")} | _player(row, names)
            for row in tournament.final_standings
        ],
        "verify": _verify_command(tournament),
    }
    return signing.sign(data)


def _heading(tournament: Tournament) -> dict[str, Any]:
    """What every results file starts with: its kind and version, and the tournament."""
    return {
        "kind": KIND,
        "version": VERSION,
        "site": "dominoes",
        "format": tournament.format,
        "tournament": tournament.pk,
        "mode": tournament.mode,
        "rated": tournament.rated,
        "starts_at": tournament.starts_at.isoformat(),
        "ends_at": tournament.ends_at.isoformat(),
    }


def _verify_command(tournament: Tournament) -> str:
    """The command that checks the file (games.engine.verify), with the site's public key."""
    return f"python -m games.engine.verify --tournament tournament-{tournament.pk}.json --key {signing.public_key_hex()}"


def _joined(tournament: Tournament) -> tuple[list[Player], dict[int, str]]:
    """The players in the order they joined, and each member's name in the file."""
    joined = list(Player.objects.filter(tournament=tournament).select_related("user").order_by("joined_at", "pk"))
    return joined, file_names(player.user for player in joined)


def build_duplicate_results(tournament: Tournament) -> dict[str, Any]:
    """A duplicate tournament's file: its rounds (the seed and its commitment,
    every scored game with its replay.json, every result with its
    matchpoints) and the frozen standings (docs/tournaments.md)."""
    joined, names = _joined(tournament)
    by_username = {player.user.username: names[player.user_id] for player in joined}
    players = [names[player.user_id] for player in joined]
    scored = rounds.scored_rounds(tournament)
    round_rows: list[dict[str, Any]] = []
    all_games: list[dict[str, Any]] = []
    all_scores: list[dict[str, Any]] = []
    for round in Round.objects.filter(tournament=tournament).order_by("number"):
        results = scored.get(round.number, [])
        tables = list(dict.fromkeys(table for table, _scored in results))
        games = []
        for table_id in tables:
            tournament_game = TournamentGame.objects.get(table_id=table_id)
            seats: list[dict[str, Any]] = [
                {"seat": seat.number, "player": names[seat.player.user_id]}
                for seat in GameSeat.objects.filter(game=tournament_game).select_related("player__user")
            ]
            if tournament_game.computer:
                taken = {seat["seat"] for seat in seats}
                seats += [{"seat": number, "player": None, "computer": tournament_game.computer} for number in (0, 1) if number not in taken]
            seats.sort(key=lambda seat: seat["seat"])
            game = Game.objects.select_related("table").get(table_id=table_id)
            named = {seat["seat"]: seat["player"] for seat in seats if seat["player"] is not None}
            games.append({"table": table_id, "seats": seats, "replay": _named(fairness.build_replay(game), named)})
        all_games += [{**item, "round": round.number} for item in games]
        all_scores += duplicate_file.game_scores(round.number, tables, results)
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
                        "player": by_username[item.result.player],
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
        **_heading(tournament),
        "minutes": tournament.minutes,
        "scoring": duplicate.scoring_rules(),
        "players": players,
        "rounds": round_rows,
        # Every game and its scores, as every results file has them (they repeat the rounds').
        "games": all_games,
        "scores": all_scores,
        "standings": [
            {key: row[key] for key in ("rank", "player", "score", "matchpoints", "rounds")} | _player(row, names)
            for row in tournament.final_standings
        ],
        "verify": _verify_command(tournament),
    }
    return signing.sign(data)


def _player(row: dict[str, Any], names: dict[int, str]) -> dict[str, str]:
    """A frozen standings row's player, named as the file names them (the
    name stored when the tournament ended may be a closed account's)."""
    user_id = row.get("user_id")
    return {"player": names[user_id]} if user_id in names else {}


def _named(replay: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """A game's signed replay as the file shows it: a seat whose member closed
    their account (no name in the replay) named as the file names them, and
    the replay signed again; unchanged when no seat needs it."""
    players = replay.get("players", [])
    missing = [item for item in players if item.get("member") is None and item.get("seat") in names]
    if not missing:
        return replay
    unsigned = {key: value for key, value in replay.items() if key != "signature"}
    unsigned["players"] = [
        {**item, "member": names[item["seat"]]} if item in missing else item for item in players
    ]
    return signing.sign(unsigned)
