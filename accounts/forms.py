"""Forms of the member pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile
from accounts.services import PREFERENCES


class FriendRequestForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )


class PreferencesForm(forms.ModelForm):
    """The member's preferences (``/account/settings/``)."""

    class Meta:
        model = Profile
        fields = list(PREFERENCES)
        labels = {
            "language": _("Language"),
            "sounds": _("Sounds at the table"),
            "confirm_moves": _("Confirm each move"),
            "mute_reactions": _("Mute the other players' reactions"),
            "chat_off": _("Turn the table chat off"),
            "tile_faces": _("Tile faces"),
            "zen": _("Hide ratings during a game (zen mode)"),
            "notifications": _("Browser notifications"),
        }
        help_texts = {
            "language": _("The site's language for you, applied on every device you log in with."),
            "confirm_moves": _("Tap a tile to pick it, then the glowing end to place it: no move by a slip."),
            "tile_faces": _("How the tiles of the table show their numbers."),
            "chat_off": _("No chat line reaches you at any table; the chat panel's switch changes it too."),
            "zen": _("Your rating and the other players' stay hidden at the table until the game is over."),
            "notifications": _(
                "While the site's page is hidden, your browser notifies you a minute before a tournament "
                "you joined starts (the browser asks for your permission)."
            ),
        }
        widgets = {"tile_faces": forms.RadioSelect}


TABLE_SWITCHES: dict[str, tuple[str, Callable[[bool], Any]]] = {
    # The table page's switch -> (preference, its value when the switch is on or off).
    "mute-sounds": ("sounds", lambda on: not on),
    "confirm": ("confirm_moves", lambda on: on),
    "mute-reactions": ("mute_reactions", lambda on: on),
    "chat-off": ("chat_off", lambda on: on),
    "tile-numbers": (
        "tile_faces",
        lambda on: Profile.TileFaces.NUMBERS if on else Profile.TileFaces.PIPS,
    ),
}


class TableSwitchForm(forms.Form):
    """One switch of the table page, saved as the member's preference."""

    preference = forms.ChoiceField(choices=[(name, name) for name in TABLE_SWITCHES])
    value = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda text: text == "1")

    def preference_values(self) -> dict[str, Any]:
        field, value_of = TABLE_SWITCHES[self.cleaned_data["preference"]]
        return {field: value_of(self.cleaned_data["value"])}


class CloseAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
