"""The moderation queue in the admin (docs/moderation.md): open reports
first, with their evidence; actions warn, chat timeout (and lifting it), mark
as troll (and lifting it), close the account, dismiss, each with the reason typed next to the action menu and
logged (``ModerationAction``) with the moderator who took it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from community import services
from community.models import ChatLine, ModerationAction, Report, Standing


class ModerationForm(ActionForm):
    reason = forms.CharField(label=_("Reason (shown to the member for a warning or a timeout)"), required=False)
    hours = forms.FloatField(label=_("Timeout (hours)"), required=False, initial=24)

# The result of each action, with how many rows it applied to.
WARNED = ngettext_lazy("%(count)s member warned.", "%(count)s members warned.", "count")
TIMED_OUT = ngettext_lazy("%(count)s chat timeout given.", "%(count)s chat timeouts given.", "count")
MARKED = ngettext_lazy("%(count)s member marked as a troll.", "%(count)s members marked as trolls.", "count")
TIMEOUT_LIFTED = ngettext_lazy("%(count)s chat timeout lifted.", "%(count)s chat timeouts lifted.", "count")
TROLL_LIFTED = ngettext_lazy("%(count)s troll mark lifted.", "%(count)s troll marks lifted.", "count")
CLOSED = ngettext_lazy("%(count)s account closed.", "%(count)s accounts closed.", "count")
DISMISSED = ngettext_lazy("%(count)s report dismissed.", "%(count)s reports dismissed.", "count")


def _each(
    request: HttpRequest,
    rows: QuerySet[Any],
    act: Callable[[Any, str], Any],
    done: Promise,
    *,
    related: str = "reported",
    stop_at_refusal: bool = True,
) -> None:
    """An action on the selected rows (reports, or members' standings), with the
    reason typed beside the menu; a refusal is shown, and ends the action on
    reports (``stop_at_refusal``) or skips that row on standings. ``done``: the
    result's message, translated, with the count (``ngettext_lazy`` keyed by
    ``count``)."""
    reason = request.POST.get("reason", "").strip()
    if not reason:
        messages.error(request, _("Give the reason of the action."))
        return
    count = 0
    for row in rows.select_related(related):
        try:
            act(row, reason)
        except services.CommunityError as error:
            messages.error(request, error.message)
            if stop_at_refusal:
                return
            continue
        count += 1
    messages.success(request, done % {"count": count})


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created", "reported", "reason", "reporter", "status", "game")
    list_filter = ("status", "reason")
    search_fields = ("reported__username", "reporter__username", "text")
    ordering = ("status", "-created")
    readonly_fields = ("reporter", "reported", "reason", "text", "table", "game", "chat_line", "evidence", "created")
    fields = (*readonly_fields, "status")
    action_form = ModerationForm
    actions = ("warn", "chat_timeout", "lift_chat_timeout", "mark_troll", "lift_troll", "close_account", "dismiss")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Warn the reported member"))
    def warn(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        _each(request, queryset, lambda r, why: services.warn(
            member=r.reported, moderator=request.user, reason=why, report=r), WARNED)  # type: ignore[arg-type]

    @admin.action(description=_("Close the chat to the reported member for the hours given"))
    def chat_timeout(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        try:
            hours = float(request.POST.get("hours") or 24)
        except ValueError:
            messages.error(request, _("The hours are a number."))
            return
        _each(request, queryset, lambda r, why: services.chat_timeout(
            member=r.reported, moderator=request.user, reason=why, hours=hours, report=r),  # type: ignore[arg-type]
            TIMED_OUT)

    @admin.action(description=_("Mark the reported member as a troll (their lines shown to themselves only)"))
    def mark_troll(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        _each(request, queryset, lambda r, why: services.mark_troll(
            member=r.reported, moderator=request.user, reason=why, report=r), MARKED)  # type: ignore[arg-type]

    @admin.action(description=_("Lift the reported member's chat timeout"))
    def lift_chat_timeout(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        _each(request, queryset, lambda r, why: services.lift_chat_timeout(
            member=r.reported, moderator=request.user, reason=why, report=r), TIMEOUT_LIFTED)  # type: ignore[arg-type]

    @admin.action(description=_("Lift the reported member's troll mark"))
    def lift_troll(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        _each(request, queryset, lambda r, why: services.mark_troll(
            member=r.reported, moderator=request.user, reason=why, troll=False, report=r),  # type: ignore[arg-type]
            TROLL_LIFTED)

    @admin.action(description=_("Close the reported member's account"))
    def close_account(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        _each(request, queryset, lambda r, why: services.close_account(
            member=r.reported, moderator=request.user, reason=why, report=r), CLOSED)  # type: ignore[arg-type]

    @admin.action(description=_("Dismiss the report"))
    def dismiss(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        _each(request, queryset, lambda r, why: services.dismiss(
            report=r, moderator=request.user, reason=why), DISMISSED)  # type: ignore[arg-type]


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):
    """The log: read only."""

    list_display = ("created", "member", "kind", "moderator", "reason", "until", "report")
    list_filter = ("kind",)
    search_fields = ("member__username", "moderator__username", "reason")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ModerationAction | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ModerationAction | None = None) -> bool:
        return False


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    """The members' standings: a troll mark or a chat timeout lifted from
    here too (each logged with the moderator who lifted it)."""

    list_display = ("member", "troll", "chat_timeout_until", "chat_timeout_reason")
    list_filter = ("troll",)
    search_fields = ("member__username",)
    readonly_fields = ("member", "troll", "chat_timeout_until", "chat_timeout_reason")
    action_form = ModerationForm
    actions = ("lift_chat_timeout", "lift_troll")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Lift the chat timeout"))
    def lift_chat_timeout(self, request: HttpRequest, queryset: QuerySet[Standing]) -> None:
        _each(request, queryset, lambda s, why: services.lift_chat_timeout(
            member=s.member, moderator=request.user, reason=why), TIMEOUT_LIFTED, related="member", stop_at_refusal=False)  # type: ignore[arg-type]

    @admin.action(description=_("Lift the troll mark"))
    def lift_troll(self, request: HttpRequest, queryset: QuerySet[Standing]) -> None:
        _each(request, queryset, lambda s, why: services.mark_troll(
            member=s.member, moderator=request.user, reason=why, troll=False),  # type: ignore[arg-type]
            TROLL_LIFTED, related="member", stop_at_refusal=False)


@admin.register(ChatLine)
class ChatLineAdmin(admin.ModelAdmin):
    list_display = ("created", "author", "table", "room", "text", "filtered", "only_author")
    search_fields = ("author__username", "text")
    list_filter = ("room", "filtered", "only_author")
    readonly_fields = ("table", "game", "author", "room", "text", "filtered", "only_author", "created")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
