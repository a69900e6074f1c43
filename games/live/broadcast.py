"""Sending a table's news to its sockets, after the database commit.

Every seat has its own group (``table.<id>.seat.<n>``), spectators share
``table.<id>.public``. Each group gets frames computed for its viewer only,
built and JSON-encoded once for the group (``encode_frames``): a socket
sends the texts as they are, adding only its own ``table`` object to the
``state`` frame (``with_table``). The layer may drop messages
(docs/stack.md): clients and consumers catch up from the move log by
``seq``, so a failed send is logged, never raised.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections import deque
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.engine import State
from games.live.frames import Frame, move_frames, snapshot_frames

logger = logging.getLogger(__name__)

# The consumer method that receives these messages (TableConsumer.table_frames).
FRAMES_MESSAGE = "table.frames"
NOTICE_MESSAGE = "table.notice"
CHAT_MESSAGE = "table.chat"


def seat_group(table_id: int, seat: int) -> str:
    return f"table.{table_id}.seat.{seat}"


def public_group(table_id: int) -> str:
    return f"table.{table_id}.public"


def viewer_group(table_id: int, viewer: int | None) -> str:
    return public_group(table_id) if viewer is None else seat_group(table_id, viewer)


# A member's table sockets, at every table, whatever their seat: news for
# that viewer only (``TableConsumer.table_member``), e.g. a block they made.
MEMBER_MESSAGE = "table.member"


def member_group(user_id: int) -> str:
    return f"table.member.{user_id}"


def send_to_member(user_id: int, frame: Frame) -> None:
    """Send ``frame`` to every table socket of member ``user_id`` (after the
    commit: the caller's ``transaction.on_commit``); nobody else gets it."""
    _send([(member_group(user_id), {"type": MEMBER_MESSAGE, "frame": frame})])


def _viewers(players: int) -> list[int | None]:
    return [None, *range(players)]


async def _send_batch(messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """The groups of one event at once; on a failure (a connection of the
    layer's pool died with Redis) the whole batch once more: a group reached
    twice is harmless (sockets skip a seq they have)."""
    layer = get_channel_layer()
    if layer is None:
        return
    # The site's pub/sub layer publishes every group in one round trip.
    many = getattr(layer, "group_send_many", None)
    for attempt in (1, 2):
        try:
            if many is not None:
                await many(messages)
            else:
                await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))
            return
        except Exception:
            if attempt == 2:
                # Already committed: the clients will resync by seq.
                logger.exception("broadcast to %s failed", messages[0][0] if messages else "?")


# The event loop of this server process (set by the first table socket). The
# in-memory layer's queues belong to it: a thread of our own (an in-process
# computer turn) must send through it, or the sockets would not wake up.
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _server_loop
    _server_loop = loop


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


_own_loop: asyncio.AbstractEventLoop | None = None
_own_loop_lock = threading.Lock()


def _sending_loop() -> asyncio.AbstractEventLoop:
    """A loop of our own, in a daemon thread, for processes without a server
    loop (Celery workers, scripts): the Redis layer keeps its connections per
    loop, so one long-lived loop reuses them instead of connecting per move."""
    global _own_loop
    with _own_loop_lock:
        if _own_loop is None or _own_loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="broadcast-loop", daemon=True).start()
            _own_loop = loop
        return _own_loop


def run_on_server_loop(coroutine_function: Any, *args: Any, **kwargs: Any) -> Any:
    """Run an async function from sync code: on the server's event loop when
    there is one (and this thread is not it), else on a long-lived loop of
    this process; from inside a running loop, with ``async_to_sync``."""
    loop = _server_loop
    running = _running_loop()
    if loop is None or not loop.is_running() or loop.is_closed():
        if running is not None:
            return async_to_sync(coroutine_function)(*args, **kwargs)
        loop = _sending_loop()
    if running is loop:
        return async_to_sync(coroutine_function)(*args, **kwargs)
    return asyncio.run_coroutine_threadsafe(coroutine_function(*args, **kwargs), loop).result(timeout=30)


# Batches waiting to be sent on the server loop, per table: each table's
# events go out in the order they were committed, different tables' at once.
_outbox: dict[str, deque[Sequence[tuple[str, dict[str, Any]]]]] = {}


