"""Playing: the only code that changes a game in progress.

A move is checked with the engine against the real hands of the game as of
its last event (kept in this process between moves, ``games.play.live_games``,
else read), then written in one short transaction of two statements: the
game row is updated only if it is still at that event (``WHERE seq = ...``,
optimistic concurrency instead of a lock held while Python works), and one
``Move`` is appended with the next ``seq`` (unique per game). Of two moves
made at once, exactly one updates the row; the other changes nothing and is
refused as stale. Only after the commit (``transaction.on_commit``) are the
next computer turn queued, the views broadcast and ``game_finished`` sent.
A refused command raises a ``GameError`` and changes nothing.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Field
from django.utils import timezone
from django.utils.translation import gettext as _

from games import jobs
from games.engine import (
    Action,
    Draw,
    Event,
    EventKind,
    IllegalAction,
    State,
    agree_draw,
    apply_action,
    dump_state,
    next_round,
)
from games.engine import resign as engine_resign
from games.fairplay import move_chain
from games.live import broadcast, clock
from games.live.presence import PRESENCE_TTL
from games.models import Game, Move, Presence, Table
from games.outcome import ended_at_opening, rounds_played
from games.play import live_games, selectors
from games.play.services import seats as one_game
from games.play.services.errors import (
    GameError,
    GameNotLive,
    IllegalMove,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    StaleSeq,
)
from games.signals import game_finished


@dataclass(frozen=True, slots=True)
class Outcome:
    """A stored move: its number, what it was and the state after it."""

    game_id: int
    table_id: int
    seq: int
    kind: str
    seat: int | None
    payload: Mapping[str, Any]
    state: State
    humans: frozenset[int] = field(default_factory=frozenset)
    # The live table facts after the move (selectors.table_facts).
    facts: Mapping[str, Any] = field(default_factory=dict)
    # The chained move log's head after this move (games.fairplay.move_chain).
    chain: str = ""
    # What each viewer's group is sent (broadcast.move_messages): the
    # mover's own socket sends its part at once.
    messages: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.state.game_over


@dataclass(frozen=True, slots=True)
class DrawOffer:
    """A draw offer recorded without ending the game (``seats`` offered so far)."""

    game_id: int
    seat: int
    seats: tuple[int, ...]


_Locked = live_games.LiveGame


def _lock(game_id: int, *, expected_seq: int | None = None) -> _Locked:
    """The game row locked for this transaction, its table, state and seats
    (draw offers and aborts, which are rare). Refuses a game that is not
    live and (if given) a stale ``expected_seq``."""
    game = Game.objects.select_for_update(of=("self",)).select_related("table").filter(pk=game_id).first()
    return _checked(game, expected_seq=expected_seq, seats=None)


def playing_state(game: Game | None) -> State:
    """The state of ``game`` if it is being played, else ``GameNotLive``
    (``no_game``, ``not_live``): the check of every move, and of a hint."""
    if game is None:
        raise GameNotLive(_("This game does not exist."), reason="no_game")
    state = selectors.game_state(game)
    if state is None or game.table.status != Table.Status.PLAYING or game.finished:
        raise GameNotLive(_("This game is not being played."), reason="not_live")
    return state


def _checked(game: Game | None, *, expected_seq: int | None, seats: selectors.SeatInfo | None) -> _Locked:
    state = playing_state(game)
    assert game is not None
    if expected_seq is not None and expected_seq != game.seq:
        raise StaleSeq(
            _("Your game is out of date (the table is at event %(seq)s): sync first.") % {"seq": game.seq},
            current=game.seq,
        )
    if seats is None:
        seats = selectors.table_seat_info(game.table_id)
    return live_games.LiveGame(game, game.table, state, seats)


def _load(game_id: int, *, expected_seq: int | None) -> _Locked:
    """The game as of its last event, without a lock: this process's entry
    when it is at ``expected_seq``, else read (two queries). The write checks
    that nobody moved since (``_write``)."""
    entry = live_games.take(game_id)
    if entry is not None and expected_seq is not None and entry.seq == expected_seq:
        return entry
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    return _checked(game, expected_seq=expected_seq, seats=None if entry is None else entry.seats)


class _Conflict(Exception):
    """The game row was no longer at the entry's seq (or was finished)."""


