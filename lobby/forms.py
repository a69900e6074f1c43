"""Forms of the lobby: the rules of a private table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.rules import PRESET_OPTIONS
from games.pages.forms import SaltFields
from games.play.variants import variant_name

PLAYER_CHOICES = [(2, _("2 players")), (3, _("3 players")), (4, _("4 players"))]
TARGET_CHOICES = [(0, _("One round")), (50, _("50 points")), (100, _("100 points"))]


class PrivateTableForm(SaltFields, forms.Form):
    """The rules of a private table: a preset, the number of players, pairs,
    the game length; checked against what the preset allows. With the
    creator's optional salt for the deal (games.pages.forms.SaltFields)."""

    field_order = ("preset", "players", "teams", "target", "public", "salt", "commitment")

    preset = forms.ChoiceField(
        label=_("Variant"),
        choices=[(key, variant_name(key)) for key in PRESET_OPTIONS],
        initial="classic-draw",
        widget=forms.RadioSelect,
    )
    players = forms.TypedChoiceField(
        label=_("Players"), choices=PLAYER_CHOICES, coerce=int, initial=2, widget=forms.RadioSelect
    )
    teams = forms.BooleanField(label=_("In pairs (4 players, partners sit opposite)"), required=False)
    target = forms.TypedChoiceField(
        label=_("Game length"), choices=TARGET_CHOICES, coerce=int, initial=100, widget=forms.RadioSelect
    )
    public = forms.BooleanField(label=_("Anyone may watch"), required=False, initial=True)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        preset = data.get("preset")
        players, teams, target = data.get("players"), data.get("teams", False), data.get("target")
        if preset in PRESET_OPTIONS and players is not None and target is not None:
            options = PRESET_OPTIONS[preset]
            name = variant_name(preset)
            # One message per wrong choice, next to that choice.
            if teams and True not in options.teams:
                self.add_error("teams", _("%(variant)s is not played in pairs.") % {"variant": name})
            elif teams and players != 4:
                self.add_error("teams", _("Pairs need 4 players."))
            if players not in options.players:
                self.add_error(
                    "players",
                    _("%(variant)s is played by %(allowed)s players.")
                    % {"variant": name, "allowed": " / ".join(str(n) for n in options.players)},
                )
            if target not in options.targets:
                allowed = " / ".join(str(n) if n else str(_("one round")) for n in options.targets)
                self.add_error(
                    "target", _("%(variant)s is played to: %(allowed)s.") % {"variant": name, "allowed": allowed}
                )
            if not self.errors and not options.allows(players=players, teams=teams, target=target):
                raise forms.ValidationError(_("These choices do not go together."))
        return data


class RoomTableForm(forms.Form):
    """A room table to open: the kind of game and its length (lobby.rooms)."""

    kind = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect, initial="duel")
    target = forms.TypedChoiceField(
        label=_("Game length"), choices=TARGET_CHOICES, coerce=int, initial=0, widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from lobby import rooms

        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(kind.key, kind.label) for kind in rooms.KINDS.values()]
