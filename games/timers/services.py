"""What the turn clock does when it runs out (its rules: games.live.clock): the
sweep of live games, playing for a player out of time, computers standing
in for people who left, abandonment and claims, and telling the table who
is away. Everything goes through the move services (the only code that
writes games); ``sweep`` runs from the periodic tick (lobby.periodic)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.ai import choose_action, decision_record
from games.engine import Action, State, legal_actions, view_for
from games.live import broadcast, clock, presence
from games.live.cache import cache
from games.models import Game, Seat, StandIn, Table
from games.play import selectors
from games.play.locks import try_lock
from games.play.services.errors import GameError, NotSeated, StaleSeq
from games.play.services.moves import play_move, resign, start_next_round
from games.signals import seat_abandoned

logger = logging.getLogger(__name__)

STAND_IN_LEVEL = "medium"
# Enough for a whole turn of the draw game (draws until a tile fits, then the play).
MAX_ACTIONS_PER_TURN = 30


class ClaimRefused(GameError):
    code = "not_allowed"


# --- The sweep --------------------------------------------------------------------


def sweep(*, now: datetime | None = None) -> int:
    """Act on every live game whose clock ran out; returns how many actions
    were taken. Only one process sweeps at a time."""
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
        except GameError as error:
            logger.info("clock of game %s: %s", game_id, error)
        except Exception:
            logger.exception("the clock of game %s failed", game_id)
    return acted


def check_game(*, game_id: int, now: datetime | None = None) -> int:
    """Apply the timer rules to one game; returns how many actions were taken."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.finished or game.state is None:
        return 0
    table = game.table
    humans = {seat.number: seat for seat in clock.human_seats(table.pk)}
    if not clock.timed(table, len(humans)):
        return 0
    now = now or timezone.now()
    started = game.updated_at
    if game.to_move is None:
        if game.round_over and now >= started + clock.next_round_time():
            start_next_round(game_id=game.pk, seat=None, expected_seq=game.seq)
            return 1
        return 0
    seat = game.to_move
    if seat not in humans:
        return 0
    connected = seat in clock.connected_seats(table.pk)
    stand_in = StandIn.objects.filter(table=table, seat=seat).first()
    if connected:
        if stand_in is not None:
            stand_in.delete()  # they are back
        if now >= started + clock.turn_time():
            return play_for(game_id=game.pk, seat=seat, by="server")
        return 0
    if stand_in is not None:
        return play_for(game_id=game.pk, seat=seat, by="computer")
    if now < started + clock.grace_time():
        return 0
    if clock.is_duel(game, set(humans)):
        if now >= started + clock.abandon_time():
            abandon(game_id=game.pk, seat=seat)
            return 1
        return 0  # the opponent may claim the win (claim_win)
    StandIn.objects.get_or_create(table=table, seat=seat, defaults={"user_id": humans[seat].user_id})
    logger.info("a computer takes seat %s of table %s", seat, table.pk)
    return play_for(game_id=game.pk, seat=seat, by="computer")


def choose_for(game: Game, state: State, seat: int) -> Action:
    """The forced draw or pass, or the only play; else the computer's choice."""
    legal = legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    action: Action = choose_action(view_for(state, seat), STAND_IN_LEVEL, seed=selectors.ai_seed(game, game.seq))
    return action


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
            play_move(
                game_id=game_id,
                seat=seat,
                action=action,
                expected_seq=game.seq,
                by=by,
                # How it was chosen: recomputable from the seat's view (games.fairplay.fairness).
                computer=decision_record(STAND_IN_LEVEL, None),
            )
        except StaleSeq:
            break
        done += 1
    return done


def abandon(*, game_id: int, seat: int) -> None:
    """End the game against ``seat``, who left it: a resignation that also
    counts as an abandoned game for a member."""
    with transaction.atomic():
        outcome = resign(game_id=game_id, seat=seat)
        user_id = (
            Seat.objects.filter(table_id=outcome.table_id, number=seat)
            .values_list("user_id", flat=True)
            .first()
        )
        # The members' app counts it against them (in this transaction).
        seat_abandoned.send(sender=Game, table_id=outcome.table_id, seat=seat, user_id=user_id)
    logger.info("seat %s abandoned game %s", seat, game_id)


