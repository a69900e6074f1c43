"""How seats are named on member pages."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Seat


def seat_label(seat: Seat) -> str:
    """The username, "Computer (level)", "Guest" or "Open seat"."""
    if seat.level:
        levels = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
        return _("Computer (%(level)s)") % {"level": levels.get(seat.level, seat.level)}
    if seat.user_id is not None:
        return seat.name or seat.user.get_username()
    if seat.guest_key:
        return _("Guest")
    return _("Open seat")
