"""Playing: the only code that changes a game in progress.

Every command locks the game row, checks the action with the engine against
the real hands, appends one ``Move`` with the next ``seq``, saves the new
state, and commits; only then (``transaction.on_commit``) are the views
broadcast, the next computer turn queued and ``game_finished`` sent. A
refused command raises a ``GameError`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import chain, selectors
from games.engine import (
    Action,
    Draw,
    IllegalAction,
    Play,
    State,
    agree_draw,
    apply_action,
    dump_state,
    next_round,
)
from games.engine import resign as engine_resign
from games.models import Game, Move, Table
from games.signals import game_finished

from . import broadcast
from .errors import GameNotLive, IllegalMove, NotAllowed, NotSeated, NotYourTurn, StaleSeq


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
    # The chained move log's head after this move (games.chain).
    chain: str = ""

    @property
    def finished(self) -> bool:
        return self.state.game_over


@dataclass(frozen=True, slots=True)
class DrawOffer:
    """A draw offer recorded without ending the game (``seats`` offered so far)."""

    game_id: int
    seat: int
    seats: tuple[int, ...]


@dataclass
class _Locked:
    game: Game
    table: Table
    state: State
    seats: selectors.SeatInfo


def _lock(game_id: int, *, expected_seq: int | None = None) -> _Locked:
    """The game row locked for this transaction, its table, state and seats.
    Refuses a game that is not live and (if given) a stale ``expected_seq``."""
    game = Game.objects.select_for_update(of=("self",)).select_related("table").filter(pk=game_id).first()
    if game is None:
        raise GameNotLive(_("This game does not exist."), reason="no_game")
    state = selectors.game_state(game)
    if state is None or game.table.status != Table.Status.PLAYING or game.finished:
        raise GameNotLive(_("This game is not being played."), reason="not_live")
    if expected_seq is not None and expected_seq != game.seq:
        raise StaleSeq(
            _("Your game is out of date (the table is at event %(seq)s): sync first.") % {"seq": game.seq},
            current=game.seq,
        )
    seats = selectors.table_seat_info(game.table_id)
    return _Locked(game, game.table, state, seats)


def _engine_error(error: IllegalAction) -> Exception:
    if error.code == "not_your_turn":
        return NotYourTurn(_("It is not your turn."), reason=error.code)
    # The engine's reason (English) travels as the detail.
    return IllegalMove(_("This move is not allowed."), reason=error.code, detail=error.reason)


def _record(
    locked: _Locked, new_state: State, *, kind: str, seat: int | None, payload: dict[str, Any]
) -> Outcome:
    """Append the move, save the state, end the game if it is over, and
    arrange the after-commit work. Runs inside the locked transaction."""
    game, table = locked.game, locked.table
    game.seq += 1
    game.chain = chain.move_link(chain.head(game), seq=game.seq, kind=kind, seat=seat, payload=payload)
    Move.objects.create(game=game, seq=game.seq, seat=seat, kind=kind, payload=payload, chain=game.chain)
    game.state = dump_state(new_state)
    game.to_move = new_state.to_move
    game.round_over = new_state.round_over
    if kind == Move.Kind.NEXT_ROUND:
        game.draw_offers = []
    fields = ["seq", "chain", "state", "to_move", "round_over", "draw_offers", "updated_at"]
    if new_state.game_over:
        finish_game(game=game, table=table, state=new_state)
        fields += ["result", "winner", "finished_at"]
    game.save(update_fields=fields)
    facts = selectors.table_facts(table, game, locked.seats.humans)
    outcome = Outcome(
        game.pk, table.pk, game.seq, kind, seat, payload, new_state, locked.seats.humans, facts, game.chain
    )
    # The computer's turn is queued before anyone hears of the move: a
    # process that dies after announcing it cannot leave the game waiting.
    after_commit_work(game_id=game.pk, seq=game.seq, state=new_state, seats=locked.seats)
    transaction.on_commit(
        lambda: broadcast.broadcast_move(
            table_id=outcome.table_id,
            seq=outcome.seq,
            kind=kind,
            seat=seat,
            payload=payload,
            state=new_state,
            humans=outcome.humans,
            table=facts,
            chain=outcome.chain,
        )
    )
    return outcome


def after_commit_work(*, game_id: int, seq: int, state: State, seats: selectors.SeatInfo) -> None:
    """Queue the computer's next job (if any) once the transaction commits."""
    if selectors.computer_job(state, seats) is None:
        return
    from games import dispatch  # dispatch imports the tasks, which import services

    transaction.on_commit(lambda: dispatch.queue_computer_turn(game_id, seq))


