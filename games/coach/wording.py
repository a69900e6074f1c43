"""The words of the coach (the review and the hints), in the active language."""

from __future__ import annotations

from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _

from games.engine import Action, Draw, End, Play, action_from_json


def action_text(action: Action | dict[str, Any]) -> str:
    """A move in words, in the active language ("6-4 on the right", "draw", "pass")."""
    if isinstance(action, dict):
        action = action_from_json(action, seat=0)  # a stored review's action: no seat
    if isinstance(action, Play):
        tile = "{}-{}".format(*action.tile)
        if action.end is End.RIGHT:
            return _("%(tile)s on the right") % {"tile": tile}
        return _("%(tile)s on the left") % {"tile": tile}
    if isinstance(action, Draw):
        return _("draw a tile")
    return _("pass")


def points_text(points: float) -> str:
    """Expected points, signed, one decimal, in the active language's format
    ("+26.1", French "+26,1")."""
    rounded = round(points, 1)
    sign = "-" if rounded < 0 else "+"
    return sign + formats.number_format(abs(rounded), 1, use_l10n=True)
