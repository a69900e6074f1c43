"""Receivers: a profile for every new member, ratings when a ranked game ends."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts import periodic, services
from games import clock
from games import services as game_services
from games.signals import game_finished, table_socket_closed, table_socket_opened

logger = logging.getLogger(__name__)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender: Any, instance: Any, created: bool, **_kwargs: Any) -> None:
    if created:
        services.ensure_profile(user=instance)


@receiver(user_logged_in)
def adopt_tables_played_as_guest(sender: Any, request: Any, user: Any, **_kwargs: Any) -> None:
    # A guest who logs in or signs up mid-game keeps their table: the login
    # gave the session a new key, but the guest key stays in its data.
    session = getattr(request, "session", None)
    guest_key = session.get(game_services.GUEST_KEY_SESSION, "") if session is not None else ""
    if guest_key and game_services.adopt_guest_seats(guest_key=guest_key, user=user):
        session.pop(game_services.GUEST_KEY_SESSION, None)


@receiver(game_finished)
def rate_game(sender: Any, game: Any, table: Any, **_kwargs: Any) -> None:
    # Sent after the commit that ended the game: a failure here must not
    # break the move that ended it; the periodic sweep rates missed games.
    try:
        record = services.rate_finished_game(game_id=game.pk)
    except Exception:
        logger.exception("rating game %s failed", game.pk)
        return
    if record is not None:
        services.announce_rating_changes(record=record)
    try:
        services.close_stand_ins(table_id=table.pk)
    except Exception:
        logger.exception("closing the stand-ins of table %s failed", table.pk)


@receiver(table_socket_opened)
def table_socket_opened_presence(
    sender: Any,
    table_id: int,
    seat: int | None,
    user_id: int | None,
    session_key: str,
    channel_name: str,
    **_kw: Any,
) -> None:
    try:
        periodic.touch_presence(
            channel_name=channel_name, user_id=user_id, session_key=session_key, table_id=table_id, seat=seat
        )
        periodic.keep_table_socket(channel_name)
        if seat is not None:
            clock.player_arrived(table_id=table_id, seat=seat)
        periodic.start_in_process_loop()
    except Exception:
        logger.exception("presence of a socket at table %s failed", table_id)


@receiver(table_socket_closed)
def table_socket_closed_presence(
    sender: Any, table_id: int, seat: int | None, channel_name: str, **_kw: Any
) -> None:
    try:
        periodic.forget_table_socket(channel_name)
        periodic.drop_presence(channel_name=channel_name)
        if seat is not None:
            clock.player_left(table_id=table_id, seat=seat)
    except Exception:
        logger.exception("presence of a socket at table %s failed", table_id)
