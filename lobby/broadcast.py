"""Frames to lobby sockets: to everyone in the lobby (the counters), or to one
member's lobby sockets in every tab (matched, invited). The one place that
sends on the lobby's channel groups; a failed send is logged, never raised:
a lobby socket also learns what it missed when it reconnects."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    """The channel group of one member's lobby sockets."""
    return f"lobby.user.{user_id}"


def send_to_groups(groups: Iterable[str], frame: dict[str, Any]) -> None:
    """Send ``frame`` to each group's sockets (handled by
    ``LobbyConsumer.lobby_frame``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    groups = list(groups)

    async def send() -> None:
        for group in groups:
            await layer.group_send(group, {"type": "lobby.frame", "frame": frame})

    try:
        async_to_sync(send)()
    except Exception:
        logger.exception("could not send a %r frame to %s", frame.get("type"), groups)


def send_to_lobby(frame: dict[str, Any]) -> None:
    send_to_groups([LOBBY_GROUP], frame)


def send_to_users(user_ids: Iterable[int], frame: dict[str, Any]) -> None:
    send_to_groups([user_group(user_id) for user_id in user_ids], frame)
