"""Reads of the games app: tables, seats, states rebuilt from the move log,
and what a viewer may see. Nothing here writes."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engine import (
    Event,
    Rules,
    State,
    computer_seed,
    load_state,
    new_game,
)
from games.fairplay import move_chain
from games.live.clock import clock_facts
from games.live.frames import Frame, move_frames, snapshot_frames
from games.models import Game, Move, Seat, Table


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What the game services need to know about the seats of a table."""

    humans: frozenset[int]  # seats held by people (members or guests)
    computers: Mapping[int, str]  # seat -> level
    # seat -> its share of a turn's time (``Seat.turn_percent``), read with the
    # seats so that the clock needs no query of its own; None: not read.
    turn_percents: Mapping[int, int] | None = None

    def is_computer(self, seat: int | None) -> bool:
        return seat is not None and seat in self.computers


def get_table(table_id: int) -> Table | None:
    return Table.objects.select_related("game").filter(pk=table_id).first()


def get_game(game_id: int) -> Game | None:
    return Game.objects.select_related("table").filter(pk=game_id).first()


def seat_info(seats: Iterable[Seat]) -> SeatInfo:
    seats = list(seats)
    return SeatInfo(
        humans=frozenset(seat.number for seat in seats if seat.is_human),
        computers={seat.number: seat.level for seat in seats if seat.is_computer},
        turn_percents={seat.number: seat.turn_percent for seat in seats},
    )


def table_seat_info(table_id: int) -> SeatInfo:
    return seat_info(Seat.objects.filter(table_id=table_id))


def game_rules(game: Game) -> Rules:
    return Rules.from_dict(game.rules)


def game_state(game: Game) -> State | None:
    """The cached state after move ``game.seq`` (None before the game starts)."""
    return None if game.state is None else load_state(game.state)


def apply_move(state: State, kind: str, seat: int | None, payload: Mapping[str, Any]) -> State:
    """The state after one stored move (the engine checks it again)."""
    return Event.from_row(kind, seat, payload).apply(state)


def iter_states(game: Game, moves: Iterable[Move] | None = None) -> Iterator[tuple[Move | None, State]]:
    """The game's states from the deal, each with the move that led to it
    (None for the deal): a replay of the seed and the move log."""
    state = new_game(game_rules(game), game.seed)
    yield None, state
    for move in game.moves.order_by("seq") if moves is None else moves:
        state = apply_move(state, move.kind, move.seat, move.payload)
        yield move, state


def rebuild_state(game: Game, *, upto: int | None = None) -> State:
    """The state after move ``upto`` (default: the last), from seed + moves only."""
    moves = game.moves.order_by("seq")
    if upto is not None:
        moves = moves.filter(seq__lte=upto)
    state: State | None = None
    for _move, state_after in iter_states(game, moves):
        state = state_after
    assert state is not None
    return state


# Beyond this many missed events, a sync sends the whole state instead.
SYNC_REPLAY_LIMIT = 60


def sync_frames(
    game: Game, *, after: int, viewer: int | None, humans: Iterable[int], state: State | None = None
) -> list[Frame]:
    """A viewer's catch-up after event ``after``: the missed events (as they
    were sent) then the current state; or only the current state when
    nothing is missed, ``after`` is unknown or too far behind. ``state``:
    ``game_state(game)`` if the caller has it already."""
    humans = frozenset(humans)
    if state is None:
        state = game_state(game)
    if state is None:
        return []
    head = move_chain.head(game)
    missed = game.seq - after
    if missed <= 0 or after < 0 or missed > SYNC_REPLAY_LIMIT:
        return snapshot_frames(game.seq, state, viewer, humans, chain=head)
    frames: list[Frame] = []
    for move, replayed in iter_states(game):
        if move is not None and move.seq > after:
            frames.extend(
                move_frames(move.seq, move.kind, move.seat, move.payload, replayed, viewer, humans, chain=move.chain)
            )
    # The last frames already hold the current state; end on a state anyway.
    if not frames or frames[-1]["type"] != "state":
        frames.append(snapshot_frames(game.seq, state, viewer, humans, chain=head)[0])
    return frames


def current_tables(user_ids: Iterable[int]) -> dict[int, Table]:
    """Each member's game, the live table whose seat is theirs
    (``Seat.engaged``, games.play.services.seats); members without one are left out."""
    seats = Seat.objects.filter(
        user_id__in=list(user_ids), engaged=True, table__status__in=[Table.Status.WAITING, Table.Status.PLAYING]
    ).select_related("table")
    return {seat.user_id: seat.table for seat in seats if seat.user_id is not None}


def current_table(user_id: int) -> Table | None:
    """The member's game (``current_tables``), or None."""
    return current_tables([user_id]).get(user_id)


def table_seats(table_id: int) -> list[Seat]:
    """A table's seats in order, with their members (one query)."""
    return list(Seat.objects.filter(table_id=table_id).select_related("user").order_by("number"))


def viewer_seat_among(
    seats: Iterable[Seat], *, user: AbstractBaseUser | AnonymousUser | None, guest_key: str | None
) -> int | None:
    """``viewer_seat`` over seats already loaded (``table_seats``)."""
    seats = list(seats)
    if user is not None and user.is_authenticated:
        for seat in seats:
            if seat.user_id == user.pk:
                return seat.number
    if guest_key:
        for seat in seats:
            if seat.user_id is None and seat.guest_key == guest_key:
                return seat.number
    return None


