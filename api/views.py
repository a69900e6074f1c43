"""The token page ``/account/tokens/`` (docs/api.md): make a token with its
scopes (shown once), the list with their last use, revoke one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
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
