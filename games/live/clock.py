"""The turn clock of tables with at least two people, as everyone sees it:
reads only (what the clock shows; the actions when it runs out are
``games.timers``). The rules:

- Each turn of a person has ``TURN_SECONDS`` (shown to everyone: the
  ``clock`` of the table facts), times their seat's ``turn_percent`` (100,
  or 50 for a berserk tournament player). A turn starts when the previous event was
  stored (``Game.updated_at``). When it runs out, the server plays for them:
  the forced draw or pass, else the computer's choice (``by="server"``).
- A player whose sockets are all closed is *away*. On their own turn they
  get a grace period (``GRACE_SECONDS`` from the start of the turn) to come
  back; after it, in a duel the opponent may claim the win (``claim_win``;
  the game ends as an abandonment after ``ABANDON_SECONDS`` if nobody claims),
  and at three or four players (or pairs) a computer takes the seat
  (``games.models.StandIn``) until they return.
- Between rounds the next round is dealt after ``NEXT_ROUND_SECONDS`` if
  nobody asked for it.
- A game left by a member counts against them: a resignation or a claimed
  win ranks them last and adds one to their abandoned games (the
  ``seat_abandoned`` signal, games.signals).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.live.presence import live_presence
from games.models import Game, Seat, Table


def _seconds(name: str, default: float) -> timedelta:
    return timedelta(seconds=float(getattr(settings, name, default)))


def turn_time(percent: int = 100) -> timedelta:
    """A turn's time for a seat with ``percent`` of it (``Seat.turn_percent``:
    100, or 50 for a berserk tournament player)."""
    return _seconds("TURN_SECONDS", 30) * percent / 100


def turn_percents(table_id: int) -> dict[int, int]:
    """Each seat's share of the turn time, in percent."""
    return dict(Seat.objects.filter(table_id=table_id).values_list("number", "turn_percent"))


def grace_time() -> timedelta:
    return _seconds("DISCONNECT_GRACE_SECONDS", 60)


def abandon_time() -> timedelta:
    return _seconds("ABANDON_SECONDS", 300)


def next_round_time() -> timedelta:
    return _seconds("NEXT_ROUND_SECONDS", 20)


# --- Who is at the table ------------------------------------------------------


def connected_seats(table_id: int) -> set[int]:
    """Seats with at least one open table socket (games.models.Presence)."""
    seats = live_presence().filter(table_id=table_id, seat__isnull=False).values_list("seat", flat=True)
    return {seat for seat in seats if seat is not None}


def human_seats(table_id: int) -> list[Seat]:
    return [seat for seat in Seat.objects.filter(table_id=table_id).order_by("number") if seat.is_human]


def timed(table: Table, humans: int) -> bool:
    """Timers apply to live tables with at least two people."""
    return humans >= 2 and table.kind != Table.Kind.COMPUTER


# --- What everyone sees ---------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    seat: int | None  # the person to act, or None between rounds
    deadline: datetime  # the turn's end (or the automatic next round)
    grace_deadline: datetime | None  # when an away player's grace ends
    away: tuple[int, ...]  # seats of people with no live socket
    claimable: bool  # a duel opponent may claim the win now
    turn_seconds: float = 0.0  # the whole turn of the seat to act (0 between rounds)
    turn_seconds_by_seat: tuple[float, ...] = ()  # every seat's whole turn, by seat

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "deadline": self.deadline.isoformat(),
            "deadline_ms": int(self.deadline.timestamp() * 1000),
            "turn_seconds": _whole(self.turn_seconds),
            "turn_seconds_by_seat": [_whole(seconds) for seconds in self.turn_seconds_by_seat],
            "grace_deadline_ms": None
            if self.grace_deadline is None
            else int(self.grace_deadline.timestamp() * 1000),
            "away": list(self.away),
            "claimable": self.claimable,
        }


def _whole(seconds: float) -> int | float:
    return int(seconds) if float(seconds).is_integer() else round(seconds, 1)


def clock_for(
    table: Table,
    game: Game,
    *,
    now: datetime | None = None,
    humans: Collection[int] | None = None,
    connected: Collection[int] | None = None,
    percents: Mapping[int, int] | None = None,
) -> Clock | None:
    """The timer of a live game, or None (no timer, or nothing to wait for).
    ``humans``: the seats held by people, ``connected``: the seats with a
    live socket (``connected_seats``), ``percents`` each seat's share of a turn
    (``turn_percents``), when the caller has read them."""
    if game.finished or game.state is None or table.status != Table.Status.PLAYING:
        return None
    if humans is None:
        humans = {seat.number for seat in human_seats(table.pk)}
    humans = set(humans)
    if not timed(table, len(humans)):
        return None
    now = now or timezone.now()
    started = game.updated_at or now
    away = tuple(sorted(humans - set(connected_seats(table.pk) if connected is None else connected)))
    percents = turn_percents(table.pk) if percents is None else percents
    by_seat = tuple(
        turn_time(percents.get(seat, 100)).total_seconds() for seat in range(int(game.rules.get("players", 0)))
    )
    if game.to_move is None:
        if not game.round_over:
            return None
        return Clock(None, started + next_round_time(), None, away, False, 0.0, by_seat)
    if game.to_move not in humans:
        return None
    grace = started + grace_time() if game.to_move in away else None
    claimable = bool(grace and now >= grace and is_duel(game, humans))
    turn = turn_time(percents.get(game.to_move, 100))
    return Clock(game.to_move, started + turn, grace, away, claimable, turn.total_seconds(), by_seat)


def clock_facts(
    table: Table,
    game: Game,
    humans: Collection[int] | None = None,
    connected: Collection[int] | None = None,
    percents: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """``{"clock": {...} | None}`` for the table facts of every frame
    (games.play.selectors.table_facts): the state frames carry the timer."""
    if table.kind == Table.Kind.COMPUTER or game.finished or game.state is None:
        return {"clock": None}
    clock = clock_for(table, game, humans=humans, connected=connected, percents=percents)
    return {"clock": None if clock is None else clock.to_dict()}


def is_duel(game: Game, humans: set[int]) -> bool:
    return int(game.rules.get("players", 0)) == 2 and len(humans) == 2
