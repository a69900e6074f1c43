"""The token page ``/account/tokens/`` (docs/api.md): make a token with its
scopes (shown once), the list with their last use, revoke one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from api import tokens
from api.forms import TokenForm


def _member(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


@login_required
def tokens_page(request: HttpRequest) -> HttpResponse:
    new_token = ""
    form = TokenForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            made = tokens.create_token(
                user=_member(request),
                description=form.cleaned_data["description"],
                scopes=list(form.cleaned_data["scopes"]),
            )
            new_token = made.raw  # shown in this answer only, never again
            form = TokenForm()
        else:
            status = 400
    return render(
        request,
        "api/tokens.html",
        {"form": form, "new_token": new_token, "tokens": tokens.tokens_of(_member(request))},
        status=status,
    )


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    if tokens.revoke(user=_member(request), token_id=token_id):
        messages.success(request, _("The token is revoked: programs using it are refused from now on."))
    else:
        messages.error(request, _("You have no such token."))
    return redirect("api_tokens")


@csrf_exempt
def api_not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Any other address under ``/api/`` (a negative or malformed id among them): the API's
    JSON error, never the site's HTML page (no CSRF check: the API reads no cookie)."""
    return JsonResponse(
        {"type": "error", "code": "not_found", "message": _("No such address in the API."), "reason": "not_found"},
        status=404,
    )
