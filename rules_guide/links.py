"""Links into the rules guide, for other apps (the table's "rules of this table")."""

from __future__ import annotations

from django.urls import reverse

from games.engine.rules import PRESET_OPTIONS


def variant_anchor(preset: str) -> str:
    """The id of a variant's section in the guide: ``variant-<preset>``."""
    if preset not in PRESET_OPTIONS:
        raise ValueError(f"unknown preset {preset!r}; known: {sorted(PRESET_OPTIONS)}")
    return f"variant-{preset}"


def rules_url_for(preset: str) -> str:
    """``/rules/#variant-<preset>``: the guide, opened at the rules of that variant."""
    return f"{reverse('rules_guide:guide')}#{variant_anchor(preset)}"
