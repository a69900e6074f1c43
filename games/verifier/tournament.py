"""The check of a published tournament results file (``verify_tournament``):
every game, every score and the final standings recomputed from it
(docs/tournaments.md, "The results file").

Plain Python, like the replay verifier it calls for each game: the standard
library, the rules engine and ``cryptography`` (the signature). The site
publishes ``/tournaments/<id>/results.json`` once a tournament is over::

    {
      "kind": "dominoes-tournament", "version": 1, "format": "arena",
      "tournament": 12, "mode": "duel-block",
      "scoring": {"win": 2, "draw": 1, "streak_after": 2, "berserk_bonus": 1, "berserk_tiles": 3},
                 # mode "four": {"places": [5, 3, 1, 0], "draw": 2, "streak_after": 2, ...}
      "players": ["ana", "ben", ...],            # in the order of joining (the last tie-break)
      "games": [{"table": 31, "seats": [{"seat": 0, "player": "ana", "berserk": false}, ...],
                 "replay": {... the game's signed replay.json ...}}, ...],   # in the order scored
      "scores": [{"table": 31, "points": [2, 0]}, ...],                     # each game's points, by seat
      "standings": [{"rank": 1, "player": "ana", "score": 9, "wins": 4, "games": 6}, ...],
      "signature": {"algorithm": "Ed25519", "public_key": "<hex>", "value": "<hex>"}
    }

The check: the file's signature (with ``key`` when given, else the file's
own key, reported to compare), each replay's signature with the same key and
the whole replay check (``verify_replay``), each seat's player the member the
replay names, the scoring rules the file states the ones this code applies;
then each game's points and the standings recomputed with
``games.verifier.arena`` in the order the games were scored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Event

from . import arena, duplicate
from .duplicate_file import verify_duplicate
from .replay import Disagreement, _check_signature, verify_replay

KIND = "dominoes-tournament"
VERSION = 1


def scoring_rules(mode: str = "duel-block") -> dict[str, Any]:
    """The scoring rules this code applies to an arena in ``mode``, as the file
    states them: a duel's points, or a four-player game's placement points."""
    if arena.players_of(mode) == arena.FOUR_PLAYERS:
        return {
            "places": list(arena.PLACE_POINTS),
            "draw": arena.FOUR_DRAW,
            "streak_after": arena.STREAK_AFTER,
            "berserk_bonus": arena.BERSERK_BONUS,
            "berserk_tiles": arena.BERSERK_TILES,
        }
    return {
        "win": arena.WIN,
        "draw": arena.DRAW,
        "streak_after": arena.STREAK_AFTER,
        "berserk_bonus": arena.BERSERK_BONUS,
        "berserk_tiles": arena.BERSERK_TILES,
    }


@dataclass(frozen=True)
class TournamentReport:
    public_key: str
    games: int
    players: int
    standings: Sequence[arena.Standing | duplicate.Standing]


def _list(data: Mapping[str, Any], name: str) -> Sequence[Any]:
    value = data.get(name)
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise Disagreement(f"no list of {name} in the file")
    return value


def _game_facts(
    game: Mapping[str, Any], index: int, key: str, players: int
) -> tuple[int, list[tuple[str, arena.Facts]]]:
    table = game.get("table")
    replay = game.get("replay")
    if not isinstance(replay, Mapping):
        raise Disagreement(f"game {index} (table {table}) has no replay")
    try:
        report = verify_replay(replay, key=key)
    except Disagreement as error:
        raise Disagreement(f"game {index} (table {table}): {error}") from None
    if replay.get("table") != table:
        raise Disagreement(f"game {index}: the replay is of table {replay.get('table')}, not {table}")
    named = {item.get("seat"): item.get("member") for item in replay.get("players", []) if isinstance(item, Mapping)}
    # verify_replay has checked every action: each decodes.
    laid = arena.tiles_laid(Event.from_json(action) for action in replay.get("actions", []))
    state = report.state
    if state.players != players or len(_list(game, "seats")) != players or state.rules.teams:
        raise Disagreement(f"game {index} (table {table}) is not a game of {players} players, as the mode's are")
    rows: list[tuple[str, arena.Facts]] = []
    for seat in _list(game, "seats"):
        number, player = seat.get("seat"), seat.get("player")
        if not isinstance(number, int) or not isinstance(player, str):
            raise Disagreement(f"game {index} (table {table}): a seat needs its number and player")
        if named.get(number) != player:
            raise Disagreement(
                f"game {index} (table {table}): seat {number} is {named.get(number)!r} in the replay, not {player!r}"
            )
        facts = arena.facts_of(
            report.state, number, tiles_laid=laid.get(number, 0), berserk=bool(seat.get("berserk"))
        )
        rows.append((player, facts))
    if not isinstance(table, int):
        raise Disagreement(f"game {index} has no table number")
    return table, rows


def verify_tournament(data: Mapping[str, Any], *, key: str | None = None) -> TournamentReport:
    """Check a tournament results file; raise ``Disagreement`` naming the first
    thing that does not add up."""
    if not isinstance(data, Mapping) or data.get("kind") != KIND:
        raise Disagreement("not a tournament results file")
    if data.get("version") != VERSION:
        raise Disagreement(f"unknown results version {data.get('version')!r}")
    if data.get("format") not in ("arena", "duplicate"):
        raise Disagreement(f"this verifier checks arena and duplicate tournaments, not {data.get('format')!r}")
    public_key = _check_signature(data, key)
    if data.get("format") == "duplicate":
        games_count, players_count, duplicate_standings = verify_duplicate(data, public_key)
        return TournamentReport(
            public_key=public_key, games=games_count, players=players_count, standings=duplicate_standings
        )
    mode = data.get("mode")
    if not isinstance(mode, str):
        raise Disagreement("the file names no mode")
    rules = scoring_rules(mode)
    if data.get("scoring") != rules:
        raise Disagreement(f"the file's scoring rules {data.get('scoring')} are not the arena's {rules}")
    players = [str(player) for player in _list(data, "players")]
    if len(set(players)) != len(players):
        raise Disagreement("a player is listed twice")
    games = [
        _game_facts(game, index, public_key, arena.players_of(mode))
        for index, game in enumerate(_list(data, "games"), start=1)
        if isinstance(game, Mapping)
    ]
    if len(games) != len(_list(data, "games")):
        raise Disagreement("a game of the file is not an object")
    tables = [table for table, _rows in games]
    if len(set(tables)) != len(tables):
        raise Disagreement("a game is listed twice")
    try:
        _sheets, points, standings = arena.replay_standings(players, [rows for _table, rows in games])
    except ValueError as error:
        raise Disagreement(str(error)) from None
    scores = _list(data, "scores")
    if len(scores) != len(games):
        raise Disagreement(f"{len(scores)} scores for {len(games)} games")
    for (table, _rows), expected, given in zip(games, points, scores, strict=True):
        if not isinstance(given, Mapping) or given.get("table") != table:
            raise Disagreement(f"the scores are not in the order of the games (table {table})")
        if list(given.get("points", [])) != expected:
            raise Disagreement(f"table {table} scores {expected}, not {list(given.get('points', []))}")
    published = _list(data, "standings")
    computed = [
        {"rank": row.rank, "player": row.player, "score": row.score, "wins": row.wins, "games": row.games}
        for row in standings
    ]
    for mine, theirs in zip(computed, published, strict=False):
        if dict(theirs) != mine:
            raise Disagreement(f"rank {mine['rank']} is {mine}, not {dict(theirs)}")
    if len(published) != len(computed):
        raise Disagreement(f"the standings list {len(published)} players, not {len(computed)}")
    return TournamentReport(public_key=public_key, games=len(games), players=len(players), standings=standings)
