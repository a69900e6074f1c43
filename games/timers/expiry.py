"""What the turn clock does when it runs out (its rules and what everyone sees:
``games.live.clock``): the sweep of live games, playing for a player out of
time, a computer standing in for a person who left (``stand_ins``), the
abandonment of a duel and the opponent's claim. Everything goes through the
move services (the only code that writes games); ``sweep`` runs from the
periodic tick (lobby.periodic)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.live import clock
from games.models import Game, Seat, StandIn, Table
from games.play.locks import try_lock
from games.play.services.errors import GameError, NotSeated
from games.play.services.moves import resign, start_next_round
from games.signals import seat_abandoned
from games.timers import away, stand_ins

logger = logging.getLogger(__name__)


class ClaimRefused(GameError):
    code = "not_allowed"


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
            away.announce_if_presence_changed(game_id=game_id)
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
        if now >= started + clock.turn_time(humans[seat].turn_percent):
            return stand_ins.play_for(game_id=game.pk, seat=seat, by="server")
        return 0
    if stand_in is not None:
        return stand_ins.play_for(game_id=game.pk, seat=seat, by="computer")
    if now < started + clock.grace_time():
        return 0
    if clock.is_duel(game, set(humans)):
        if now >= started + clock.abandon_time():
            abandon(game_id=game.pk, seat=seat)
            return 1
        return 0  # the opponent may claim the win (claim_win)
    return stand_ins.stand_in_for(game=game, seat=seat, user_id=humans[seat].user_id)


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