def _json(value: Any) -> Any:
    return connection.ops.adapt_json_value(value, None)


@dataclass(frozen=True, slots=True)
class _Written:
    """What the write read back: the game's draw offers, and the seats with
    a live socket when the clock needs them (else None)."""

    draw_offers: list[int]
    connected: list[int] | None


def _json_list(value: Any) -> list[int]:
    if value is None:
        return []
    return list(json.loads(value) if isinstance(value, str | bytes) else value)


def _column(model: type[Game] | type[Move], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)
    assert field.column is not None
    return field.column


@functools.cache
def _sql(
    vendor: str, names: tuple[str, ...], move_names: tuple[str, ...], presence: bool, single: bool
) -> str:
    """The move's SQL. Every name comes from the models' own metadata;
    values are parameters.

    ``single`` (PostgreSQL): one statement, its own transaction: the game
    row updated if still at its seq and live, the move inserted only if it
    was, the draw offers and present seats read back. Otherwise the UPDATE
    (returning the same) and the INSERT are two statements of a transaction.
    """
    quote = connection.ops.quote_name
    game_table, move_table = quote(Game._meta.db_table), quote(Move._meta.db_table)
    assignments = ", ".join(f"{quote(_column(Game, name))} = %s" for name in names)
    where = f"{quote('id')} = %s AND {quote('seq')} = %s AND {quote('finished_at')} IS NULL"
    if presence:
        aggregate = (
            "json_agg(DISTINCT p.seat)" if vendor == "postgresql" else "json_group_array(DISTINCT p.seat)"
        )
        seats = (
            f"(SELECT {aggregate} FROM {quote(Presence._meta.db_table)} p "  # noqa: S608 - names from the models
            "WHERE p.table_id = %s AND p.seat IS NOT NULL AND p.seen_at >= %s)"
        )
    else:
        seats = "NULL"
    columns = ", ".join(quote(_column(Move, name)) for name in move_names)
    if not single:
        update = (
            f"UPDATE {game_table} SET {assignments} WHERE {where} RETURNING {quote('draw_offers')}, {seats}"  # noqa: S608
        )
        insert = f"INSERT INTO {move_table} ({columns}) VALUES ({', '.join(['%s'] * len(move_names))})"  # noqa: S608
        return update + ";\n" + insert
    typed = ", ".join(f"CAST(%s AS {Move._meta.get_field(name).db_type(connection)})" for name in move_names)
    return (
        f"WITH g AS (UPDATE {game_table} SET {assignments} WHERE {where} RETURNING {quote('draw_offers')}), "  # noqa: S608
        f"m AS (INSERT INTO {move_table} ({columns}) SELECT {typed} FROM g RETURNING 1) "
        f"SELECT g.{quote('draw_offers')}, {seats}, (SELECT count(*) FROM m) FROM g"
    )


def _write(locked: _Locked, fields: dict[str, Any], move: dict[str, Any], *, presence_since: Any) -> _Written:
    """Store the move: the game row updated only if it is still at
    ``locked.seq`` and live, the move appended (its (game, seq) is unique).
    One statement on PostgreSQL (unless the caller holds a transaction),
    else two in a transaction. Raises ``_Conflict``, nothing written, when
    another move (or an abort) came first. ``presence_since``: read back
    the seats with a socket seen since then (the clock's ``away``)."""
    game = locked.game
    vendor = connection.vendor
    presence = presence_since is not None
    single = vendor == "postgresql" and "finished_at" not in fields
    sql = _sql(vendor, tuple(fields), tuple(move), presence, single)
    update_params = [*fields.values(), game.pk, game.seq]
    presence_params = [game.table_id, presence_since] if presence else []
    try:
        if single:
            # Inside a caller's transaction, a savepoint keeps a refused
            # insert from spoiling it; alone, the statement is its own.
            guard = transaction.atomic() if connection.in_atomic_block else nullcontext()
            with guard, connection.cursor() as cursor:
                cursor.execute(sql, [*update_params, *move.values(), *presence_params])
                row = cursor.fetchone()
            if row is None or row[2] != 1:
                raise _Conflict
        else:
            update, insert = sql.split(";\n")
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(update, [*update_params, *presence_params])
                row = cursor.fetchone()
                if row is None:
                    raise _Conflict
                cursor.execute(insert, list(move.values()))
    except IntegrityError:
        raise _Conflict from None
    return _Written(_json_list(row[0]), None if not presence else [int(seat) for seat in _json_list(row[1])])


