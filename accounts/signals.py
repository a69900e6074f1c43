"""Receivers: a profile for every new member, a guest's tables kept when they
log in, the member's language applied when they log in, their preferences on
the table page, ratings when a ranked game ends, abandoned games counted."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts import selectors, services
from accounts.middleware import LANGUAGE_TO_APPLY
from games.models import Game, Table
from games.play import selectors as game_selectors
from games.play import services as game_services
from games.signals import (
    game_finished,
    member_bots,
    seat_abandoned,
    table_page_panels,
    table_page_preferences,
)

logger = logging.getLogger(__name__)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender: Any, instance: Any, created: bool, **_kwargs: Any) -> None:
    if created:
        services.ensure_profile(user=instance)


@receiver(user_logged_in)
def adopt_tables_played_as_guest(sender: Any, request: HttpRequest | None, user: Any, **_kwargs: Any) -> None:
    # A guest who logs in or signs up mid-game keeps their table: the login
    # gave the session a new key, but the guest key stays in its data.
    session = getattr(request, "session", None)
    guest_key = session.get(game_services.GUEST_KEY_SESSION, "") if session is not None else ""
    if session is not None and guest_key and game_services.adopt_guest_seats(guest_key=guest_key, user=user):
        session.pop(game_services.GUEST_KEY_SESSION, None)


@receiver(user_logged_in)
def apply_member_language(sender: Any, request: HttpRequest | None, user: Any, **_kwargs: Any) -> None:
    # The answer to the login sets the language cookie (accounts.middleware).
    session = getattr(request, "session", None)
    language = selectors.profile_of(user).language
    if session is not None and language:
        session[LANGUAGE_TO_APPLY] = language


@receiver(table_page_preferences, dispatch_uid="accounts.table_preferences")
def member_table_preferences(sender: Any, request: HttpRequest, table: Table, **_kwargs: Any) -> dict[str, Any] | None:
    if not request.user.is_authenticated:
        return None
    return selectors.table_preferences(request.user)


@receiver(game_finished)
def rate_game(sender: Any, game: Game, table: Table, **_kwargs: Any) -> None:
    # Sent after the commit that ended the game: a failure here must not
    # break the move that ended it; the periodic sweep rates missed games.
    try:
        record = services.rate_finished_game(game_id=game.pk)
    except Exception:
        logger.exception("rating game %s failed", game.pk)
        return
    if record is not None:
        services.announce_rating_changes(record=record)
    # After the rating, which ranks the members they stood in for last.
    try:
        services.count_abandonments_at_end(table_id=table.pk)
    except Exception:
        logger.exception("closing the stand-ins of table %s failed", table.pk)


@receiver(seat_abandoned)
def count_abandonment(sender: Any, table_id: int, seat: int, user_id: int | None, **_kwargs: Any) -> None:
    # Inside the transaction that ended the game: counted with it, or not at all.
    game_id = Game.objects.filter(table_id=table_id).values_list("pk", flat=True).first()
    if user_id is not None and game_id is not None:
        services.record_abandonment(user_id=user_id, game_id=game_id, seat=seat)



@receiver(member_bots, dispatch_uid="accounts.member_bots")
def member_bot_accounts(sender: Any, user_ids: list[int], **_kwargs: Any) -> set[int]:
    """The table core stores on each seat whether a bot account holds it (``Seat.bot``)."""
    return selectors.bot_ids(user_ids)


@receiver(table_page_panels, dispatch_uid="accounts.table_bots")
def table_bots_panel(sender: Any, request: HttpRequest, table: Table, **_kwargs: Any) -> str:
    """At a table with bot accounts: which seats are played by a program (docs/api.md)."""
    seats = [seat for seat in game_selectors.table_seats(table.pk) if seat.user_id is not None]
    bots = selectors.bot_ids(seat.user_id for seat in seats if seat.user_id is not None)
    names = [seat.name or str(seat.user) for seat in seats if seat.user_id in bots]
    if not names:
        return ""
    context = {"count": len(names), "joined": ", ".join(names)}
    return render_to_string("accounts/_table_bots.html", context, request=request)
