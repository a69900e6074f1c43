"""Sending a table's news to its sockets, after the database commit.

Every seat has its own group (``table.<id>.seat.<n>``), spectators share
``table.<id>.public``. Each group gets frames computed for its viewer only.
The layer may drop messages (STACK-NOTES.md): clients and consumers catch
up from the move log by ``seq``, so a failed send is logged, never raised.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.engine import State
from games.frames import Frame, move_frames, snapshot_frames

logger = logging.getLogger(__name__)

# The consumer method that receives these messages (TableConsumer.table_frames).
FRAMES_MESSAGE = "table.frames"
NOTICE_MESSAGE = "table.notice"


def seat_group(table_id: int, seat: int) -> str:
    return f"table.{table_id}.seat.{seat}"


def public_group(table_id: int) -> str:
    return f"table.{table_id}.public"


def viewer_group(table_id: int, viewer: int | None) -> str:
    return public_group(table_id) if viewer is None else seat_group(table_id, viewer)


def _viewers(players: int) -> list[int | None]:
    return [None, *range(players)]


async def _send_all(messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages:
        await layer.group_send(group, message)


def _send(messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    try:
        async_to_sync(_send_all)(messages)
    except Exception:
        # Already committed: the clients will resync by seq.
        logger.exception("broadcast to %s failed", messages[0][0] if messages else "?")


def _message(seq: int, frames: list[Frame], table: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": FRAMES_MESSAGE, "seq": seq, "frames": frames, "table": dict(table)}


def broadcast_move(
    *,
    table_id: int,
    seq: int,
    kind: str,
    seat: int | None,
    payload: Mapping[str, Any],
    state: State,
    humans: Collection[int],
    table: Mapping[str, Any],
) -> None:
    """Send move ``seq`` to every viewer of the table (their own frames).

    ``table`` carries the live table facts the consumer merges into the
    ``table`` object of its ``state`` frames (status, draw offers).
    """
    messages = [
        (
            viewer_group(table_id, viewer),
            _message(seq, move_frames(seq, kind, seat, payload, state, viewer, humans), table),
        )
        for viewer in _viewers(state.rules.players)
    ]
    _send(messages)


def broadcast_snapshot(
    *, table_id: int, seq: int, state: State, humans: Collection[int], table: Mapping[str, Any]
) -> None:
    """Send every viewer their whole state (a game starts, a table fact changes)."""
    messages = [
        (viewer_group(table_id, viewer), _message(seq, snapshot_frames(seq, state, viewer, humans), table))
        for viewer in _viewers(state.rules.players)
    ]
    _send(messages)


def broadcast_notice(*, table_id: int, players: int, frame: Frame, table: Mapping[str, Any]) -> None:
    """A frame that holds no hidden tile, the same for every viewer (a draw
    offer, the spectator count)."""
    message = {"type": NOTICE_MESSAGE, "frame": frame, "table": dict(table)}
    _send([(viewer_group(table_id, viewer), message) for viewer in _viewers(players)])
