"""Admin of the table core: who is connected and computers standing in."""

from __future__ import annotations

from django.contrib import admin

from games.models import Presence, StandIn


@admin.register(StandIn)
class StandInAdmin(admin.ModelAdmin):
    list_display = ("table", "seat", "user", "started_at")


@admin.register(Presence)
class PresenceAdmin(admin.ModelAdmin):
    list_display = ("channel_name", "user", "table_id", "seat", "seen_at")
