"""The choices of a challenge (preset, players, pairs, target, rated), checked
by the table core's one check of a table's choices (games.pages.forms)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.ai import LEVELS
from games.pages.forms import clean_table_choices, preset_choices
from games.play.modes import RANKED_MODES, RankedMode


def ranked_mode_of(data: dict[str, Any]) -> RankedMode | None:
    """The ranked mode whose rules are the challenge's choices, or None."""
    for mode in RANKED_MODES.values():
        if (mode.preset, mode.players, mode.teams, mode.target) == (
            data.get("preset"), data.get("players"), bool(data.get("teams")), data.get("target")
        ):
            return mode
    return None


def rated_modes_text() -> str:
    """The ranked modes a challenge may be rated in (two members: the duels)."""
    return "; ".join(
        f"{mode.key}: preset={mode.preset}, players=2, target={mode.target}"
        for mode in RANKED_MODES.values()
        if mode.players == 2
    )


class ChallengeForm(forms.Form):
    preset = forms.ChoiceField(choices=preset_choices, required=False)
    players = forms.TypedChoiceField(choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, required=False, empty_value=None)
    teams = forms.BooleanField(required=False)
    target = forms.TypedChoiceField(choices=[(0, "0"), (50, "50"), (100, "100")], coerce=int, required=False, empty_value=None)
    rated = forms.BooleanField(required=False)
    level = forms.ChoiceField(choices=[(level, level) for level in LEVELS], required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["preset"] = data.get("preset") or "classic-draw"
        data["players"] = data.get("players") or 2
        if data.get("target") is None:
            # A rated challenge on a ranked duel's preset is played to that mode's target.
            duel = next(
                (m for m in RANKED_MODES.values() if m.preset == data["preset"] and m.players == 2), None
            )
            data["target"] = duel.target if data.get("rated") and duel is not None else 100
        data["level"] = data.get("level") or "medium"
        data["mode"] = ""
        if data.get("rated"):
            # Rated in the ranked mode of the same rules, like a game of the queue
            # (docs/api.md); a challenge seats two members, so only the duels.
            mode = ranked_mode_of(data)
            if mode is None or mode.players != 2:
                self.add_error(
                    "rated",
                    _("A rated challenge is played under the rules of a ranked duel (%(modes)s); "
                      "send rated=false for other choices.") % {"modes": rated_modes_text()},
                )
            else:
                data["mode"] = mode.key
        return clean_table_choices(self, data)


def form_data(payload: dict[str, Any]) -> dict[str, Any]:
    """A JSON body as form data: booleans as the form reads them."""
    data: dict[str, Any] = {}
    for key, value in payload.items():
        if isinstance(value, bool):
            if value:
                data[key] = "true"
        elif value is not None:
            data[key] = str(value)
    return data


class TokenForm(forms.Form):
    """A new personal access token: what it is for, and its scopes."""

    description = forms.CharField(label=_("What is it for?"), max_length=100, strip=True)
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"), widget=forms.CheckboxSelectMultiple, choices=[], required=True
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from api.models import Scope

        super().__init__(*args, **kwargs)
        self.fields["scopes"].choices = [(scope.value, f"{scope.value}: {scope.label}") for scope in Scope]
