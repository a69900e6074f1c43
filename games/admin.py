"""Admin of the table core: tables with their seats, games, the move log,
who is connected and computers standing in.

The move log is the truth of every game (a game is its seed plus its moves):
moves are shown, never added, changed or deleted here. A game's own fields
are read-only for the same reason; to stop a live game, use the action
"Abort the selected live games", which goes through games.play.services like any
other change (the players are told, nothing is rated).

Nothing here shows what nobody may see during a game, nor any credential
(docs/fair-play.md, "What the staff sees"): the seed, the server seed and
the cached state (every hand) are never shown; a drawn tile only once the
game's seed is published (games.fairplay.fairness.is_published: finished, not
aborted); a guest's key and a socket's session key (a session key is a
login: sent as the session cookie, it is the guest's seat) never. Nor can
a list be filtered by any of them (``?seed__startswith=4`` would give the
seed away one digit at a time): such an address answers 400."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from django.contrib import admin, messages
from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from games.engine import Event
from games.models import Game, GameReview, Move, Presence, Seat, StandIn, Table
from games.play import services


class HidesSecrets(admin.ModelAdmin):
    """``secret_fields`` are never shown (the admin's subclasses leave them
    out of every list and form) and no list may be filtered by them."""

    secret_fields: frozenset[str] = frozenset()

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if lookup.split(LOOKUP_SEP, 1)[0] in self.secret_fields:
            return False
        return bool(super().lookup_allowed(lookup, value, request))


def published(prefix: str = "") -> ExpressionWrapper:
    """Whether the game (``prefix``: the path to it, e.g. ``"game__"``) has its
    seed published: the query form of games.fairplay.fairness.is_published."""
    return ExpressionWrapper(
        Q(
            **{
                f"{prefix}finished_at__isnull": False,
                f"{prefix}table__status": Table.Status.FINISHED,
                f"{prefix}state__isnull": False,
                f"{prefix}sealed": False,
            }
        ),
        output_field=BooleanField(),
    )


def shown_payload(move: Move, *, is_published: bool) -> str:
    """A move's payload as the admin shows it: whole once the game's seed is
    published; before that, all but the tile a viewer may not see (the move
    log's event type decides which: ``Event.public``, a drawn tile is the
    drawer's alone). The rest (a play's tile and end, who acted for the seat,
    how a computer chose, who agreed to a draw) is shown."""
    payload = move.payload or {}
    if is_published:
        return json.dumps(payload)
    try:
        event = Event.from_row(move.kind, move.seat, payload)
    except ValueError:
        return gettext("the rest is hidden until the game is over")  # not a move of the log: nothing shown
    public = replace(event, tile=event.public().tile).payload()
    text = json.dumps(public)
    if len(public) < len(payload):
        text += " · " + gettext("the rest is hidden until the game is over")
    return text


class ReadOnlyAdmin(HidesSecrets):
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
    # Not the guest's key: it is their session key, a login to their seat.
    fields = ("number", "sitter", "user", "level", "name")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("sits there"))
    def sitter(self, seat: Seat) -> str:
        if seat.level:
            return gettext("Computer")
        if seat.user_id is not None:
            return gettext("Member")
        return gettext("Guest") if seat.guest_key else pgettext("seat", "Open seat")


@admin.register(Table)
class TableAdmin(HidesSecrets):
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


class ShowsPayload:
    """The ``payload`` column of moves: their public part while the game is live."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        return super().get_queryset(request).annotate(published=published("game__"))  # type: ignore[misc]

    @admin.display(description=_("payload"))
    def payload_shown(self, move: Move) -> str:
        return shown_payload(move, is_published=bool(getattr(move, "published", False)))


class MoveInline(ShowsPayload, admin.TabularInline):
    model = Move
    extra = 0
    fields = ("seq", "seat", "kind", "payload_shown", "chain", "created_at")
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
    secret_fields = frozenset(exclude)
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
class MoveAdmin(ShowsPayload, ReadOnlyAdmin):
    list_display = ("game", "seq", "seat", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("=game__id", "=game__table__id")
    list_select_related = ("game",)
    ordering = ("-game_id", "seq")
    fields = ("game", "seq", "seat", "kind", "payload_shown", "chain", "created_at")
    readonly_fields = fields
    secret_fields = frozenset({"payload"})


@admin.register(GameReview)
class GameReviewAdmin(ReadOnlyAdmin):
    list_display = ("game", "status", "created_at", "finished_at")
    list_filter = ("status",)
    fields = ("game", "status", "data_shown", "created_at", "started_at", "finished_at")
    readonly_fields = fields
    # A review reads every hand: only of a game whose seed is published.
    secret_fields = frozenset({"data"})

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameReview]:
        return super().get_queryset(request).annotate(published=published("game__"))

    @admin.display(description=_("data"))
    def data_shown(self, review: GameReview) -> str:
        if not getattr(review, "published", False):
            return gettext("hidden until the game is over")
        return json.dumps(review.data)


@admin.register(StandIn)
class StandInAdmin(admin.ModelAdmin):
    list_display = ("table", "seat", "user", "started_at")


@admin.register(Presence)
class PresenceAdmin(HidesSecrets):
    list_display = ("channel_name", "user", "table_id", "seat", "seen_at")
    # A guest's session key is their login: never shown, never written here.
    exclude = ("session_key",)
    secret_fields = frozenset(exclude)
