"""The schedule of recurring tournaments is edited here (docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin

from games.play.modes import RANKED_MODES
from tournaments import services
from tournaments.models import Schedule, Tournament


class ScheduleForm(forms.ModelForm):  # type: ignore[type-arg]
    mode = forms.ChoiceField(choices=[(mode, RANKED_MODES[mode].label) for mode in services.ARENA_MODES])
    format = forms.ChoiceField(choices=Tournament.Format.choices)

    class Meta:
        model = Schedule
        fields = (
            "name",
            "cadence",
            "mode",
            "format",
            "minutes",
            "rounds",
            "rated",
            "weekday",
            "hour",
            "minute",
            "lead_minutes",
            "active",
        )

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if {"format", "mode", "minutes"} <= cleaned.keys():
            try:
                services.check_settings(
                    format=cleaned["format"],
                    mode=cleaned["mode"],
                    minutes=cleaned["minutes"],
                    rounds=cleaned.get("rounds") or 0,
                )
            except services.TournamentError as error:
                raise forms.ValidationError(str(error)) from None
            if cleaned["format"] != Tournament.Format.DUPLICATE:
                cleaned["rounds"] = 0  # an arena has no rounds
        return cleaned


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = ScheduleForm
    list_display = (
        "name",
        "cadence",
        "mode",
        "format",
        "minutes",
        "rounds",
        "rated",
        "weekday",
        "hour",
        "minute",
        "active",
    )
    list_filter = ("cadence", "mode", "active")