def finish_game(*, game: Game, table: Table, state: State) -> None:
    """Close a game that the engine says is over: result, winner, table
    status; ``games.signals.game_finished`` is sent after the commit.
    Called by the play services inside their locked transaction."""
    now = timezone.now()
    game.result = {
        "scores": list(state.scores),
        "winner": state.winner,
        "reason": state.end_reason,
        "resigned": state.resigned,
        "rounds": state.round,
    }
    game.winner = state.winner
    game.finished_at = now
    table.status = Table.Status.FINISHED
    table.finished_at = now
    table.save(update_fields=["status", "finished_at"])
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
    how a computer chose the move ({"level", "budget_ms"}): with the game's
    seed it lets anyone recompute the move once the game is over (games.fairness)."""
    if action.seat != seat:
        raise NotYourTurn(_("This action is not for your seat."), reason="wrong_seat")
    with transaction.atomic():
        locked = _lock(game_id, expected_seq=expected_seq)
        _check_seat(locked, seat)
        before = locked.state
        try:
            after = apply_action(before, action)
        except IllegalAction as error:
            raise _engine_error(error) from None
        payload: dict[str, Any] = {}
        if isinstance(action, Play):
            kind = Move.Kind.PLAY
            payload = {"tile": action.tile.to_list(), "end": str(action.end)}
        elif isinstance(action, Draw):
            kind = Move.Kind.DRAW
            # The tile drawn (the boneyard's first): stored, shown to the drawer only.
            payload = {"tile": before.boneyard[0].to_list()}
        else:
            kind = Move.Kind.PASS
        if by:
            payload["by"] = by
        if computer:
            payload["computer"] = dict(computer)
        return _record(locked, after, kind=kind, seat=seat, payload=payload)


def start_next_round(*, game_id: int, seat: int | None, expected_seq: int | None = None) -> Outcome:
    """Deal the next round once a round is over. ``seat`` is the person who
    asked (any person seated at the table may), or None when the server
    deals it (a table without people, a timer)."""
    with transaction.atomic():
        locked = _lock(game_id, expected_seq=expected_seq)
        if seat is not None:
            _check_seat(locked, seat)
            if seat not in locked.seats.humans:
                raise NotSeated(_("Only a player may start the next round."))
        try:
            after = next_round(locked.state)
        except IllegalAction as error:
            raise _engine_error(error) from None
        return _record(locked, after, kind=Move.Kind.NEXT_ROUND, seat=seat, payload={})


def resign(*, game_id: int, seat: int, expected_seq: int | None = None) -> Outcome:
    """``seat`` gives up: the game ends against them (games.engine.resign)."""
    with transaction.atomic():
        locked = _lock(game_id, expected_seq=expected_seq)
        _check_seat(locked, seat)
        try:
            after = engine_resign(locked.state, seat)
        except IllegalAction as error:
            raise _engine_error(error) from None
        return _record(locked, after, kind=Move.Kind.RESIGN, seat=seat, payload={})


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
            return _record(locked, after, kind=Move.Kind.AGREE_DRAW, seat=None, payload={"seats": offers})
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
        game.result = {"scores": None, "winner": None, "reason": reason, "resigned": None, "rounds": None}
        game.finished_at = now
        game.to_move = None
        game.save(update_fields=["result", "finished_at", "to_move", "updated_at"])
        table = game.table
        table.status = Table.Status.ABORTED
        table.finished_at = now
        table.save(update_fields=["status", "finished_at"])
        state = selectors.game_state(game)
        if state is not None:
            info = selectors.table_seat_info(table.pk)
            facts = selectors.table_facts(table, game)
            seq, head = game.seq, chain.head(game)
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
    "finish_game",
    "offer_draw",
    "play_move",
    "resign",
    "start_next_round",
]