def _table_key(messages: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """``table.<id>`` from the first group name (every batch is one table's)."""
    return ".".join(messages[0][0].split(".", 2)[:2])


def _post(messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """On the server loop: queue a batch behind its table's earlier ones."""
    key = _table_key(messages)
    waiting = _outbox.get(key)
    if waiting is not None:
        waiting.append(messages)
        return
    _outbox[key] = deque([messages])
    asyncio.get_running_loop().create_task(_deliver(key))


async def _deliver(key: str) -> None:
    waiting = _outbox[key]
    try:
        while waiting:
            await _send_batch(waiting.popleft())
    finally:
        # No await between the last check and this: nothing can slip in.
        del _outbox[key]


def _send(messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """Send one event's batch after the commit. From a thread of a server
    process (a move made through a socket, an in-process computer turn) the
    batch is handed to the server loop without waiting, so that the one
    database thread goes on to the next move; elsewhere (a Celery worker, a
    script) it is sent before returning."""
    if not messages:
        return
    loop = _server_loop
    if loop is not None and loop.is_running() and not loop.is_closed():
        if _running_loop() is loop:
            _post(messages)
        else:
            loop.call_soon_threadsafe(_post, messages)
        return
    try:
        run_on_server_loop(_send_batch, messages)
    except Exception:
        logger.exception("broadcast to %s failed", messages[0][0])


# A ``state`` frame's text starts so (frames are built with "type" first).
STATE_PREFIX = '{"type": "state"'


def encode_frames(frames: list[Frame]) -> list[str]:
    """The frames as the JSON texts a socket sends (``json.dumps`` with its
    default separators, as Channels' ``send_json``)."""
    return [json.dumps(frame) for frame in frames]


def with_table(text: str, table_json: str, commitment_json: str) -> str:
    """A frame's text as this socket sends it: a ``state`` frame gets the
    socket's ``table`` object and the game's ``commitment`` as last keys,
    byte for byte ``json.dumps({**frame, "table": ..., "commitment": ...})``."""
    if not text.startswith(STATE_PREFIX):
        return text
    return f'{text[:-1]}, "table": {table_json}, "commitment": {commitment_json}}}'


def decoded_frames(message: Mapping[str, Any]) -> list[Frame]:
    """The frames of a ``table.frames`` message as objects (tests, tools)."""
    return [json.loads(text) for text in message["frames"]]


def _message(
    seq: int, texts: list[str], table: Mapping[str, Any], *, snapshot: bool = False
) -> dict[str, Any]:
    """A ``table.frames`` message of encoded frames (``encode_frames``).
    A snapshot (game start, abort) is sent even to a socket already at ``seq``."""
    return {"type": FRAMES_MESSAGE, "seq": seq, "frames": texts, "table": table, "snapshot": snapshot}


def move_frames_by_viewer(
    *,
    seq: int,
    kind: str,
    seat: int | None,
    payload: Mapping[str, Any],
    state: State,
    humans: Collection[int],
    chain: str,
) -> dict[int | None, list[str]]:
    """Move ``seq``'s frames for every viewer of the table, encoded
    (``chain``: the move log's head after the move, games.fairplay.move_chain)."""
    return {
        viewer: encode_frames(move_frames(seq, kind, seat, payload, state, viewer, humans, chain=chain))
        for viewer in _viewers(state.rules.players)
    }


def move_messages(
    *, table_id: int, seq: int, frames: Mapping[int | None, list[str]], table: Mapping[str, Any]
) -> dict[str, dict[str, Any]]:
    """The message of each viewer's group for move ``seq`` (``frames``:
    ``move_frames_by_viewer``); ``table``: the live table facts."""
    facts = dict(table)
    return {viewer_group(table_id, viewer): _message(seq, texts, facts) for viewer, texts in frames.items()}


def send_messages(messages: Mapping[str, dict[str, Any]]) -> None:
    """Send ``move_messages`` (after the commit)."""
    _send(list(messages.items()))


def broadcast_snapshot(
    *, table_id: int, seq: int, state: State, humans: Collection[int], table: Mapping[str, Any], chain: str
) -> None:
    """Send every viewer their whole state (a game starts, a table fact changes)."""
    messages = [
        (
            viewer_group(table_id, viewer),
            _message(
                seq,
                encode_frames(snapshot_frames(seq, state, viewer, humans, chain=chain)),
                dict(table),
                snapshot=True,
            ),
        )
        for viewer in _viewers(state.rules.players)
    ]
    _send(messages)


async def send_notice(
    *, table_id: int, players: int, frame: Frame, table: Mapping[str, Any] | None = None
) -> None:
    """``broadcast_notice`` from async code (a consumer)."""
    message: dict[str, Any] = {"type": NOTICE_MESSAGE, "frame": frame}
    if table is not None:
        message["table"] = dict(table)
    await _send_batch([(viewer_group(table_id, viewer), message) for viewer in _viewers(players)])


async def send_chat(*, table_id: int, players: int, room: str, message: Mapping[str, Any]) -> None:
    """A chat line (``message``: its frame and who may not see it) to one
    room: "players" is every seat's group, "spectators" the watchers' group
    only; the two never mix (docs/moderation.md)."""
    viewers: list[int | None] = list(range(players)) if room == "players" else [None]
    body = {**message, "type": CHAT_MESSAGE}
    await _send_batch([(viewer_group(table_id, viewer), body) for viewer in viewers])


def broadcast_notice(
    *, table_id: int, players: int, frame: Frame, table: Mapping[str, Any], after: int | None = None
) -> None:
    """A frame that holds no hidden tile, the same for every viewer (a draw
    offer, the spectator count). ``after``: the news of an event (a game's
    end, at its last ``seq``): a socket that has not sent that event yet
    (its broadcast comes from another process, or was lost) catches up from
    the move log first, so the notice never comes before what it follows."""
    message: dict[str, Any] = {"type": NOTICE_MESSAGE, "frame": frame, "table": dict(table)}
    if after is not None:
        message["after"] = after
    _send([(viewer_group(table_id, viewer), message) for viewer in _viewers(players)])
