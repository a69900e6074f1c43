"""The community's answers to the table socket (games.signals): chat lines,
their catch-up, mutes."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from community import selectors, services
from games.signals import ChatDelivery, table_chat, table_chat_history, table_chat_mute


@receiver(table_chat, dispatch_uid="community.chat")
def on_chat(
    sender: Any, *, table_id: int, game_id: int | None, seat: int | None, user_id: int | None, text: str,
    **kwargs: Any,
) -> ChatDelivery:
    return services.say(table_id=table_id, game_id=game_id, seat=seat, user_id=user_id, text=text)


@receiver(table_chat_history, dispatch_uid="community.chat_history")
def on_history(
    sender: Any, *, table_id: int, seat: int | None, user_id: int | None, **kwargs: Any
) -> list[dict[str, Any]]:
    return selectors.history(table_id=table_id, seat=seat, user_id=user_id)


@receiver(table_chat_mute, dispatch_uid="community.chat_mute")
def on_mute(
    sender: Any, *, table_id: int, user_id: int | None, username: str, mute: bool, **kwargs: Any
) -> dict[str, object]:
    return services.mute(table_id=table_id, user_id=user_id, username=username, mute=mute)
