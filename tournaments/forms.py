"""The form of a new tournament (the fields of ``/tournaments/new/``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.play.modes import MODE_CHOICES
from tournaments.models import Tournament


class TournamentForm(forms.Form):
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices, initial="arena")
    mode = forms.ChoiceField(label=_("Mode"), choices=MODE_CHOICES, initial="duel-block")
    minutes = forms.IntegerField(label=_("Length in minutes"), min_value=1, max_value=120, initial=20)
    rounds = forms.IntegerField(label=_("Rounds (duplicate)"), min_value=0, max_value=20, required=False)
    starts_in = forms.IntegerField(
        label=_("Starts in (minutes, 0 = now)"), min_value=0, max_value=7 * 24 * 60, initial=5
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    private = forms.BooleanField(label=_("Private (with a link)"), required=False)
    admits_bots = forms.BooleanField(label=_("Admit bots (programs playing through the API)"), required=False)
