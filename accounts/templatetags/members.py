"""Template tags of the member pages: ``{% load members %}{% ranked_modes as modes %}``."""

from __future__ import annotations

from django import template

from games.play.modes import RANKED_MODES, RankedMode

register = template.Library()


@register.simple_tag
def ranked_modes() -> list[RankedMode]:
    """The ranked modes, in display order (games.play.modes.RANKED_MODES)."""
    return list(RANKED_MODES.values())
