"""Forms of the member pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class FriendRequestForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
