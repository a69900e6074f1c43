"""One-tap games against the computer from the home page: the five ranked
modes' settings (games.play.modes), each named and told for a beginner, with the
section of the rules guide that explains it. The level is the viewer's last
one (default medium)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.play.modes import RANKED_MODES
from games.play.variants import rules_url_for


@dataclass(frozen=True)
class QuickStart:
    key: str
    name: Promise
    description: Promise
    settings: dict[str, Any]
    rules_url: str


QUICK_TEXTS: dict[str, tuple[Promise, Promise]] = {
    "duel-block": (
        _("Duel"),
        _("You against one computer. No drawing: when no tile fits, you pass. One round."),
    ),
    "duel-draw": (
        _("Duel with drawing"),
        _("You against one computer. When no tile fits, draw from the stock. First to 50 points."),
    ),
    "three": (
        _("3 players"),
        _("You against two computers, with a stock to draw from. First to 50 points."),
    ),
    "four": (
        _("4 players"),
        _("You against three computers, every tile dealt. First to 50 points."),
    ),
    "pairs": (
        _("2 v 2 in pairs"),
        _("You and a computer partner sitting opposite, against two computers. First pair to 50 points."),
    ),
}


def quick_starts(level: str = "medium") -> list[QuickStart]:
    """The quick starts in the order of the ranked modes, at ``level``."""
    starts = []
    for key, (name, description) in QUICK_TEXTS.items():
        mode = RANKED_MODES[key]
        settings = {
            "preset": mode.preset,
            "players": mode.players,
            "teams": mode.teams,
            "target": mode.target,
            "level": level,
        }
        starts.append(QuickStart(key, name, description, settings, rules_url_for(mode.preset)))
    return starts
