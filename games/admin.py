"""Admin of the table core: tables with their seats, games, the move log,
who is connected and computers standing in.

The move log is the truth of every game (a game is its seed plus its moves):
moves are shown, never added, changed or deleted here. A game's own fields
are read-only for the same reason; to stop a live game, use the action
"Abort the selected live games", which goes through games.play.services like any
other change (the players are told, nothing is rated)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import Game, GameReview, Move, Presence, Seat, StandIn, Table
from games.play import services


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never written."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "guest_key", "level", "name")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "mode", "status", "public", "created_by", "created_at", "finished_at")
    list_filter = ("status", "kind", "public", "mode")
    search_fields = ("=id", "created_by__username", "seats__user__username")
    date_hierarchy = "created_at"
    # Whether anyone may watch is the one thing an admin may change here.
    readonly_fields = ("kind", "mode", "status", "created_by", "created_at", "finished_at")
    fields = ("kind", "mode", "status", "public", "created_by", "created_at", "finished_at")
    inlines = [SeatInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are made by the site's flows (games.play.services)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # deleting a table would delete its game's move log


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("seq", "seat", "kind", "payload", "chain", "created_at")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "preset", "seq", "finished_at", "winner", "updated_at")
    list_filter = ("preset",)
    search_fields = ("=id", "=table__id")
    date_hierarchy = "created_at"
    list_select_related = ("table",)
    # The seed (and the cached state, which holds it and every hand) stays
    # out of the admin's pages: a game is dealt from a secret.
    exclude = ("seed", "server_seed", "state")
    inlines = [MoveInline]
    actions = ["abort_live_games"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Viewing the page and running the action need it; every field stays read-only.
        return bool(request.user.has_perm("games.change_game"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field.name for field in Game._meta.fields if field.name not in self.exclude]

    @admin.action(description=_("Abort the selected live games"), permissions=["change"])
    def abort_live_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        aborted = sum(services.abort_game(game_id=game.pk, reason="admin") for game in queryset)
        self.message_user(
            request,
            ngettext("%(count)d game aborted.", "%(count)d games aborted.", aborted) % {"count": aborted},
            messages.SUCCESS,
        )


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "seat", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("=game__id", "=game__table__id")
    list_select_related = ("game",)
    ordering = ("-game_id", "seq")


@admin.register(GameReview)
class GameReviewAdmin(ReadOnlyAdmin):
    list_display = ("game", "status", "created_at", "finished_at")
    list_filter = ("status",)


@admin.register(StandIn)
class StandInAdmin(admin.ModelAdmin):
    list_display = ("table", "seat", "user", "started_at")


@admin.register(Presence)
class PresenceAdmin(admin.ModelAdmin):
    list_display = ("channel_name", "user", "table_id", "seat", "seen_at")
