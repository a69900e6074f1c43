"""Fair play at tables with at least two people: the turn timer, absent
players, and abandonment.

- Each turn of a person has ``TURN_SECONDS`` (shown to everyone: the
  ``clock`` of the table facts). A turn starts when the previous event was
  stored (``Game.updated_at``). When it runs out, the server plays for them:
  the forced draw or pass, else the computer's choice (``by="server"``).
- A player whose sockets are all closed is *away*. On their own turn they
  get a grace period (``GRACE_SECONDS`` from the start of the turn) to come
  back; after it, in a duel the opponent may claim the win (``claim_win``;
  the game ends as an abandonment after ``ABANDON_SECONDS`` if nobody claims),
  and at three or four players (or pairs) a computer takes the seat
  (``accounts.StandIn``) until they return.
- Between rounds the next round is dealt after ``NEXT_ROUND_SECONDS`` if
  nobody asked for it.
- A game left by a member counts against them: a resignation or a claimed
  win ranks them last and adds one to their abandoned games.

Everything is done through ``games.services`` (the only code that writes
games); ``sweep`` runs from the periodic tick (accounts.periodic).
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import selectors, services
from games.ai import choose_action
from games.engine import State, legal_actions, view_for
from games.models import Game, Seat, Table

logger = logging.getLogger(__name__)

STAND_IN_LEVEL = "medium"
# Enough for a whole turn of the draw game (draws until a tile fits, then the play).
MAX_ACTIONS_PER_TURN = 30


def _seconds(name: str, default: float) -> timedelta:
    return timedelta(seconds=float(getattr(settings, name, default)))


def turn_time() -> timedelta:
    return _seconds("TURN_SECONDS", 30)


def grace_time() -> timedelta:
    return _seconds("DISCONNECT_GRACE_SECONDS", 60)


def abandon_time() -> timedelta:
    return _seconds("ABANDON_SECONDS", 300)


def next_round_time() -> timedelta:
    return _seconds("NEXT_ROUND_SECONDS", 20)


class ClaimRefused(services.GameError):
    code = "not_allowed"


# --- Who is at the table ------------------------------------------------------


def connected_seats(table_id: int) -> set[int]:
    """Seats with at least one open table socket (accounts.Presence)."""
    from accounts.periodic import live_presence

    return set(live_presence().filter(table_id=table_id, seat__isnull=False).values_list("seat", flat=True))


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "deadline": self.deadline.isoformat(),
            "deadline_ms": int(self.deadline.timestamp() * 1000),
            "turn_seconds": int(turn_time().total_seconds()),
            "grace_deadline_ms": None
            if self.grace_deadline is None
            else int(self.grace_deadline.timestamp() * 1000),
            "away": list(self.away),
            "claimable": self.claimable,
        }


def clock_for(
    table: Table, game: Game, *, now: datetime | None = None, humans: Collection[int] | None = None
) -> Clock | None:
    """The timer of a live game, or None (no timer, or nothing to wait for).
    ``humans``: the seats held by people, when the caller has read them."""
    if game.finished or game.state is None or table.status != Table.Status.PLAYING:
        return None
    if humans is None:
        humans = {seat.number for seat in human_seats(table.pk)}
    humans = set(humans)
    if not timed(table, len(humans)):
        return None
    now = now or timezone.now()
    started = game.updated_at or now
    away = tuple(sorted(humans - connected_seats(table.pk)))
    if game.to_move is None:
        if not game.round_over:
            return None
        return Clock(None, started + next_round_time(), None, away, False)
    if game.to_move not in humans:
        return None
    grace = started + grace_time() if game.to_move in away else None
    claimable = bool(grace and now >= grace and _is_duel(game, humans))
    return Clock(game.to_move, started + turn_time(), grace, away, claimable)


def clock_facts(table: Table, game: Game, humans: Collection[int] | None = None) -> dict[str, Any]:
    """``{"clock": {...} | None}`` for the table facts of every frame
    (games.selectors.table_facts): the state frames carry the timer."""
    if table.kind == Table.Kind.COMPUTER or game.finished or game.state is None:
        return {"clock": None}
    clock = clock_for(table, game, humans=humans)
    return {"clock": None if clock is None else clock.to_dict()}


def _is_duel(game: Game, humans: set[int]) -> bool:
    return int(game.rules.get("players", 0)) == 2 and len(humans) == 2


# --- The sweep --------------------------------------------------------------------


def sweep(*, now: datetime | None = None) -> int:
    """Act on every live game whose clock ran out; returns how many actions
    were taken. Only one process sweeps at a time."""
    from accounts.periodic import try_lock

    with transaction.atomic():
        if not try_lock("clock"):
            return 0
        candidates = list(
            Game.objects.filter(
                finished_at__isnull=True,
                state__isnull=False,
                table__status=Table.Status.PLAYING,
            )
            .exclude(table__kind=Table.Kind.COMPUTER)
            .select_related("table")
            .values_list("pk", flat=True)
        )
    acted = 0
    for game_id in candidates:
        try:
            announce_if_presence_changed(game_id=game_id)
            acted += check_game(game_id=game_id, now=now)
        except services.GameError as error:
            logger.info("clock of game %s: %s", game_id, error)
        except Exception:
            logger.exception("the clock of game %s failed", game_id)
    return acted


def check_game(*, game_id: int, now: datetime | None = None) -> int:
    """Apply the timer rules to one game; returns how many actions were taken."""
    from accounts.models import StandIn

    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.finished or game.state is None:
        return 0
    table = game.table
    humans = {seat.number: seat for seat in human_seats(table.pk)}
    if not timed(table, len(humans)):
        return 0
    now = now or timezone.now()
    started = game.updated_at
    if game.to_move is None:
        if game.round_over and now >= started + next_round_time():
            services.start_next_round(game_id=game.pk, seat=None, expected_seq=game.seq)
            return 1
        return 0
    seat = game.to_move
    if seat not in humans:
        return 0
    connected = seat in connected_seats(table.pk)
    stand_in = StandIn.objects.filter(table=table, seat=seat).first()
    if connected:
        if stand_in is not None:
            stand_in.delete()  # they are back
        if now >= started + turn_time():
            return play_for(game_id=game.pk, seat=seat, by="server")
        return 0
    if stand_in is not None:
        return play_for(game_id=game.pk, seat=seat, by="computer")
    if now < started + grace_time():
        return 0
    if _is_duel(game, set(humans)):
        if now >= started + abandon_time():
            abandon(game_id=game.pk, seat=seat)
            return 1
        return 0  # the opponent may claim the win (claim_win)
    StandIn.objects.get_or_create(table=table, seat=seat, defaults={"user_id": humans[seat].user_id})
    logger.info("a computer takes seat %s of table %s", seat, table.pk)
    return play_for(game_id=game.pk, seat=seat, by="computer")


def choose_for(game: Game, state: State, seat: int) -> Any:
    """The forced draw or pass, or the only play; else the computer's choice."""
    legal = legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    return choose_action(view_for(state, seat), STAND_IN_LEVEL, seed=selectors.ai_seed(game, game.seq))


