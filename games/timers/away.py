"""Who is away from a table: the table sockets opening and closing
(``games.socket.table``) record their presence (``games.live.services``), give a
returning player their seat back from a stand-in, and tell the table when a
player left or came back (a ``clock`` notice)."""

from __future__ import annotations

import logging

from games.live import broadcast, clock
from games.live import services as live_services
from games.live.cache import cache
from games.models import Game, StandIn
from games.play import selectors

logger = logging.getLogger(__name__)


def open_table_socket(
    *, table_id: int, seat: int | None, user_id: int | None, session_key: str, channel_name: str
) -> None:
    """A table socket opened (or its viewer took a seat): record its presence,
    keep it fresh, and if a player came back, tell the table."""
    try:
        live_services.touch_presence(
            channel_name=channel_name, user_id=user_id, session_key=session_key, table_id=table_id, seat=seat
        )
        live_services.keep_table_socket(channel_name)
        if seat is not None:
            player_arrived(table_id=table_id, seat=seat)
    except Exception:
        logger.exception("presence of a socket at table %s failed", table_id)


def close_table_socket(*, table_id: int, seat: int | None, channel_name: str) -> None:
    """A table socket closed: forget its presence; if it was a player's last,
    the table hears that they are away."""
    try:
        live_services.forget_table_socket(channel_name)
        live_services.drop_presence(channel_name=channel_name)
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
