"""The check of a duplicate tournament's results file (docs/tournaments.md,
"The results file"): each round's seed against its commitment, every game
replayed (each one dealt from its round's seed), every result, every
matchpoint and the standings recomputed with ``games.verifier.duplicate``.
Called by ``verify_tournament`` for a file whose format is "duplicate"::

    "rounds": [{"round": 1, "commitment": "<hex>", "seed": "<hex>",
                "games": [{"table": 31, "seats": [{"seat": 0, "player": "ana"},
                                                  {"seat": 1, "player": null, "computer": "medium"}],
                           "replay": {... the game's signed replay.json ...}}, ...],
                "results": [{"table": 31, "seat": 0, "player": "ana", "outcome": "win", "margin": 14,
                             "matchpoints": 2, "top": 2, "percent": "100.00"}, ...]}, ...],
    "standings": [{"rank": 1, "player": "ana", "score": "150.00", "matchpoints": 5, "rounds": 2}, ...],
    "games": [{"round": 1, "table": 31, "seats": [...], "replay": {...}}, ...],
    "scores": [{"round": 1, "table": 31, "points": ["100.00", null], "matchpoints": [2, null]}, ...]

``games`` and ``scores`` are the fields every results file has (the
section of the published interfaces): every game of the rounds, in their
order, each with its round; and each game's points by seat (the seat's
percent of the round, as its result states it; null for the computer's
seat) with its matchpoints. They repeat the rounds, and must agree with
them: one changed is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.deal import commit_seed

from . import duplicate
from .replay import Disagreement, verify_replay

COMPUTER_LEVEL = "medium"


def _list(data: Mapping[str, Any], name: str) -> Sequence[Any]:
    value = data.get(name)
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise Disagreement(f"no list of {name} in the file")
    return value


def _game_results(
    game: Any, number: int, seed: str, commitment: str, key: str, players: set[str]
) -> list[duplicate.Result]:
    if not isinstance(game, Mapping):
        raise Disagreement(f"round {number}: a game is not an object")
    table = game.get("table")
    replay = game.get("replay")
    if not isinstance(replay, Mapping):
        raise Disagreement(f"round {number}, table {table}: no replay")
    if replay.get("table") != table or not isinstance(table, int):
        raise Disagreement(f"round {number}: the replay is of table {replay.get('table')}, not {table}")
    if replay.get("seed") != seed or replay.get("round_commitment") != commitment:
        raise Disagreement(f"round {number}, table {table}: not dealt from the round's seed")
    try:
        report = verify_replay(replay, key=key)
    except Disagreement as error:
        raise Disagreement(f"round {number}, table {table}: {error}") from None
    named = {item.get("seat"): item for item in replay.get("players", []) if isinstance(item, Mapping)}
    results: list[duplicate.Result] = []
    for seat in _list(game, "seats"):
        position = seat.get("seat") if isinstance(seat, Mapping) else None
        if not isinstance(position, int) or position not in named:
            raise Disagreement(f"round {number}, table {table}: a seat needs its number")
        player = seat.get("player")
        if player is None:
            if named[position].get("kind") != "computer" or named[position].get("level") != COMPUTER_LEVEL:
                raise Disagreement(f"round {number}, table {table}: seat {position} is not the computer")
            continue
        if named[position].get("member") != player or player not in players:
            raise Disagreement(
                f"round {number}, table {table}: seat {position} is {named[position].get('member')!r}, not {player!r}"
            )
        results.append(duplicate.result_of(report.state, position, player))
    return results


SEATS = 2
"""A duplicate table's seats (the duel modes)."""


def game_scores(
    number: int, tables: Sequence[int], results: Sequence[tuple[int, duplicate.Scored]]
) -> list[dict[str, Any]]:
    """The top-level ``scores`` of a round's games (in the order of ``tables``):
    each seat's percent (as the results show it) and matchpoints, None for a
    seat that scores nothing (the computer's)."""
    rows: dict[int, dict[str, Any]] = {
        table: {"round": number, "table": table, "points": [None] * SEATS, "matchpoints": [None] * SEATS}
        for table in tables
    }
    for table, item in results:
        rows[table]["points"][item.result.seat] = duplicate.shown(item.percent)
        rows[table]["matchpoints"][item.result.seat] = item.matchpoints
    return [rows[table] for table in tables]


