"""Games in the dominoes notation (docs/notation.md): reads, no writes.

- ``game_record(game)``: the record of a stored game. A finished game's record
  is whole (its seed, every drawn tile); a game still on, or aborted, is
  written only as the public sees it (no seed, no drawn tile), whoever asks.
- ``game_json(game)``: the same as JSON (``/game/<id>/export.json``).
- ``member_records(user)``: the records of a member's public finished games,
  one at a time, for a streamed download.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import User

from games.engine import Event, Rules, new_game
from games.engine.notation import BOT_TITLE, Record, dumps, record_of, rounds
from games.fairplay import fairness
from games.models import Game, Seat, Table

SITE = "Dominoes club"


def _player(seat: Seat) -> str:
    """A seat's name in a record (not translated: a record reads the same for all)."""
    if seat.is_computer:
        return f"computer ({seat.level})"
    if seat.name:
        return seat.name
    return "guest" if seat.guest_key else "open seat"


def _result(game: Game) -> str:
    scores = (game.result or {}).get("scores") if fairness.is_published(game) else None
    return "-".join(str(score) for score in scores) if scores else "*"


def exportable(game: Game) -> bool:
    """A game is written once it has started (its opening is on the table)."""
    return game.state is not None


def game_record(game: Game) -> Record:
    """The notation record of a started ``game`` (see the module's docstring)."""
    if not exportable(game):
        raise ValueError("a game is exported once it has started")
    rules = Rules.from_dict(game.rules)
    whole = fairness.is_published(game)
    start = new_game(rules, game.seed)
    (opening, _oriented) = start.line[0]
    opener = start.opener
    events = [Event.from_row(move.kind, move.seat, move.payload) for move in game.moves.order_by("seq")]
    if not whole:
        events = [event.public() for event in events]
    when = game.started_at or game.created_at
    seats = Seat.objects.filter(table_id=game.table_id).order_by("number")
    result = _result(game)
    tags: list[tuple[str, str]] = [
        ("Event", _event_name(game.table)),
        ("Site", SITE),
        ("Date", when.strftime("%Y.%m.%d")),
        ("Table", str(game.table_id)),
        *((f"Seat{seat.number}", _player(seat)) for seat in seats),
        # A bot account's seat (docs/notation.md): a program played it.
        *((f"Seat{seat.number}Title", BOT_TITLE) for seat in seats if seat.bot),
        ("Result", result),
        ("Commitment", game.commitment),
    ]
    if whole:
        tags.append(("Seed", game.seed))
        if game.salt:
            tags += [("ServerSeed", game.server_seed), ("Salt", game.salt)]
        reason = (game.result or {}).get("reason")
        if reason:
            tags.append(("Termination", str(reason)))
        tags.append(("ChainHead", game.chain))
    return record_of(rules, events, opening=(opener, opening), tags=tags, result=result, variant=game.preset)


EVENT_NAMES = {Table.Kind.RANKED.value: "Ranked game", Table.Kind.ROOM.value: "Room game"}


def _event_name(table: Table) -> str:
    return EVENT_NAMES.get(str(table.kind), "Casual game")


def game_text(game: Game) -> str:
    """``game_record`` written in the notation."""
    return dumps(game_record(game))


def game_json(game: Game) -> dict[str, Any]:
    """``game_record`` as JSON: the tags, the opening, the rounds' actions in the
    notation, the result, and the text itself."""
    record = game_record(game)
    seat, tile = record.opening
    return {
        "id": game.table_id,
        "finished": fairness.is_published(game),
        "tags": dict(record.tags),
        "opening": {"seat": seat, "tile": list(tile)},
        "rounds": [tokens for _opener, tokens in rounds(record)],
        "result": record.result,
        "notation": dumps(record),
    }


def member_records(user: User) -> Iterator[str]:
    """The records of ``user``'s finished games at public tables, oldest first,
    each followed by a blank line."""
    games = (
        Game.objects.select_related("table")
        .filter(table__seats__user=user, table__public=True, table__status=Table.Status.FINISHED)
        .exclude(state=None)
        .distinct()
        .order_by("finished_at", "pk")
    )
    for game in games.iterator(chunk_size=50):
        if fairness.is_published(game):
            yield dumps(game_record(game)) + "\n"
