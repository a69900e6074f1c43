"""The members' routes of the community: block, unblock, report (from a
profile or a chat line), mute in a tournament's chat. Thin: parse, call a service, answer with a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
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
def mute(request: HttpRequest, username: str) -> HttpResponse:
    """Mute (``mute`` "1") or unmute ("0") a member's lines in a tournament's
    chat (``tournament``); back to ``next`` (a page of this site) or their profile."""
    other = _member(username)
    tournament = request.POST.get("tournament", "")
    if not tournament.isdigit():
        return HttpResponseBadRequest(_("Say in which tournament's chat."))
    muting = request.POST.get("mute", "1") != "0"
    try:
        services.mute_in_tournament(
            tournament_id=int(tournament), member=request.user, muted=other, mute=muting  # type: ignore[arg-type]
        )
    except services.CommunityError as error:
        messages.error(request, error.message)
    else:
        name = other.get_username()
        if muting:
            messages.success(request, _("You no longer see the lines of %(name)s in this chat.") % {"name": name})
        else:
            messages.success(request, _("You see the lines of %(name)s in this chat again.") % {"name": name})
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(target)
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
