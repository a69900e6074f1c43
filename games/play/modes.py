"""The ranked modes, defined once as data (and the names of the computer levels).

Each ranked mode is one preset with a fixed number of players, pairs or not,
and a fixed target, so that every rated game of a mode is played under the same
rules. The matchmaking queue, the ratings, the ranked page, the leaderboard and
the rules guide all read this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine.rules import PRESET_OPTIONS, Rules, rules_for

# The computer levels (games.ai.LEVELS) as people read them.
LEVEL_LABELS = {
    "easy": pgettext_lazy("level", "Easy"),
    "medium": pgettext_lazy("level", "Medium"),
    "hard": pgettext_lazy("level", "Hard"),
}


@dataclass(frozen=True)
class RankedMode:
    key: str
    preset: str
    players: int
    teams: bool
    target: int
    label: Promise
    summary: Promise

    @property
    def rules(self) -> Rules:
        return rules_for(self.preset, players=self.players, teams=self.teams, target=self.target)

    @property
    def seats(self) -> int:
        return self.players

    @property
    def source(self) -> str:
        """The reference site (seed number) the preset reproduces."""
        return PRESET_OPTIONS[self.preset].source


ARENA_TARGET = 50
"""The target of every ranked mode played on the arena preset (with a boneyard)."""


def _arena(key: str, players: int, label: Promise, summary: Promise, *, teams: bool = False) -> RankedMode:
    """A ranked mode on the arena preset: a boneyard, rounds until ``ARENA_TARGET`` points."""
    return RankedMode(
        key=key,
        preset="arena",
        players=players,
        teams=teams,
        target=ARENA_TARGET,
        label=label,
        summary=summary,
    )


RANKED_MODES: dict[str, RankedMode] = {
    mode.key: mode
    for mode in (
        RankedMode(
            key="duel-block",
            preset="duel-block",
            players=2,
            teams=False,
            target=0,
            label=_("Duel, block game"),
            summary=_(
                "Two players, no boneyard, a single round; a blocked round with equal hands is a draw."
            ),
        ),
        _arena(
            "duel-draw",
            2,
            _("Duel, draw game"),
            _("Two players with a boneyard, rounds until someone reaches 50 points."),
        ),
        _arena(
            "three",
            3,
            _("Three players"),
            _(
                "Three players with a boneyard, rounds until someone reaches 50 points; rated by final ranking."
            ),
        ),
        _arena(
            "four",
            4,
            _("Four players"),
            _(
                "Four players, every tile dealt, rounds until someone reaches 50 points; rated by final ranking."
            ),
        ),
        _arena(
            "pairs",
            4,
            _("Pairs"),
            _("Two pairs, partners sit opposite; the first pair to reach 50 points wins; rated by team."),
            teams=True,
        ),
    )
}
"""Mode key -> RankedMode, in display order."""

MODE_KEYS: tuple[str, ...] = tuple(RANKED_MODES)
MODE_CHOICES: list[tuple[str, Promise]] = [(mode.key, mode.label) for mode in RANKED_MODES.values()]


def get_mode(key: str) -> RankedMode:
    """The ranked mode ``key``; raises KeyError for an unknown key."""
    return RANKED_MODES[key]
