"""Admin of the lobby: the ranked queue and invitations."""

from __future__ import annotations

from django.contrib import admin

from lobby.models import Invitation, QueueEntry


@admin.register(QueueEntry)
class QueueEntryAdmin(admin.ModelAdmin):
    list_display = ("user", "mode", "rating", "joined_at")
    list_filter = ("mode",)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("table", "from_user", "to_user", "created_at")