def claim_win(*, game_id: int, seat: int, now: datetime | None = None) -> None:
    """In a duel, ``seat`` claims the win because the opponent is away past
    the grace period on their own turn."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        raise ClaimRefused(_("There is no game here."))
    shown = clock.clock_for(game.table, game, now=now)
    if shown is None or not shown.claimable or shown.seat is None or shown.seat == seat:
        raise ClaimRefused(_("You can claim the win only when your opponent has left during their turn."))
    if seat not in {s.number for s in clock.human_seats(game.table_id)}:
        raise NotSeated(_("You have no seat at this table."))
    abandon(game_id=game.pk, seat=shown.seat)


# --- Table sockets opening and closing (games.socket.table) -----------------------------


def open_table_socket(
    *, table_id: int, seat: int | None, user_id: int | None, session_key: str, channel_name: str
) -> None:
    """A table socket opened (or its viewer took a seat): record its presence,
    keep it fresh, and if a player came back, tell the table."""
    try:
        presence.touch_presence(
            channel_name=channel_name, user_id=user_id, session_key=session_key, table_id=table_id, seat=seat
        )
        presence.keep_table_socket(channel_name)
        if seat is not None:
            player_arrived(table_id=table_id, seat=seat)
    except Exception:
        logger.exception("presence of a socket at table %s failed", table_id)


def close_table_socket(*, table_id: int, seat: int | None, channel_name: str) -> None:
    """A table socket closed: forget its presence; if it was a player's last,
    the table hears that they are away."""
    try:
        presence.forget_table_socket(channel_name)
        presence.drop_presence(channel_name=channel_name)
        if seat is not None:
            player_left(table_id=table_id, seat=seat)
    except Exception:
        logger.exception("presence of a socket at table %s failed", table_id)


def _left_key(table_id: int, seat: int) -> str:
    # Keyed by the game's commitment too: table numbers may be reused (tests).
    commitment = Game.objects.filter(table_id=table_id).values_list("commitment", flat=True).first() or ""
    return f"clock:left:{table_id}:{commitment[:16]}:{seat}"


def player_arrived(*, table_id: int, seat: int) -> None:
    """A player's socket opened. If they had left (or a computer stood in for
    them), the seat is theirs again and the table hears that they are back;
    a first arrival changes nothing the others must hear at once."""
    key = _left_key(table_id, seat)
    returned = bool(cache.get(key))
    deleted, _details = StandIn.objects.filter(table_id=table_id, seat=seat).delete()
    if returned or deleted:
        cache.delete(key)
        announce_clock(table_id=table_id)


def player_left(*, table_id: int, seat: int) -> None:
    """A player's socket closed: if it was their last, the table hears that
    they are away (their grace period shows on the clock)."""
    if seat not in clock.connected_seats(table_id):
        cache.set(_left_key(table_id, seat), 1, timeout=24 * 3600)
        announce_clock(table_id=table_id)


def announce_if_presence_changed(*, game_id: int) -> bool:
    """Send the clock again when the set of away players changed since the
    sweep last looked (a first arrival, a process that died with its sockets):
    the periodic sweep keeps everyone's "away" marks true within a tick."""
    game = Game.objects.filter(pk=game_id).only("table_id", "commitment").first()
    if game is None:
        return False
    humans = {seat.number for seat in clock.human_seats(game.table_id)}
    away = sorted(humans - clock.connected_seats(game.table_id))
    key = f"clock:away:{game.table_id}:{game.commitment[:16]}"
    if cache.get(key) == away:
        return False
    cache.set(key, away, timeout=24 * 3600)
    announce_clock(table_id=game.table_id)
    return True


def announce_clock(*, table_id: int) -> None:
    """Send the table's clock to all its sockets (a ``clock`` notice frame:
    public, no tile)."""
    game = Game.objects.select_related("table").filter(table_id=table_id).first()
    if game is None or game.state is None or game.finished:
        return
    shown = clock.clock_for(game.table, game)
    frame = {"type": "clock", "clock": None if shown is None else shown.to_dict()}
    broadcast.broadcast_notice(
        table_id=table_id,
        players=int(game.rules.get("players", 2)),
        frame=frame,
        table=selectors.table_facts(game.table, game),
    )


def close_stand_ins(*, table_id: int) -> list[int]:
    """At the end of a game, forget the computers standing in for people who
    left; returns the members they stood in for, each once per stand-in
    (the members' app counts an abandoned game against each)."""
    stand_ins = list(StandIn.objects.filter(table_id=table_id))
    StandIn.objects.filter(pk__in=[s.pk for s in stand_ins]).delete()
    return [stand_in.user_id for stand_in in stand_ins if stand_in.user_id is not None]
