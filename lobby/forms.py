"""Forms of the lobby: the rules of a private table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.rules import PRESET_OPTIONS
from games.pages.forms import SaltFields, clean_table_choices
from games.play.variants import variant_name

PLAYER_CHOICES = [(2, _("2 players")), (3, _("3 players")), (4, _("4 players"))]
TARGET_CHOICES = [(0, _("One round")), (50, _("50 points")), (100, _("100 points"))]


class PrivateTableForm(SaltFields, forms.Form):
    """The rules of a private table: a preset, the number of players, pairs,
    the game length; checked against what the preset allows (the same check
    as the computer tables': games.pages.forms.clean_table_choices). With the
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
        return clean_table_choices(self, super().clean())


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
