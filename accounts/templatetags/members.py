"""Template tags of the member pages: ``{% load members %}{% ranked_modes as modes %}``,
``{{ user|shown_name }}`` (a member's name, "Closed account" once closed)."""

from __future__ import annotations

from django import template
from django.contrib.auth.base_user import AbstractBaseUser

from accounts import selectors
from games.play.modes import RANKED_MODES, RankedMode

register = template.Library()


@register.simple_tag
def ranked_modes() -> list[RankedMode]:
    """The ranked modes, in display order (games.play.modes.RANKED_MODES)."""
    return list(RANKED_MODES.values())


@register.filter
def shown_name(user: AbstractBaseUser) -> str:
    """The member's name as shown beside what they did (accounts.selectors.shown_name)."""
    return selectors.shown_name(user)
