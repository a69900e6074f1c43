"""The members' routes of the community: block, unblock, report (from a
profile or a chat line). Thin: parse, call a service, answer with a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from community import services


def _member(username: str):  # type: ignore[no-untyped-def]
    return get_object_or_404(get_user_model(), username=username, is_active=True)


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    other = _member(username)
    try:
        services.block(blocker=request.user, blocked=other)  # type: ignore[arg-type]
    except services.CommunityError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("You blocked %(name)s.") % {"name": other.get_username()})
    return redirect("accounts:profile", username=other.get_username())


@login_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    other = _member(username)
    services.unblock(blocker=request.user, blocked=other)  # type: ignore[arg-type]
    messages.success(request, _("You unblocked %(name)s.") % {"name": other.get_username()})
    return redirect("accounts:profile", username=other.get_username())


@login_required
@require_POST
def report(request: HttpRequest, username: str) -> HttpResponse:
    other = _member(username)
    line = request.POST.get("chat_line", "")
    table = request.POST.get("table", "")
    try:
        services.report(
            reporter=request.user,  # type: ignore[arg-type]
            reported=other,
            reason=request.POST.get("reason", ""),
            text=request.POST.get("text", ""),
            chat_line_id=int(line) if line.isdigit() else None,
            table_id=int(table) if table.isdigit() else None,
        )
    except services.CommunityError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Thank you: the moderators will look at your report."))
    return redirect("accounts:profile", username=other.get_username())
