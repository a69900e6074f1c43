"""Admin of the member data: profiles, games left, ratings, friendships, rated games."""

from __future__ import annotations

from django.contrib import admin

from accounts.models import Abandonment, Friendship, Profile, RatedGame, Rating, RatingChange


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "abandoned", "created_at")
    search_fields = ("user__username",)


@admin.register(Abandonment)
class AbandonmentAdmin(admin.ModelAdmin):
    """Games left (docs/moderation.md, "Fair conduct"): read only; deleting a
    row lifts the queue ban it brought."""

    list_display = ("user", "game", "seat", "kind", "at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "game", "seat", "kind", "at")

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "mode", "shown", "mu", "sigma", "games", "wins", "draws", "losses", "updated_at")
    list_filter = ("mode",)
    search_fields = ("user__username",)


@admin.register(Friendship)
class FriendshipAdmin(admin.ModelAdmin):
    list_display = ("from_user", "to_user", "accepted", "created_at", "accepted_at")
    list_filter = ("accepted",)
    search_fields = ("from_user__username", "to_user__username")


class RatingChangeInline(admin.TabularInline):
    model = RatingChange
    extra = 0
    readonly_fields = (
        "user",
        "seat",
        "rank",
        "outcome",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
    )
    can_delete = False


@admin.register(RatedGame)
class RatedGameAdmin(admin.ModelAdmin):
    list_display = ("game", "mode", "rated_at")
    list_filter = ("mode",)
    inlines = [RatingChangeInline]
