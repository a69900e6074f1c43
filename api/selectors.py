"""The API's reads (docs/api.md): the lines of the streams, built from the
same per-viewer frames as the table websocket (games.live.frames), so that no
line carries a tile its reader may not see; and the account, the challenges
and the games an event stream announces."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q
from django.urls import reverse

from accounts.models import Pool
from accounts.selectors import bot_ids, is_bot, ratings_of
from api.models import Challenge
from community.selectors import blocked_by
from games.engine import Event, State, action_from_json
from games.engine.notation import token
from games.fairplay import export, move_chain
from games.live.frames import Frame, move_frames, snapshot_frames
from games.models import Game, Move, Seat, Table
from games.play import selectors as game_selectors

Line = dict[str, Any]


def account(user: User) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.get_username(),
        "bot": is_bot(user.pk),
        "url": reverse("accounts:profile", args=[user.get_username()]),
    }


def bot_ratings(user: User) -> list[dict[str, Any]]:
    """A bot's ratings in the bots' pool, every ranked mode (docs/members.md)."""
    return [
        {"mode": rating.mode.key, "rating": rating.display, "provisional": rating.provisional, "games": rating.games}
        for rating in ratings_of(user, pool=Pool.BOTS)
    ]


# -- a game's record --------------------------------------------------------------------


def exported_game(user: User, table_id: int) -> Game | None:
    """The started game of a table the member may see (a player, or anyone for a
    public table), as ``/game/<id>/export`` gives it (games.fairplay.export); None otherwise."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    game = Game.objects.select_related("table").filter(table=table).first()
    seat = game_selectors.viewer_seat(table, user=user, guest_key=None)
    if game is None or not game_selectors.can_watch(table, seat) or not export.exportable(game):
        return None
    return game


# -- the game stream -----------------------------------------------------------------


def legal_tokens(view: dict[str, Any]) -> list[str]:
    """The view's legal actions in the notation (docs/notation.md), each postable as ``move/<token>``."""
    seat = view["seat"]
    first = not view["line"]
    return [token(Event.from_action(action_from_json(item, seat)), first=first) for item in view["legal"]]


def _line_of(kind: str, seq: int, frames: list[Frame], *, seat: int) -> Line:
    """One stream line from the websocket's frames of one event (or a snapshot)."""
    line: Line = {"type": kind, "seq": seq}
    for frame in frames:
        name = frame["type"]
        if name == "event":
            line["event"] = {key: value for key, value in frame.items() if key not in ("type", "seq")}
        elif name == "state":
            view = frame["view"]
            line["view"] = view
            line["legal"] = legal_tokens(view) if view["seat"] == seat else []
            line["nextRound"] = {"type": "next_round"} in frame["legal"]
            line["chain"] = frame["chain"]
        elif name == "round_over":
            line["roundOver"] = {key: value for key, value in frame.items() if key not in ("type", "seq")}
        elif name == "game_over":
            line["gameOver"] = {key: value for key, value in frame.items() if key not in ("type", "seq")}
    return line


@dataclass
class GameCursor:
    """A game stream's place: the state after ``seq`` as the server holds it
    (never sent as is: only the reader's frames are)."""

    game_id: int
    table_id: int
    seat: int
    humans: frozenset[int]
    seq: int
    state: State | None
    status: str


def game_full(game: Game, *, seat: int) -> tuple[Line, GameCursor]:
    """The first line of a game stream: the reader's whole view after the game's last event."""
    table = game.table
    seats = game_selectors.table_seats(table.pk)
    humans = game_selectors.seat_info(seats).humans
    state = game_selectors.game_state(game)
    cursor = GameCursor(game.pk, table.pk, seat, humans, game.seq, state, table.status)
    bots = bot_ids(s.user_id for s in seats if s.user_id is not None)
    players = [
        {**player, "bot": seats[number].user_id in bots}
        for number, player in enumerate(game_selectors.table_players(table, seats))
    ]
    head = move_chain.head(game)
    if state is None:
        line: Line = {"type": "gameFull", "seq": 0, "view": None, "legal": [], "nextRound": False, "chain": head}
    else:
        line = _line_of("gameFull", game.seq, snapshot_frames(game.seq, state, seat, humans, chain=head), seat=seat)
    line.update(
        id=table.pk,
        seat=seat,
        status=table.status,
        preset=game.preset,
        commitment=game.commitment,
        players=players,
    )
    return line, cursor