def play_for(*, game_id: int, seat: int, by: str) -> int:
    """Play ``seat``'s whole turn for them (through play_move); returns the
    number of actions. Stops at once if anyone else moved meanwhile."""
    done = 0
    for _attempt in range(MAX_ACTIONS_PER_TURN):
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.finished or game.to_move != seat:
            break
        state = selectors.game_state(game)
        if state is None or state.to_move != seat:
            break
        action = choose_for(game, state, seat)
        try:
            services.play_move(
                game_id=game_id,
                seat=seat,
                action=action,
                expected_seq=game.seq,
                by=by,
                # How it was chosen: recomputable from the seat's view (games.fairness).
                computer={"level": STAND_IN_LEVEL, "budget_ms": None},
            )
        except services.StaleSeq:
            break
        done += 1
    return done


def abandon(*, game_id: int, seat: int) -> None:
    """End the game against ``seat``, who left it: a resignation that also
    counts as an abandoned game for a member."""
    from accounts.services import record_abandonment

    with transaction.atomic():
        outcome = services.resign(game_id=game_id, seat=seat)
        user_id = (
            Seat.objects.filter(table_id=outcome.table_id, number=seat)
            .values_list("user_id", flat=True)
            .first()
        )
        if user_id is not None:
            record_abandonment(user_id=user_id)
    logger.info("seat %s abandoned game %s", seat, game_id)


