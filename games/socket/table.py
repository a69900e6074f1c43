"""The table websocket ``/ws/table/<id>/`` (docs/protocol.md).

Thin: it finds who is watching (a member by account, a guest by session key,
else a spectator), parses each frame, calls a service in a worker thread, and
forwards the frames the services broadcast to its group. A player is always
their seat, in every tab. The database is the truth: a socket that misses a
broadcast (a gap in ``seq``) catches up from the move log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.dispatch import Signal
from django.utils import translation
from django.utils.translation import gettext as _

from games import tasks
from games.coach import hints
from games.engine import action_from_json
from games.fairplay import move_chain
from games.live import broadcast, reactions
from games.live.cache import cache
from games.live.frames import Frame, move_frames
from games.models import Game
from games.play import limits, live_games, resume, selectors, services
from games.signals import (
    ChatDelivery,
    ChatRefused,
    table_chat,
    table_chat_history,
    table_chat_mute,
    table_socket_closed,
    table_socket_opened,
)
from games.socket.base import JsonSocket, socket_language
from games.timers import away

logger = logging.getLogger(__name__)

CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_FLOOD = 4429
SPECTATORS_TTL = 6 * 3600

_move_threads: ThreadPoolExecutor | None = None
_move_threads_lock = threading.Lock()


def _move_executor() -> ThreadPoolExecutor | None:
    """The threads that run the table sockets' commands (``MOVE_THREADS``,
    each with its own database connection), or None for the database thread."""
    global _move_threads
    count = int(getattr(settings, "MOVE_THREADS", 0))
    if count <= 0:
        return None
    with _move_threads_lock:
        if _move_threads is None:
            _move_threads = ThreadPoolExecutor(max_workers=count, thread_name_prefix="moves")
        return _move_threads


async def _on_move_thread(run: Callable[[], Any]) -> Any:
    """A game command on a move thread: moves of different tables commit at
    once (each commit waits for the disk); two moves of one table are still
    decided by the conditional write (games.play.services.moves)."""
    executor = _move_executor()
    if executor is None:
        return await database_sync_to_async(run)()
    return await database_sync_to_async(run, thread_sensitive=False, executor=executor)()


def spectators_key(table_id: int) -> str:
    return f"games:table:{table_id}:spectators"


class TableConsumer(JsonSocket):
    table_id: int
    game_id: int | None
    seat: int | None
    group: str | None = None
    sent_seq: int = -1
    players: list[dict[str, Any]]
    facts: dict[str, Any]
    spectators: int = 0
    humans: frozenset[int]
    seat_info: selectors.SeatInfo
    has_computers: bool = False
    language: str
    # The viewer turned the whole chat off (community's answer): no line delivered.
    chat_off: bool = False

    # -- connection ------------------------------------------------------------

    async def connect(self) -> None:
        broadcast.remember_server_loop(asyncio.get_running_loop())
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.language = socket_language(self.scope)
        session = self.scope.get("session")
        guest_key = session.session_key if session is not None else None
        found = await database_sync_to_async(self._find_viewer)(self.scope.get("user"), guest_key)
        await self.accept()
        if not found:
            with translation.override(self.language):
                if found is None:
                    await self.send_error("not_found", _("There is no such table."))
                else:
                    await self.send_error("not_allowed", _("This table is private."))
            await self.close(code=CLOSE_NOT_FOUND if found is None else CLOSE_FORBIDDEN)
            return
        self.group = broadcast.viewer_group(self.table_id, self.seat)
        # Join before reading the state: nothing can fall between the two.
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.user_id is not None:
            await self.channel_layer.group_add(broadcast.member_group(self.user_id), self.channel_name)
        if self.seat is None:
            await self._count_spectator(+1)
        else:
            self.spectators = max(0, int(await cache.aget(spectators_key(self.table_id), 0)))
        # Presence first, so that the first state's turn clock already
        # counts this player as present.
        await database_sync_to_async(self._after_connect)()
        await self._send_sync(None)
        await self._send_chat_history()

    def _find_viewer(self, user: Any, guest_key: str | None) -> bool | None:
        """Load the table and the viewer's seat: None if there is no such
        table, False if the viewer may not watch it."""
        # Two queries: the table with its game, the seats with their members.
        table = selectors.get_table(self.table_id)
        if table is None:
            return None
        seats = selectors.table_seats(table.pk)
        self.seat = selectors.viewer_seat_among(seats, user=user, guest_key=guest_key)
        if not selectors.can_watch(table, self.seat):
            return False
        game = getattr(table, "game", None)
        self.game_id = None if game is None else game.pk
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.guest_key = guest_key or ""
        info = self.seat_info = selectors.seat_info(seats)
        self.humans = info.humans
        self.has_computers = bool(info.computers)
        with translation.override(self.language):
            self.players = selectors.table_players(table, seats)
        # The live facts (status, clock) come with the state that follows
        # (_sync_frames), read after this socket's presence is recorded.
        self.facts = {}
        self.commitment = "" if game is None else game.commitment
        self.table_static = (
            {} if game is None else selectors.table_object(table, game, [], spectators=0, facts={})
        )
        return True

    def _opened(self) -> None:
        """The socket is at the table (or holds a new seat): its presence, the
        player's return (games.timers.away), then ``table_socket_opened``."""
        away.open_table_socket(
            table_id=self.table_id,
            seat=self.seat,
            user_id=self.user_id,
            session_key=self.guest_key,
            channel_name=self.channel_name,
        )
        self._announce(table_socket_opened)

    def _closed(self) -> None:
        away.close_table_socket(table_id=self.table_id, seat=self.seat, channel_name=self.channel_name)
        self._announce(table_socket_closed)

    def _announce(self, signal: Signal) -> None:
        signal.send(
            sender=TableConsumer,
            table_id=self.table_id,
            seat=self.seat,
            user_id=self.user_id,
            session_key=self.guest_key,
            channel_name=self.channel_name,
        )

    def _after_connect(self) -> None:
        self._opened()
        if self.game_id is not None and (self.has_computers or not self.humans):
            # After a restart, the computer's pending turn is queued again
            # (a computer's move, or the next round of a table nobody plays).
            resume.resume_game(self.game_id)
        tasks.start_embedded_sweeper()

    async def cleanup(self) -> None:
        """Leave the group, the spectator count and the presence rows, each
        step even if another failed (JsonSocket runs this once)."""
        group, self.group = self.group, None
        if group is None:
            return  # never joined (no such table, not allowed)
        steps: list[tuple[str, Callable[[], Any]]] = [
            ("group", lambda: self.channel_layer.group_discard(group, self.channel_name)),
            ("presence", lambda: database_sync_to_async(self._closed)()),
        ]
        if self.user_id is not None:
            member = broadcast.member_group(self.user_id)
            steps.insert(1, ("member", lambda: self.channel_layer.group_discard(member, self.channel_name)))
        if self.seat is None:
            steps.insert(1, ("spectators", lambda: self._count_spectator(-1)))
        for name, step in steps:
            try:
                await step()
            except Exception:
                logger.exception("closing a socket of table %s: %s failed", self.table_id, name)

    async def _count_spectator(self, delta: int) -> None:
        key = spectators_key(self.table_id)
        await cache.aadd(key, 0, timeout=SPECTATORS_TTL)
        try:
            count = await cache.aincr(key, delta)
        except ValueError:  # expired between the two calls
            await cache.aset(key, max(delta, 0), timeout=SPECTATORS_TTL)
            count = max(delta, 0)
        if count < 0:
            await cache.aset(key, 0, timeout=SPECTATORS_TTL)
            count = 0
        self.spectators = count
        frame = {"type": "spectators", "count": count}
        await broadcast.send_notice(table_id=self.table_id, players=len(self.players), frame=frame)

    # -- frames out ------------------------------------------------------------

    def table_object(self) -> dict[str, Any]:
        return {**self.table_static, "players": self.players, "spectators": self.spectators, **self.facts}

    async def send_frames(self, frames: list[Frame]) -> None:
        await self.send_texts(broadcast.encode_frames(frames))

    async def send_texts(self, texts: list[str]) -> None:
        """Send frames encoded once for the group (games.live.broadcast);
        a ``state`` frame gets this socket's ``table`` object and the
        ``commitment`` (SHA-256 of the seed, fixed before the deal: games.fairplay.fairness)."""
        table_json = commitment_json = ""
        for text in texts:
            if text.startswith(broadcast.STATE_PREFIX) and not table_json:
                table_json, commitment_json = json.dumps(self.table_object()), json.dumps(self.commitment)
            await self.send(text_data=broadcast.with_table(text, table_json, commitment_json))

    async def _send_sync(self, after: int | None) -> None:
        """Send the catch-up after event ``after`` (None: a fresh state)."""
        frames, seq = await database_sync_to_async(self._sync_frames)(after)
        await self.send_frames(frames)
        self.sent_seq = seq

    def _sync_frames(self, after: int | None) -> tuple[list[Frame], int]:
        # The seats' turn shares as read at connect serve the connect's catch-up;
        # a later sync reads them again (a berserk seat may have changed since).
        percents = self.seat_info.turn_percents if after is None else None
        game = (
            None
            if self.game_id is None
            else Game.objects.select_related("table").filter(pk=self.game_id).first()
        )
        if game is None or game.state is None:
            # A table still waiting for its players: no view yet.
            empty: Frame = {"type": "state", "seq": 0, "view": None, "legal": []}
            if game is not None:
                empty["chain"] = move_chain.head(game)  # the genesis: no move yet
                self.facts = selectors.table_facts(game.table, game, percents=percents)
            return [empty], 0
        self.facts = selectors.table_facts(game.table, game, percents=percents)
        state = selectors.game_state(game)  # decoded once, for the frames and the live store
        frames = selectors.sync_frames(
            game, after=-1 if after is None else after, viewer=self.seat, humans=self.humans, state=state
        )
        seq = game.seq
        # The next move here need not read the game again (games.play.live_games).
        live_games.remember(game, self.seat_info, state)
        return frames, seq

    # -- group messages (sent by games.live.broadcast) ----------------------

    async def table_frames(self, message: dict[str, Any]) -> None:
        seq = message["seq"]
        snapshot = message.get("snapshot", False)
        if snapshot and await self._reseat():
            return
        if seq < self.sent_seq or (seq == self.sent_seq and not snapshot):
            return  # already sent (this socket's own move, or a sync)
        if seq > self.sent_seq + 1 and not snapshot:
            await self._send_sync(self.sent_seq)  # a broadcast was lost: catch up
            return
        self.facts = {**self.facts, **message.get("table", {})}
        await self.send_texts(message["frames"])
        self.sent_seq = seq

    async def _reseat(self) -> bool:
        """A game starts (or stops): seats may have been taken since this
        socket connected. Returns True if the viewer's seat changed, in which
        case the socket moves to its new group and gets its whole state."""
        session = self.scope.get("session")
        guest_key = session.session_key if session is not None else None
        old_seat = self.seat
        await database_sync_to_async(self._find_viewer)(self.scope.get("user"), guest_key)
        if self.seat == old_seat:
            return False
        new_group = broadcast.viewer_group(self.table_id, self.seat)
        await self.channel_layer.group_add(new_group, self.channel_name)
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if old_seat is None:
            await self._count_spectator(-1)
        elif self.seat is None:
            await self._count_spectator(+1)
        self.group = new_group
        # The socket now holds a seat (or lost it): presence follows.
        await database_sync_to_async(self._opened)()
        await self._send_sync(None)
        await self._send_chat_history()
        return True

    async def table_notice(self, message: dict[str, Any]) -> None:
        after = message.get("after")
        if isinstance(after, int) and after > self.sent_seq:
            # The news of an event this socket has not sent yet: that event first.
            await self._send_sync(self.sent_seq)
        frame = message["frame"]
        if frame.get("type") == "spectators":
            self.spectators = frame["count"]
        self.facts = {**self.facts, **message.get("table", {})}
        await self.send_json(frame)

    # -- frames in -------------------------------------------------------------

    def _seq_of(self, content: dict[str, Any], *, required: bool) -> int | bool | None:
        seq = content.get("seq")
        if seq is None and not required:
            return None
        if isinstance(seq, bool) or not isinstance(seq, int):
            return False
        return seq

    async def _need_seat(self) -> bool:
        if self.seat is None or self.game_id is None:
            await self.send_error("not_seated", _("You are watching this table: only its players can play."))
            return False
        return True

    async def handle_action(self, content: dict[str, Any]) -> None:
        if not await self._need_seat():
            return
        seq = self._seq_of(content, required=True)
        if seq is False or seq is None:
            await self.send_error("bad_frame", _("Say which event you have seen last (seq)."), reason="seq")
            return
        try:
            action = action_from_json(content, self.seat)
        except ValueError:
            await self.send_error("bad_frame", _("This move is not well formed."), reason="action")
            return
        await self._call(
            services.play_move, game_id=self.game_id, seat=self.seat, action=action, expected_seq=seq
        )

    async def handle_next_round(self, content: dict[str, Any]) -> None:
        if not await self._need_seat():
            return
        seq = self._seq_of(content, required=False)
        if seq is False:
            await self.send_error("bad_frame", _("seq must be a number."), reason="seq")
            return
        await self._call(services.start_next_round, game_id=self.game_id, seat=self.seat, expected_seq=seq)

    async def handle_offer_draw(self, content: dict[str, Any]) -> None:
        if await self._need_seat():
            await self._call(services.offer_draw, game_id=self.game_id, seat=self.seat)

    async def handle_resign(self, content: dict[str, Any]) -> None:
        if await self._need_seat():
            await self._call(services.resign, game_id=self.game_id, seat=self.seat)

    async def handle_sync(self, content: dict[str, Any]) -> None:
        seq = self._seq_of(content, required=False)
        if seq is False:
            await self.send_error("bad_frame", _("seq must be a number."), reason="seq")
            return
        await self._send_sync(seq)

    async def handle_hint(self, content: dict[str, Any]) -> None:
        if await self._need_seat():
            assert self.game_id is not None  # checked by _need_seat
            assert self.seat is not None
            player = limits.visitor_id(user_id=self.user_id, session_key=self.guest_key)
            await self.send_json(
                await hints.hint_reply(game_id=self.game_id, seat=self.seat, player=player, language=self.language)
            )

    async def handle_react(self, content: dict[str, Any]) -> None:
        """A quick reaction (games.live.reactions): a predefined id, to everyone at the table."""
        if not await self._need_seat():
            return
        assert self.seat is not None  # checked by _need_seat
        reaction = content.get("id")
        if not reactions.valid(reaction):
            await self.send_error("bad_frame", _("Unknown reaction."), reason="reaction")
            return
        if not await database_sync_to_async(reactions.take_turn)(self.table_id, self.seat):
            await self.send_error("rate_limited", _("One reaction every few seconds."), reason="reaction")
            return
        frame = reactions.reaction_frame(self.seat, str(reaction))
        await broadcast.send_notice(table_id=self.table_id, players=len(self.players), frame=frame)

    # -- chat (the community app answers through games.signals) --------------

    def _ask(self, signal: Signal, **kwargs: Any) -> Any:
        """The first answer of ``signal``'s receivers (None: no receiver),
        in the viewer's language."""
        with translation.override(self.language):
            for _receiver, answer in signal.send(sender=TableConsumer, table_id=self.table_id, **kwargs):
                if answer is not None:
                    return answer
        return None

    async def _send_chat_history(self) -> None:
        lines = await database_sync_to_async(self._ask)(
            table_chat_history, seat=self.seat, user_id=self.user_id
        )
        for frame in lines or ():
            self._note_chat_off(frame)
            await self.send_json(frame)

    def _note_chat_off(self, frame: dict[str, Any]) -> None:
        """The viewer turned the whole chat off (or on): no line is delivered
        to this socket while it is off (games.signals.table_chat_mute)."""
        if frame.get("type") == "chat_muted" and frame.get("all") is True:
            self.chat_off = bool(frame.get("mute"))

    async def handle_chat(self, content: dict[str, Any]) -> None:
        """A line of the table's chat: the players' room from a seat, the
        spectators' room from a watcher; stored before anyone sees it."""
        text = content.get("text")
        if not isinstance(text, str):
            await self.send_error("bad_frame", _("A chat line is text."), reason="chat")
            return
        try:
            delivery = await database_sync_to_async(self._ask)(
                table_chat, game_id=self.game_id, seat=self.seat, user_id=self.user_id, text=text
            )
        except ChatRefused as refused:
            await self.send_error(refused.code, refused.message, reason="chat", **refused.extra)
            return
        if not isinstance(delivery, ChatDelivery):
            await self.send_error("not_allowed", _("There is no chat at this table."), reason="chat")
            return
        message = {
            "frame": delivery.frame,
            "author": delivery.author_id,
            "only_author": delivery.only_author,
            "hidden_from": list(delivery.hidden_from),
        }
        await broadcast.send_chat(
            table_id=self.table_id, players=len(self.players), room=delivery.room, message=message
        )

    async def handle_chat_mute(self, content: dict[str, Any]) -> None:
        """Mute (or unmute) a member's lines at this table, for this viewer;
        with ``"all": true``, the whole chat (the panel's switch); with
        ``"table": true``, this table's whole chat."""
        everyone = content.get("all", False) is True
        here = not everyone and content.get("table", False) is True
        username, mute = ("" if everyone or here else content.get("user")), content.get("mute", True)
        if not isinstance(username, str) or not isinstance(mute, bool):
            await self.send_error("bad_frame", _("Say whom to mute (user) and whether (mute)."), reason="chat_mute")
            return
        try:
            frame = await database_sync_to_async(self._ask)(
                table_chat_mute, user_id=self.user_id, username=username, mute=mute, everyone=everyone, here=here
            )
        except ChatRefused as refused:
            await self.send_error(refused.code, refused.message, reason="chat_mute", **refused.extra)
            return
        if frame is None:
            await self.send_error("not_allowed", _("There is no chat at this table."), reason="chat_mute")
            return
        was_off = self.chat_off
        self._note_chat_off(frame)
        await self.send_json(frame)
        if (was_off and not self.chat_off) or (here and not mute and not self.chat_off):
            # On again: the last lines, as at a connection.
            await self._send_chat_history()

    async def table_chat(self, message: dict[str, Any]) -> None:
        """A chat line of this socket's room (games.live.broadcast.send_chat):
        not shown to those who muted or blocked its author, and a troll's line
        to its author only."""
        author = message["author"]
        if self.chat_off:
            return
        if message.get("only_author") and self.user_id != author:
            return
        if self.user_id is not None and self.user_id in message.get("hidden_from", ()):
            return
        await self.send_json(message["frame"])

    async def table_member(self, message: dict[str, Any]) -> None:
        """News for this viewer only, at every table (games.live.broadcast.send_to_member):
        ``chat_blocked`` when they blocked a member, whose lines the page drops."""
        await self.send_json(message["frame"])

    async def handle_ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "seq": self.sent_seq})

    handlers: Mapping[str, Callable[[TableConsumer, dict[str, Any]], Any]] = {
        "play": handle_action,
        "draw": handle_action,
        "pass": handle_action,
        "next_round": handle_next_round,
        "offer_draw": handle_offer_draw,
        "resign": handle_resign,
        "sync": handle_sync,
        "ping": handle_ping,
        "hint": handle_hint,
        "react": handle_react,
        "chat": handle_chat,
        "chat_mute": handle_chat_mute,
    }

    async def _call(self, service: Callable[..., Any], **kwargs: Any) -> None:
        """Run a game service; answer its refusal with an ``error`` frame, or
        send this socket its own frames of the move at once."""
        language = self.language

        def run() -> Any:
            with translation.override(language):
                return service(**kwargs)

        try:
            outcome = await _on_move_thread(run)
        except services.StaleSeq as error:
            await self.send_error(error.code, error.message, reason=error.reason, seq=error.current)
            return
        except services.GameError as error:
            extra = {"detail": error.detail} if error.detail else {}
            await self.send_error(error.code, error.message, reason=error.reason, **extra)
            return
        if isinstance(outcome, services.Outcome) and outcome.seq == self.sent_seq + 1:
            # The group broadcast follows; this socket skips it by seq.
            self.facts = {**self.facts, **outcome.facts}
            mine = outcome.messages.get(broadcast.viewer_group(self.table_id, self.seat))
            if mine is not None:
                await self.send_texts(mine["frames"])
            else:
                frames = move_frames(
                    outcome.seq,
                    outcome.kind,
                    outcome.seat,
                    outcome.payload,
                    outcome.state,
                    self.seat,
                    outcome.humans,
                    chain=outcome.chain,
                )
                await self.send_frames(frames)
            self.sent_seq = outcome.seq