def verify_duplicate(data: Mapping[str, Any], public_key: str) -> tuple[int, int, list[duplicate.Standing]]:
    """(games, players, standings) of a duplicate results file whose signature
    was checked; ``Disagreement`` naming the first thing that does not add up."""
    if data.get("scoring") != duplicate.scoring_rules():
        raise Disagreement(f"the file's scoring rules are not the duplicate's {duplicate.scoring_rules()}")
    players = [str(player) for player in _list(data, "players")]
    if len(set(players)) != len(players):
        raise Disagreement("a player is listed twice")
    rounds: list[list[duplicate.Scored]] = []
    tables: set[int] = set()
    games = 0
    all_games: list[dict[str, Any]] = []
    all_scores: list[dict[str, Any]] = []
    for number, round_data in enumerate(_list(data, "rounds"), start=1):
        if not isinstance(round_data, Mapping) or round_data.get("round") != number:
            raise Disagreement(f"round {number} is missing or out of order")
        seed, commitment = round_data.get("seed"), round_data.get("commitment")
        if not isinstance(seed, str) or not isinstance(commitment, str):
            raise Disagreement(f"round {number} has no seed or commitment")
        if commit_seed(seed) != commitment:
            raise Disagreement(f"round {number}: the seed does not match the commitment")
        results: list[tuple[int, duplicate.Result]] = []
        seen: set[str] = set()
        round_tables: list[int] = []
        for game in _list(round_data, "games"):
            found = _game_results(game, number, seed, commitment, public_key, set(players))
            table = int(game["table"])
            if table in tables:
                raise Disagreement(f"table {table} is listed twice")
            tables.add(table)
            round_tables.append(table)
            all_games.append({**game, "round": number})
            games += 1
            for result in found:
                if result.player in seen:
                    raise Disagreement(f"round {number}: {result.player} played two tables")
                seen.add(result.player)
                results.append((table, result))
        scored = duplicate.score_round([result for _table, result in results])
        given = _list(round_data, "results")
        if len(given) != len(scored):
            raise Disagreement(f"round {number}: {len(given)} results listed, {len(scored)} played")
        for (table, _result), mine, theirs in zip(results, scored, given, strict=True):
            expected = {
                "table": table,
                "seat": mine.result.seat,
                "player": mine.result.player,
                "outcome": mine.result.outcome,
                "margin": mine.result.margin,
                "matchpoints": mine.matchpoints,
                "top": mine.top,
                "percent": duplicate.shown(mine.percent),
            }
            if not isinstance(theirs, Mapping) or dict(theirs) != expected:
                raise Disagreement(f"round {number}, table {table}: the result is {expected}, not {theirs}")
        all_scores += game_scores(
            number, round_tables, [(table, mine) for (table, _result), mine in zip(results, scored, strict=True)]
        )
        rounds.append(scored)
    listed = _list(data, "games")
    if len(listed) != len(all_games) or any(
        not isinstance(theirs, Mapping) or dict(theirs) != mine for mine, theirs in zip(all_games, listed, strict=True)
    ):
        raise Disagreement("the file's games are not the games of its rounds")
    for mine_score, theirs_score in zip(all_scores, _list(data, "scores"), strict=False):
        if not isinstance(theirs_score, Mapping) or dict(theirs_score) != mine_score:
            raise Disagreement(
                f"round {mine_score['round']}, table {mine_score['table']}: the score is {mine_score}, not {theirs_score}"
            )
    if len(_list(data, "scores")) != len(all_scores):
        raise Disagreement(f"the file lists {len(_list(data, 'scores'))} scores, not {len(all_scores)}")
    try:
        standings = duplicate.standings(players, rounds)
    except ValueError as error:
        raise Disagreement(str(error)) from None
    published = _list(data, "standings")
    computed = [standing_row(row) for row in standings]
    for mine_row, theirs_row in zip(computed, published, strict=False):
        if not isinstance(theirs_row, Mapping) or dict(theirs_row) != mine_row:
            raise Disagreement(f"rank {mine_row['rank']} is {mine_row}, not {theirs_row}")
    if len(published) != len(computed):
        raise Disagreement(f"the standings list {len(published)} players, not {len(computed)}")
    return games, len(players), standings


def standing_row(row: duplicate.Standing) -> dict[str, Any]:
    """A standing as the file (and the frozen standings) state it."""
    return {
        "rank": row.rank,
        "player": row.player,
        "score": row.score,
        "matchpoints": row.matchpoints,
        "rounds": row.rounds,
    }