def claim_win(*, game_id: int, seat: int, now: datetime | None = None) -> None:
    """In a duel, ``seat`` claims the win because the opponent is away past
    the grace period on their own turn."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        raise ClaimRefused(_("There is no game here."))
    clock = clock_for(game.table, game, now=now)
    if clock is None or not clock.claimable or clock.seat is None or clock.seat == seat:
        raise ClaimRefused(_("You can claim the win only when your opponent has left during their turn."))
    if seat not in {s.number for s in human_seats(game.table_id)}:
        raise services.NotSeated(_("You have no seat at this table."))
    abandon(game_id=game.pk, seat=clock.seat)


# --- Table sockets opening and closing (games.signals) -----------------------------


def _left_key(table_id: int, seat: int) -> str:
    # Keyed by the game's commitment too: table numbers may be reused (tests).
    commitment = Game.objects.filter(table_id=table_id).values_list("commitment", flat=True).first() or ""
    return f"clock:left:{table_id}:{commitment[:16]}:{seat}"


def player_arrived(*, table_id: int, seat: int) -> None:
    """A player's socket opened. If they had left (or a computer stood in for
    them), the seat is theirs again and the table hears that they are back;
    a first arrival changes nothing the others must hear at once."""
    from accounts.models import StandIn

    key = _left_key(table_id, seat)
    returned = bool(cache.get(key))
    deleted, _details = StandIn.objects.filter(table_id=table_id, seat=seat).delete()
    if returned or deleted:
        cache.delete(key)
        announce_clock(table_id=table_id)


def player_left(*, table_id: int, seat: int) -> None:
    """A player's socket closed: if it was their last, the table hears that
    they are away (their grace period shows on the clock)."""
    if seat not in connected_seats(table_id):
        cache.set(_left_key(table_id, seat), 1, timeout=24 * 3600)
        announce_clock(table_id=table_id)


def announce_if_presence_changed(*, game_id: int) -> bool:
    """Send the clock again when the set of away players changed since the
    sweep last looked (a first arrival, a process that died with its sockets):
    the periodic sweep keeps everyone's "away" marks true within a tick."""
    game = Game.objects.filter(pk=game_id).only("table_id", "commitment").first()
    if game is None:
        return False
    humans = {seat.number for seat in human_seats(game.table_id)}
    away = sorted(humans - connected_seats(game.table_id))
    key = f"clock:away:{game.table_id}:{game.commitment[:16]}"
    if cache.get(key) == away:
        return False
    cache.set(key, away, timeout=24 * 3600)
    announce_clock(table_id=game.table_id)
    return True


def announce_clock(*, table_id: int) -> None:
    """Send the table's clock to all its sockets (a ``clock`` notice frame:
    public, no tile)."""
    from games.services import broadcast

    game = Game.objects.select_related("table").filter(table_id=table_id).first()
    if game is None or game.state is None or game.finished:
        return
    clock = clock_for(game.table, game)
    frame = {"type": "clock", "clock": None if clock is None else clock.to_dict()}
    broadcast.broadcast_notice(
        table_id=table_id,
        players=int(game.rules.get("players", 2)),
        frame=frame,
        table=selectors.table_facts(game.table, game),
    )