def _refuse_conflict(game_id: int) -> Exception:
    """The error for a move that lost to another one (or to an abort)."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.finished or game.table.status != Table.Status.PLAYING:
        return GameNotLive(_("This game is not being played."), reason="not_live")
    seq = game.seq
    return StaleSeq(
        _("Your game is out of date (the table is at event %(seq)s): sync first.") % {"seq": seq}, current=seq
    )


def _engine_error(error: IllegalAction) -> Exception:
    if error.code == "not_your_turn":
        return NotYourTurn(_("It is not your turn."), reason=error.code)
    # The engine's reason (English) travels as the detail.
    return IllegalMove(_("This move is not allowed."), reason=error.code, detail=error.reason)


def _record(locked: _Locked, new_state: State, event: Event) -> Outcome:
    """Write the move (``_write``), end the game if it is over, then arrange
    the after-commit work: the computer's turn, the broadcast, this
    process's entry. Called outside any transaction of its own: the write
    is its own short transaction (or joins the caller's)."""
    game, table = locked.game, locked.table
    kind, seat, payload = event.kind, event.seat, event.payload()
    seq = game.seq + 1
    now = timezone.now()
    state_data = dump_state(new_state)
    # The chained log's head, computed from the head as of ``locked.seq`` and
    # stored by the same write as the move (which only happens at that seq).
    head = move_chain.move_link(move_chain.head(game), seq=seq, kind=kind, seat=seat, payload=payload)
    fields: dict[str, Any] = {
        "seq": seq,
        "chain": head,
        "state": _json(state_data),
        "to_move": new_state.to_move,
        "round_over": new_state.round_over,
        "updated_at": connection.ops.adapt_datetimefield_value(now),
    }
    if kind is EventKind.NEXT_ROUND:
        fields["draw_offers"] = _json([])
    if new_state.game_over:
        result = finish_result(new_state)
        fields.update(
            result=_json(result),
            winner=new_state.winner,
            finished_at=connection.ops.adapt_datetimefield_value(now),
        )
    move = {
        "game": game.pk,
        "seq": seq,
        "seat": seat,
        "kind": str(kind),
        "payload": _json(payload),
        "chain": head,
        "created_at": connection.ops.adapt_datetimefield_value(now),
    }
    # The frames of every viewer, before the transaction: nothing in them
    # depends on the write, and the row lock is then held for two statements.
    frames = broadcast.move_frames_by_viewer(
        seq=seq, kind=kind, seat=seat, payload=payload, state=new_state, humans=locked.seats.humans, chain=head
    )
    seats = locked.seats
    presence_since = None
    if (
        table.kind != Table.Kind.COMPUTER
        and clock.timed(table, len(seats.humans))
        and not new_state.game_over
    ):
        presence_since = connection.ops.adapt_datetimefield_value(now - timedelta(seconds=PRESENCE_TTL))
    def written_into_game(written: _Written) -> None:
        # The row as stored, on this process's copy (before game_finished's
        # receivers see it, after the commit of the game-over branch).
        game.seq, game.state, game.to_move = seq, state_data, new_state.to_move
        game.round_over, game.updated_at = new_state.round_over, now
        game.draw_offers, game.chain = written.draw_offers, head

    try:
        if new_state.game_over:
            with transaction.atomic():
                written = _write(locked, fields, move, presence_since=None)
                written_into_game(written)
                finish_game(game=game, table=table, state=new_state, now=now, result=result, announce=False)
        else:
            written = _write(locked, fields, move, presence_since=presence_since)
            written_into_game(written)
    except _Conflict:
        live_games.forget(game.pk)
        raise _refuse_conflict(game.pk) from None
    facts = selectors.table_facts(table, game, seats.humans, written.connected, seats.turn_percents)
    messages = broadcast.move_messages(table_id=table.pk, seq=seq, frames=frames, table=facts)
    outcome = Outcome(game.pk, table.pk, seq, kind, seat, payload, new_state, seats.humans, facts, head, messages)
    # The computer's turn is queued before anyone hears of the move: a
    # process that dies after announcing it cannot leave the game waiting.
    after_commit_work(game_id=game.pk, seq=seq, state=new_state, seats=seats)
    entry = live_games.LiveGame(game, table, new_state, locked.seats)

    def committed() -> None:
        # This process's entry first: the next move may come as soon as the
        # broadcast is out.
        if new_state.game_over:
            live_games.forget(game.pk)
        else:
            live_games.keep(entry)
        broadcast.send_messages(messages)

    transaction.on_commit(committed)
    if new_state.game_over:
        # After the move's broadcast: what game_finished's receivers announce
        # (the ratings, a room's settlement) comes after the game_over frames.
        announce_finished(game=game, table=table)
    return outcome


def after_commit_work(*, game_id: int, seq: int, state: State, seats: selectors.SeatInfo) -> None:
    """Queue the computer's next job (if any) once the transaction commits."""
    if selectors.computer_job(state, seats) is None:
        return
    transaction.on_commit(lambda: jobs.queue_computer_turn(game_id, seq))


def finish_result(state: State) -> dict[str, Any]:
    """``Game.result`` of a game the engine says is over. ``aborted``: it
    ended by resignation or agreement before any tile beyond the opening
    (games.outcome), so that it counts for nothing: every receiver of
    ``game_finished`` reads this one flag."""
    return {
        "scores": list(state.scores),
        "winner": state.winner,
        "reason": state.end_reason,
        "resigned": state.resigned,
        "rounds": state.round,
        "rounds_played": rounds_played(state),
        "aborted": ended_at_opening(state),
    }


def finish_game(
    *,
    game: Game,
    table: Table,
    state: State,
    now: Any = None,
    result: dict[str, Any] | None = None,
    save_game: bool = False,
    announce: bool = True,
) -> None:
    """Close a game that the engine says is over: result, winner, table
    status (saved); ``games.signals.game_finished`` is sent after the
    commit (with ``announce``; a caller that broadcasts the end itself
    calls ``announce_finished`` after queueing its broadcast, so that the
    receivers' news follows the game_over frames). Called by the services
    inside their transaction; the game row itself is saved by the caller
    (or here with ``save_game``)."""
    now = now or timezone.now()
    game.result = finish_result(state) if result is None else result
    game.winner = state.winner
    game.finished_at = now
    if save_game:
        game.save(update_fields=["result", "winner", "finished_at"])
    table.status = Table.Status.FINISHED
    table.finished_at = now
    table.save(update_fields=["status", "finished_at"])
    one_game.release(table_id=table.pk)
    if announce:
        announce_finished(game=game, table=table)


def announce_finished(*, game: Game, table: Table) -> None:
    """Send ``games.signals.game_finished`` after the commit, behind the
    after-commit work queued before it (on_commit runs in order)."""
    transaction.on_commit(lambda: game_finished.send(sender=Game, game=game, table=table))


def _check_seat(locked: _Locked, seat: int | None) -> int:
    if seat is None or not 0 <= seat < locked.state.rules.players:
        raise NotSeated(_("You have no seat at this table."))
    return seat


def play_move(
    *,
    game_id: int,
    seat: int,
    action: Action,
    expected_seq: int,
    by: str = "",
    computer: Mapping[str, Any] | None = None,
) -> Outcome:
    """Apply a play, draw or pass of ``seat`` if ``expected_seq`` is the
    game's last event number. ``by`` notes who acted when it is not the
    seat's person: "computer", or "server" (a timeout). ``computer`` records
    how a computer chose the move ({"level", "budget_ms", "version"},
    ``games.ai.decision_record``): with the game's
    seed it lets anyone recompute the move once the game is over (games.fairplay.fairness)."""
    if action.seat != seat:
        raise NotYourTurn(_("This action is not for your seat."), reason="wrong_seat")
    locked = _load(game_id, expected_seq=expected_seq)
    with _kept_unless_written(locked):
        _check_seat(locked, seat)
        before = locked.state
        try:
            after = apply_action(before, action)
        except IllegalAction as error:
            raise _engine_error(error) from None
        # A draw's tile (the boneyard's first) is stored, shown to the drawer only.
        drawn = before.boneyard[0] if isinstance(action, Draw) else None
        event = Event.from_action(action, drawn=drawn, by=by, computer=computer or None)
    return _record(locked, after, event)


@contextmanager
def _kept_unless_written(locked: _Locked) -> Iterator[None]:
    """A command refused before its write leaves this process's entry as it was."""
    try:
        yield
    except GameError:
        live_games.keep(locked)
        raise


def start_next_round(*, game_id: int, seat: int | None, expected_seq: int | None = None) -> Outcome:
    """Deal the next round once a round is over. ``seat`` is the person who
    asked (any person seated at the table may), or None when the server
    deals it (a table without people, a timer)."""
    locked = _load(game_id, expected_seq=expected_seq)
    with _kept_unless_written(locked):
        if seat is not None:
            _check_seat(locked, seat)
            if seat not in locked.seats.humans:
                raise NotSeated(_("Only a player may start the next round."))
        try:
            after = next_round(locked.state)
        except IllegalAction as error:
            raise _engine_error(error) from None
    return _record(locked, after, Event(EventKind.NEXT_ROUND, seat))


def resign(*, game_id: int, seat: int, expected_seq: int | None = None) -> Outcome:
    """``seat`` gives up: the game ends against them (games.engine.resign)."""
    locked = _load(game_id, expected_seq=expected_seq)
    with _kept_unless_written(locked):
        _check_seat(locked, seat)
        try:
            after = engine_resign(locked.state, seat)
        except IllegalAction as error:
            raise _engine_error(error) from None
    return _record(locked, after, Event(EventKind.RESIGN, seat))


def offer_draw(*, game_id: int, seat: int) -> Outcome | DrawOffer:
    """``seat`` offers (or agrees to) a draw. The game ends drawn once every
    person seated has offered during the current round (seed 001); offers
    lapse when the next round is dealt. Computers never agree, so a draw
    needs at least two people at the table: against the computer alone the
    offer is refused (resign instead)."""
    with transaction.atomic():
        locked = _lock(game_id)
        _check_seat(locked, seat)
        humans = locked.seats.humans
        if seat not in humans:
            raise NotSeated(_("Only a player may offer a draw."))
        if len(humans) < 2:
            raise NotAllowed(_("The computer does not accept draws."), reason="computer_table")
        game = locked.game
        offers = sorted(set(game.draw_offers) | {seat})
        if set(offers) >= humans:
            after = agree_draw(locked.state)
            return _record(locked, after, Event(EventKind.AGREE_DRAW, seats=tuple(offers)))
        game.draw_offers = offers
        game.save(update_fields=["draw_offers"])
        facts = selectors.table_facts(locked.table, game)
        table_id, players = locked.table.pk, locked.state.rules.players
        frame = {"type": "draw_offer", "seat": seat, "seats": offers}
        transaction.on_commit(
            lambda: broadcast.broadcast_notice(table_id=table_id, players=players, frame=frame, table=facts)
        )
        return DrawOffer(game.pk, seat, tuple(offers))


def abort_game(*, game_id: int, reason: str = "aborted") -> bool:
    """Stop a game that cannot go on (nobody came back, an admin): the table
    is marked aborted, nobody wins and nothing is rated. Returns whether a
    live game was aborted."""
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("table").filter(pk=game_id).first()
        if game is None or game.finished or not game.table.live:
            return False
        now = timezone.now()
        game.result = {
            "scores": None,
            "winner": None,
            "reason": reason,
            "resigned": None,
            "rounds": None,
            "rounds_played": 0,
            "aborted": True,
        }
        game.finished_at = now
        game.to_move = None
        game.save(update_fields=["result", "finished_at", "to_move", "updated_at"])
        table = game.table
        table.status = Table.Status.ABORTED
        table.finished_at = now
        table.save(update_fields=["status", "finished_at"])
        one_game.release(table_id=table.pk)
        transaction.on_commit(lambda: live_games.forget(game_id))
        state = selectors.game_state(game)
        if state is not None:
            info = selectors.table_seat_info(table.pk)
            facts = selectors.table_facts(table, game)
            seq, head = game.seq, move_chain.head(game)
            transaction.on_commit(
                lambda: broadcast.broadcast_snapshot(
                    table_id=table.pk, seq=seq, state=state, humans=info.humans, table=facts, chain=head
                )
            )
        return True


__all__ = [
    "DrawOffer",
    "Outcome",
    "abort_game",
    "announce_finished",
    "finish_game",
    "offer_draw",
    "play_move",
    "resign",
    "start_next_round",
]