def viewer_seat(
    table: Table, *, user: AbstractBaseUser | AnonymousUser | None, guest_key: str | None
) -> int | None:
    """The seat of a viewer (a member by account, a guest by session key), or
    None for a spectator. A player is always their seat, in every tab."""
    return viewer_seat_among(Seat.objects.filter(table=table).order_by("pk"), user=user, guest_key=guest_key)


def can_watch(table: Table, seat: int | None) -> bool:
    """Players see their table; anyone may watch a public one."""
    return seat is not None or table.public


def seat_name(seat: Seat, computer_number: int = 1) -> str:
    """The name shown for a seat, in the active language."""
    if seat.is_computer:
        return _("Computer %(number)s") % {"number": computer_number}
    if seat.name:
        return seat.name
    if seat.user_id is not None:
        # A member's seat keeps their name; without it, they closed their
        # account (games.play.services.tables.withdraw_member_names).
        return pgettext("seat", "Closed account")
    if seat.guest_key:
        return _("Guest")
    return pgettext("seat", "Open seat")


def seat_names(seats: Iterable[Seat]) -> dict[int, str]:
    """The names of a table's seats by number, as every page shows them (in
    the active language; computers numbered in seat order)."""
    names = {}
    computers = 0
    for seat in sorted(seats, key=lambda s: s.number):
        if seat.is_computer:
            computers += 1
        names[seat.number] = seat_name(seat, computers)
    return names


def table_players(table: Table, seats: Iterable[Seat] | None = None) -> list[dict[str, Any]]:
    """The players of a table as the page and the ``state`` frames show them
    (names in the active language); ``seats``: already loaded (``table_seats``)."""
    players = []
    computers = 0
    if seats is None:
        seats = table_seats(table.pk)
    for seat in seats:
        if seat.is_computer:
            computers += 1
        players.append(
            {
                "seat": seat.number,
                "name": seat_name(seat, computers),
                "kind": seat.kind,
                "level": seat.level or None,
                "member": seat.user.get_username() if seat.user is not None and seat.name else None,
                "bot": seat.bot,
            }
        )
    return players


def table_facts(
    table: Table,
    game: Game,
    humans: Collection[int] | None = None,
    connected: Collection[int] | None = None,
    percents: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """The live facts of a table sent with every broadcast (no names: those
    are translated per viewer); ``clock``: the turn timer (games.live.clock).
    ``humans``: the seats held by people, ``connected``: the seats with a
    live socket, ``percents`` each seat's share of a turn, when the caller has
    read them."""
    return {
        "status": table.status,
        "draw_offers": sorted(game.draw_offers),
        **clock_facts(table, game, humans, connected, percents),
    }


def table_object(
    table: Table,
    game: Game,
    players: list[dict[str, Any]],
    *,
    spectators: int,
    facts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``table`` object of a ``state`` frame (``facts``: ``table_facts``
    already computed)."""
    return {
        "id": table.pk,
        "kind": table.kind,
        "ranked": table.ranked,
        "mode": table.mode,
        "public": table.public,
        "preset": game.preset,
        "commitment": game.commitment,
        "players": players,
        "spectators": spectators,
        **(table_facts(table, game) if facts is None else facts),
    }


def ai_seed(game: Game, seq: int) -> int:
    """The seed of the computer's decision after event ``seq``: derived from
    the game's private seed, so that anyone holding the published seed can
    recompute each computer move from its seat's view (games.engine.computer_seed)."""
    return computer_seed(game.seed, seq)


@dataclass(frozen=True, slots=True)
class ComputerJob:
    """What the computer must do next at a game: play for ``seat`` at
    ``level``, or (``seat`` None) start the next round of a table without people."""

    seat: int | None
    level: str


def computer_job(state: State, seats: SeatInfo) -> ComputerJob | None:
    """The computer's next job in this state, if any."""
    if state.game_over:
        return None
    if state.to_move is not None:
        level = seats.computers.get(state.to_move)
        return None if level is None else ComputerJob(state.to_move, level)
    if state.round_over and not seats.humans:
        # Nobody to press "next round": the server deals it after a pause.
        return ComputerJob(None, "")
    return None


def stalled_games(*, idle_for: timedelta) -> list[Game]:
    """Live games with no move for ``idle_for`` that wait for a computer
    (a computer seat to act, or a round to deal at a table without people).
    One query, whatever the number of live tables."""
    cutoff = timezone.now() - idle_for
    computer_to_move = Seat.objects.filter(table_id=OuterRef("table_id"), number=OuterRef("to_move")).exclude(
        level=""
    )
    people = Seat.objects.filter(table_id=OuterRef("table_id"), level="").filter(
        Q(user__isnull=False) | ~Q(guest_key="")
    )
    return list(
        Game.objects.filter(
            finished_at__isnull=True,
            state__isnull=False,
            table__status=Table.Status.PLAYING,
            updated_at__lt=cutoff,
        )
        .filter(Q(Exists(computer_to_move)) | Q(to_move__isnull=True, round_over=True) & ~Exists(people))
        .select_related("table")
    )
