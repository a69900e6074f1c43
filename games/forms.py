"""Forms of the games app."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.ai import LEVELS
from games.engine import PRESET_OPTIONS, rules_for
from rules_guide.facts import variant_name

TARGET_LABELS = {
    0: _("One round"),
    50: _("50 points"),
    100: _("100 points"),
}
LEVEL_LABELS = {
    "easy": pgettext_lazy("level", "Easy"),
    "medium": pgettext_lazy("level", "Medium"),
    "hard": pgettext_lazy("level", "Hard"),
}


def preset_choices() -> list[tuple[str, Any]]:
    return [(name, variant_name(name)) for name in PRESET_OPTIONS]


def preset_limits() -> dict[str, dict[str, Any]]:
    """What each preset allows, for the form's script (data, no text)."""
    return {
        name: {"players": list(options.players), "pairs": True in options.teams, "targets": list(options.targets)}
        for name, options in PRESET_OPTIONS.items()
    }


class PlayComputerForm(forms.Form):
    """The four choices of the reference site: variant, players (or pairs),
    game length, computer level. Checked against what the preset allows."""

    preset = forms.ChoiceField(label=_("Variant"), choices=preset_choices, initial="classic-draw")
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(2, _("2 players")), (3, _("3 players")), (4, _("4 players"))],
        coerce=int,
        initial=2,
        widget=forms.RadioSelect,
    )
    teams = forms.BooleanField(label=_("In pairs (4 players, partners face each other)"), required=False)
    target = forms.TypedChoiceField(
        label=_("Game length"),
        choices=list(TARGET_LABELS.items()),
        coerce=int,
        initial=100,
        widget=forms.RadioSelect,
    )
    level = forms.ChoiceField(
        label=_("Computer level"),
        choices=[(level, LEVEL_LABELS[level]) for level in LEVELS],
        initial="medium",
        widget=forms.RadioSelect,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        preset = data.get("preset")
        players = data.get("players")
        target = data.get("target")
        if preset is None or players is None or target is None:
            return data
        teams = bool(data.get("teams"))
        options = PRESET_OPTIONS[preset]
        name = variant_name(preset)
        if teams and True not in options.teams:
            self.add_error("teams", _("%(variant)s is not played in pairs.") % {"variant": name})
        elif teams and players != 4:
            self.add_error("teams", _("Pairs need 4 players."))
        if players not in options.players:
            allowed = ", ".join(str(p) for p in options.players)
            self.add_error(
                "players", _("%(variant)s is played by %(allowed)s players.") % {"variant": name, "allowed": allowed}
            )
        if target not in options.targets:
            allowed = ", ".join(str(TARGET_LABELS.get(t, t)) for t in options.targets)
            self.add_error(
                "target", _("%(variant)s is played to: %(allowed)s.") % {"variant": name, "allowed": allowed}
            )
        if not self.errors:
            try:
                data["rules"] = rules_for(preset, players=players, teams=teams, target=target)
            except ValueError:
                raise forms.ValidationError(_("These choices do not go together.")) from None
        data["teams"] = teams
        return data
