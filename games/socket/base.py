"""What every websocket of the site shares (the table socket, games.socket.table;
the lobby socket, lobby.consumers): the language of its messages, a frame
parser that refuses anything but one small JSON object, a token bucket per
socket, and a consumer base that turns any failure into a clean state.

``JsonSocket`` handles, for its subclasses:

- the rate: each frame takes a token; a refused frame gets one
  ``rate_limited`` error a second at most; after ``flood_close_after``
  refused frames in a row the socket is closed (4429);
- the parse: binary, too long (refused unread), not JSON, nested too deep
  (the parser's own recursion limit) or not an object: a ``bad_frame``
  error, nothing else happens;
- the dispatch: ``handlers[type]``, else ``bad_frame`` ``unknown_type``;
- failures: an exception in a frame's handler is logged and answered with
  an ``error`` frame (code ``server_error``), and the socket lives on; an
  exception while connecting closes it (1011) after ``cleanup`` ran; a
  failure in a group message is logged. ``cleanup`` runs exactly once
  whatever happens, so presence rows and spectator counts are never left
  behind by a socket that crashed.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)

CLOSE_FLOOD = 4429
CLOSE_SERVER_ERROR = 1011


def socket_language(scope: Mapping[str, Any]) -> str:
    """The language of the page that opened the socket: the language cookie,
    else the browser's Accept-Language, else the default."""
    headers = dict(scope.get("headers") or [])
    supported = [code for code, _name in settings.LANGUAGES]
    cookie = headers.get(b"cookie", b"").decode("latin-1")
    for part in cookie.split(";"):
        name, _sep, value = part.strip().partition("=")
        if name == settings.LANGUAGE_COOKIE_NAME and value in supported:
            return str(value)
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for item in accept.split(","):
        code = item.split(";")[0].strip().lower()
        for candidate in (code, code.split("-")[0]):
            if candidate in supported:
                return str(candidate)
    return str(settings.LANGUAGE_CODE)


class FrameError(ValueError):
    """A client frame refused before any handler saw it."""

    def __init__(self, reason: str, message: Promise) -> None:
        super().__init__(reason)
        self.reason = reason
        self.message = message


def parse_frame(text_data: str | None, *, max_chars: int) -> dict[str, Any]:
    """The JSON object of one text frame; raises ``FrameError``."""
    if text_data is None:
        raise FrameError("binary", _("Send JSON text frames."))
    if len(text_data) > max_chars:
        raise FrameError("too_large", _("This message is too long."))
    try:
        content = json.loads(text_data)
    except (ValueError, RecursionError):
        # RecursionError: a few thousand nested brackets exhaust the parser's stack.
        raise FrameError("json", _("This message is not valid JSON.")) from None
    if not isinstance(content, dict):
        raise FrameError("shape", _("A message is a JSON object with a type."))
    return content


@dataclass
class TokenBucket:
    """``burst`` tokens, refilled at ``per_second``; one per frame."""

    per_second: float
    burst: float

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.refilled = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.per_second)
        self.refilled = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


Handler = Callable[[Any, dict[str, Any]], Awaitable[None]]


class JsonSocket(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """A websocket of JSON objects with a ``type``, guarded as the module
    says. Subclasses set ``handlers`` and the limits, set ``self.language``
    in ``connect`` and release what they hold in ``cleanup``."""

    handlers: Mapping[str, Handler] = {}
    max_frame_chars = 4096
    rate_per_second = 20.0
    rate_burst = 40.0
    flood_close_after = 200
    language: str = ""
    _bucket: TokenBucket | None = None
    _refused_in_a_row = 0
    _limited_at = 0.0
    _cleaned = False

    # -- what subclasses override -------------------------------------------------

    async def cleanup(self) -> None:
        """Release what the socket holds (groups, presence, counters). Runs
        once, from ``disconnect`` or after a failure."""

    async def disconnect(self, code: int) -> None:
        await self._cleanup_once()

    # -- errors out ------------------------------------------------------------------

    async def send_error(self, code: str, message: Promise | str, **extra: Any) -> None:
        with translation.override(self.language or None):
            text = str(message)
        await self.send_json({"type": "error", "code": code, "message": text, **extra})

    # -- frames in --------------------------------------------------------------------

    def _take_token(self) -> bool:
        if self._bucket is None:
            self._bucket = TokenBucket(self.rate_per_second, self.rate_burst)
        if self._bucket.take():
            self._refused_in_a_row = 0
            return True
        return False

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if not self._take_token():
            self._refused_in_a_row += 1
            if self._refused_in_a_row >= self.flood_close_after:
                await self.close(code=CLOSE_FLOOD)
                return
            now = time.monotonic()
            if now - self._limited_at >= 1.0:  # one warning a second, not one per frame
                self._limited_at = now
                await self.send_error("rate_limited", _("Too many messages: slow down."))
            return
        try:
            content = parse_frame(text_data, max_chars=self.max_frame_chars)
        except FrameError as error:
            await self.send_error("bad_frame", error.message, reason=error.reason)
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("type")
        handler = self.handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            await self.send_error("bad_frame", _("Unknown message type."), reason="unknown_type")
            return
        with translation.override(self.language or None):
            await handler(self, content)

    # -- failures ------------------------------------------------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        try:
            await self._dispatch(message)
        except StopConsumer:
            raise
        except Exception:
            kind = message.get("type", "")
            logger.exception("%s failed on %r", type(self).__name__, kind)
            if kind == "websocket.receive":
                await self._survive(_("Something went wrong on our side: nothing was changed."))
            elif kind in ("websocket.connect", "websocket.disconnect"):
                await self._cleanup_once()
                if kind == "websocket.connect":
                    await self.close(code=CLOSE_SERVER_ERROR)
                raise StopConsumer() from None
            # A group message that failed: logged; the client resyncs by seq.

    async def _dispatch(self, message: dict[str, Any]) -> None:
        """``AsyncConsumer.dispatch`` without its ``aclose_old_connections``:
        Channels hops to the database thread before every message (each
        broadcast to each socket included) only to close stale connections,
        and every site socket reaches the database through
        ``database_sync_to_async``, which already does that around each call.
        The hop queued every broadcast behind the moves on that one thread
        (docs/performance.md)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def _survive(self, message: Promise) -> None:
        try:
            await self.send_error("server_error", message)
        except Exception:
            logger.exception("could not report a failure to the socket")

    async def _cleanup_once(self) -> None:
        if self._cleaned:
            return
        self._cleaned = True
        await self.cleanup()
