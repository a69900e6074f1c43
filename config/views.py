"""Site-wide views that belong to no app."""

from __future__ import annotations

import asyncio
import contextlib
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponsePermanentRedirect, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_safe


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False


async def _layer_round_trip() -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    channel = await layer.new_channel("healthz.")
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "healthz.ping", "token": token})
    try:
        message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    finally:
        # The Redis pub/sub layer unsubscribes a channel only when a receive
        # on it is cancelled: cancel one, or every check would leave its
        # channel subscribed for the life of the process.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(channel), timeout=0.001)
    return message.get("token") == token


def _channel_layer_answers() -> bool:
    try:
        return async_to_sync(_layer_round_trip)()
    except Exception:
        return False


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 only when the database and the channel layer both answer."""
    checks = {"database": _database_answers(), "channel_layer": _channel_layer_answers()}
    status = 200 if all(checks.values()) else 503
    return JsonResponse({"ok": status == 200, **checks}, status=status)


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """/favicon.ico, asked for by browsers where a page names no icon: the
    site's icon (static/favicon.svg, named by every page of base.html).
    GET or HEAD (crawlers and link checkers ask with HEAD)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