def cursor_at(game: Game, *, seat: int, seq: int) -> GameCursor:
    """A resumed stream's place: the state after event ``seq`` (rebuilt from the log)."""
    table = game.table
    humans = game_selectors.seat_info(game_selectors.table_seats(table.pk)).humans
    seq = max(0, min(seq, game.seq))
    state = None if game.state is None else game_selectors.rebuild_state(game, upto=seq)
    return GameCursor(game.pk, table.pk, seat, humans, seq, state, table.status)


def game_lines(cursor: GameCursor) -> list[Line]:
    """The ``gameState`` lines of the events stored after ``cursor.seq`` (read
    from the move log: a move is stored before it is streamed); moves the cursor on."""
    table_status = Table.objects.filter(pk=cursor.table_id).values_list("status", flat=True).first()
    moves = list(Move.objects.filter(game_id=cursor.game_id, seq__gt=cursor.seq).order_by("seq"))
    lines: list[Line] = []
    if cursor.state is None and moves:
        game = Game.objects.get(pk=cursor.game_id)
        cursor.state = game_selectors.rebuild_state(game, upto=moves[0].seq - 1)
    for move in moves:
        assert cursor.state is not None
        cursor.state = game_selectors.apply_move(cursor.state, move.kind, move.seat, move.payload)
        frames = move_frames(
            move.seq, move.kind, move.seat, move.payload, cursor.state, cursor.seat, cursor.humans, chain=move.chain
        )
        line = _line_of("gameState", move.seq, frames, seat=cursor.seat)
        line["status"] = Table.Status.FINISHED if cursor.state.game_over else Table.Status.PLAYING
        lines.append(line)
        cursor.seq = move.seq
    if table_status is not None and table_status != cursor.status:
        cursor.status = table_status
        if not moves and table_status == Table.Status.ABORTED:
            lines.append({"type": "gameState", "seq": cursor.seq, "status": table_status, "legal": []})
    return lines


def stream_ended(cursor: GameCursor) -> bool:
    return cursor.status in (Table.Status.FINISHED, Table.Status.ABORTED) or (
        cursor.state is not None and cursor.state.game_over
    )


# -- the event stream ----------------------------------------------------------------


def challenge_object(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "status": challenge.status,
        "challenger": challenge.challenger.get_username(),
        "dest": challenge.dest.get_username(),
        "preset": challenge.preset,
        "players": challenge.players,
        "teams": challenge.teams,
        "target": challenge.target,
        "rated": challenge.rated,
        "game": challenge.table_id,
    }


def challenges_of(user_id: int, *, open_only: bool) -> list[Challenge]:
    """The member's challenges, sent and received; never one received from a member
    they blocked (docs/moderation.md: the challenger is not told, theirs stays open)."""
    rows = Challenge.objects.select_related("challenger", "dest").filter(Q(challenger_id=user_id) | Q(dest_id=user_id))
    blocked = blocked_by(user_id)
    if blocked:
        rows = rows.exclude(dest_id=user_id, challenger_id__in=blocked)
    if open_only:
        rows = rows.filter(status=Challenge.Status.CREATED)
    return list(rows.order_by("pk"))


def game_object(table: Table, seat: Seat) -> dict[str, Any]:
    game = getattr(table, "game", None)
    return {
        "id": table.pk,
        "seat": seat.number,
        "kind": table.kind,
        "status": table.status,
        "preset": None if game is None else game.preset,
        "result": None if game is None else game.result or None,
        "url": reverse("games:table", args=[table.pk]),
    }


LIVE = (Table.Status.WAITING, Table.Status.PLAYING)


def seats_of(user_id: int, *, live_only: bool, after_table: int = 0, tables: Collection[int] = ()) -> list[Seat]:
    """The member's seats: at live tables (``live_only``); or at live tables, at
    tables past ``after_table`` and at ``tables`` (the ones a stream knows: their
    end). A seat taken at a table older than the stream (a friend's waiting table,
    a room's) is at a live table: never missed."""
    rows = Seat.objects.select_related("table", "table__game").filter(user_id=user_id)
    if live_only:
        rows = rows.filter(table__status__in=LIVE)
    else:
        rows = rows.filter(Q(table__status__in=LIVE) | Q(table_id__gt=after_table) | Q(table_id__in=list(tables)))
    return list(rows.order_by("table_id"))


def last_table_id() -> int:
    return Table.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
