"""Forms of the games app: playing the computer, and a member's salt for a
deal (games.fairplay.fairness)."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.ai import LEVELS
from games.engine import PRESET_OPTIONS, rules_for
from games.fairplay import fairness
from games.play.modes import LEVEL_LABELS
from games.play.variants import VARIANT_SUMMARIES, rules_url_for, variant_name

TARGET_LABELS = {
    0: _("One round"),
    50: _("50 points"),
    100: _("100 points"),
}


def preset_choices() -> list[tuple[str, Any]]:
    return [(name, variant_name(name)) for name in PRESET_OPTIONS]


def variant_info() -> dict[str, dict[str, str]]:
    """Each preset's one-line summary (active language) and its rules guide
    section, for the line under the form's variant choice."""
    return {
        name: {"summary": str(VARIANT_SUMMARIES.get(name, "")), "url": rules_url_for(name)} for name in PRESET_OPTIONS
    }


def preset_limits() -> dict[str, dict[str, Any]]:
    """What each preset allows, for the form's script (data, no text)."""
    return {
        name: {"players": list(options.players), "pairs": True in options.teams, "targets": list(options.targets)}
        for name, options in PRESET_OPTIONS.items()
    }


def clean_table_choices(form: forms.Form, data: dict[str, Any]) -> dict[str, Any]:
    """The one check of a table's choices (``preset``, ``players``, ``teams``,
    ``target``) against what the preset allows, for every form that opens a
    table (this app's computer tables, the lobby's private tables): one message
    per wrong choice, next to that choice; when they all go together,
    ``data["rules"]`` holds the engine's rules for them (``rules_for``, which
    refuses anything the engine does not allow)."""
    preset = data.get("preset")
    players = data.get("players")
    target = data.get("target")
    if preset not in PRESET_OPTIONS or players is None or target is None:
        return data
    teams = bool(data.get("teams"))
    options = PRESET_OPTIONS[preset]
    name = variant_name(preset)
    if teams and True not in options.teams:
        form.add_error("teams", _("%(variant)s is not played in pairs.") % {"variant": name})
    elif teams and players != 4:
        form.add_error("teams", _("Pairs need 4 players."))
    if players not in options.players:
        allowed = ", ".join(str(p) for p in options.players)
        form.add_error(
            "players", _("%(variant)s is played by %(allowed)s players.") % {"variant": name, "allowed": allowed}
        )
    if target not in options.targets:
        allowed = ", ".join(str(TARGET_LABELS.get(t, t)) for t in options.targets)
        form.add_error("target", _("%(variant)s is played to: %(allowed)s.") % {"variant": name, "allowed": allowed})
    if not form.errors:
        try:
            data["rules"] = rules_for(preset, players=players, teams=teams, target=target)
        except ValueError:
            raise forms.ValidationError(_("These choices do not go together.")) from None
    data["teams"] = teams
    return data


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
        return clean_table_choices(self, super().clean())


class SaltFields(forms.Form):
    """A member's salt for the deal, with the server's commitment it answers.

    Mix into a form (``class F(SaltFields, forms.Form)``), render with
    ``{% include "games/_salt_fields.html" %}``, then call ``seed_choice``.
    """

    fair_play_fields = ("salt", "commitment")

    salt = forms.CharField(
        label=_("Your salt for the deal (optional)"),
        required=False,
        max_length=fairness.SALT_MAX_LENGTH,
        strip=True,
        help_text=_(
            "Any words or numbers. They are mixed with the server's secret seed, whose fingerprint is "
            "shown here before you type: so not even the server chooses the deal alone."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    commitment = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def clean_salt(self) -> str:
        salt = self.cleaned_data.get("salt") or ""
        if any(not character.isprintable() for character in salt):
            raise forms.ValidationError(_("Use letters, digits and punctuation only."))
        return salt

    def seed_choice(self, session: MutableMapping[str, Any]) -> tuple[str | None, str] | None:
        """(server seed, salt) for ``create_table``: the server seed is the one
        whose commitment the form showed, claimed once (games.fairplay.fairness). None
        when a salt answers a commitment no longer known (expired, or already
        used by this form sent twice at once): the form then holds an error
        and a new commitment, to send again. Without a salt, an unknown
        commitment simply gives a fresh seed (nothing was promised)."""
        salt = self.cleaned_data.get("salt") or ""
        commitment = self.cleaned_data.get("commitment") or ""
        server_seed = fairness.claim_server_seed(session, commitment) if commitment else None
        if salt and server_seed is None:
            self.add_error(
                "salt",
                _(
                    "The server's fingerprint shown with this form has expired or has already dealt a table: "
                    "here is a new one, send the form again."
                ),
            )
            self.renew_commitment(session)
            return None
        return server_seed, salt

    def renew_commitment(self, session: MutableMapping[str, Any]) -> None:
        """Show a fresh commitment when the form is shown again (the one it
        was sent with is used or unknown)."""
        self.data = self.data.copy()
        self.data[self.add_prefix("commitment")] = fairness.offer_commitment(session)
