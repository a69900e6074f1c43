"""The variants as players know them: their names, a one-line summary, and
where the rules guide explains each (the guide reads these; the forms, the
table page and the lobby show them)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine.rules import PRESET_OPTIONS

VARIANT_NAMES: dict[str, Promise] = {
    "classic-draw": _("Classic, with drawing"),
    "classic-block": _("Classic, without drawing"),
    "arena": _("Arena"),
    "quick": _("Quick"),
    "duel-block": _("Block duel"),
}

VARIANT_SUMMARIES: dict[str, Promise] = {
    "classic-draw": _(
        "The reference game: a boneyard to draw from, several rounds, and the tie of a "
        "blocked round goes to the opener's side of the table."
    ),
    "classic-block": _(
        "The same game with no drawing at all: whoever cannot play passes, so rounds are "
        "shorter and blocking your opponents matters more."
    ),
    "arena": _(
        "A draw game for two, three or four players, or for two pairs of partners, where "
        "the winning pair scores every other hand."
    ),
    "quick": _(
        "A brisk draw game: smaller hands when three or four play, the winner of a round "
        "opens the next one, and a tied blocked round scores nothing."
    ),
    "duel-block": _(
        "A one-on-one block game, the ranked duel: no drawing, and a tied blocked round is a draw."
    ),
}


def variant_name(preset: str) -> Promise | str:
    return VARIANT_NAMES.get(preset, preset)


def variant_anchor(preset: str) -> str:
    """The id of a variant's section in the rules guide: ``variant-<preset>``."""
    if preset not in PRESET_OPTIONS:
        raise ValueError(f"unknown preset {preset!r}; known: {sorted(PRESET_OPTIONS)}")
    return f"variant-{preset}"


def rules_url_for(preset: str) -> str:
    """``/rules/#variant-<preset>``: the guide, opened at the rules of that variant."""
    return f"{reverse('rules_guide:guide')}#{variant_anchor(preset)}"
