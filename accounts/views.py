"""Member pages: profiles, leaderboards, friends, the member's settings,
data and closing. Thin: parse, call a service or selector, render."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from itertools import islice

from allauth.mfa.models import Authenticator
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import selectors, services
from accounts.forms import CloseAccountForm, FriendRequestForm, PreferencesForm, TableSwitchForm
from accounts.hooks import profile_panels
from accounts.middleware import set_language_cookie
from accounts.models import Pool
from accounts.ratings import PROVISIONAL_SIGMA
from games.fairplay import export
from games.models import Table
from games.play.modes import RANKED_MODES


def profile(request: HttpRequest, username: str) -> HttpResponse:
    member = get_object_or_404(get_user_model(), username=username, is_active=True)
    friendship = None
    if request.user.is_authenticated and request.user.pk != member.pk:
        friendship = selectors.friendship_between(request.user, member)
    # A bot's ratings are in the bots' pool; a person's in the people's, and
    # those of their rated games with bots apart (docs/members.md).
    pool = selectors.own_pool(member)
    bot_pool = pool != Pool.BOTS and selectors.has_ratings_in(member, Pool.BOTS)
    results = selectors.results_by_variant(member, viewer=request.user)
    return render(
        request,
        "accounts/profile.html",
        {
            "member": member,
            "profile": selectors.profile_of(member),
            "ratings": selectors.ratings_of(member, pool=pool),
            "bot_pool": pool == Pool.BOTS,
            "ratings_with_bots": selectors.ratings_of(member, pool=Pool.BOTS) if bot_pool else [],
            "completion": selectors.completion(member),
            "rating_histories": selectors.rating_histories(member, pool=pool),
            "recent_games": selectors.recent_games(member, viewer=request.user),
            "results_by_variant": results,
            "results_chart": selectors.results_chart(results),
            "friendship": friendship,
            "is_self": request.user.pk == member.pk,
            "panels": [html for _receiver, html in profile_panels.send(None, request=request, member=member) if html],
        },
    )


def download_chunk() -> int:
    """How many records the download reads from the database at a time under ASGI."""
    return int(getattr(settings, "ACCOUNT_DOWNLOAD_CHUNK", 20))


async def _async_records(records: Iterator[str], size: int) -> AsyncIterator[str]:
    """``records`` (a synchronous iterator that reads the database) served to an ASGI
    server: ``size`` records at a time, each chunk read through ``sync_to_async``
    (one thread for the request: the queryset's cursor stays on its connection)."""
    take = sync_to_async(lambda: "".join(islice(records, size)))
    try:
        while chunk := await take():
            yield chunk
    finally:
        close = getattr(records, "close", None)
        if close is not None:
            await sync_to_async(close)()


def games_export(request: HttpRequest, username: str) -> StreamingHttpResponse:
    """Every finished game of a member at a public table, in the dominoes notation
    (docs/notation.md), as one streamed download: under ASGI an asynchronous
    iterator (Django would read a synchronous one whole first), under WSGI the
    synchronous one."""
    member = get_object_or_404(get_user_model(), username=username, is_active=True)
    records = export.member_records(member)
    body: Iterator[str] | AsyncIterator[str] = (
        _async_records(records, download_chunk()) if isinstance(request, ASGIRequest) else records
    )
    response = StreamingHttpResponse(body, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="dominoes-{member.get_username()}.txt"'
    return response


def leaderboard(request: HttpRequest) -> HttpResponse:
    mode_key = request.GET.get("mode", "")
    if mode_key not in RANKED_MODES:
        mode_key = next(iter(RANKED_MODES))
    return render(
        request,
        "accounts/leaderboard.html",
        {
            "modes": RANKED_MODES.values(),
            "mode": RANKED_MODES[mode_key],
            "rows": selectors.leaderboard(mode_key),
            "provisional_sigma": PROVISIONAL_SIGMA,
        },
    )


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounts/friends.html",
        {
            "form": FriendRequestForm(),
            "friends": selectors.friends_of(request.user),
            "incoming": selectors.incoming_requests(request.user),
            "outgoing": selectors.outgoing_requests(request.user),
        },
    )


def _back(request: HttpRequest, default: str = "accounts:friends") -> HttpResponse:
    target = request.POST.get("next", "")
    if target.startswith("/") and not target.startswith("//"):
        return redirect(target)
    return redirect(default)


@login_required
@require_POST
def add_friend(request: HttpRequest) -> HttpResponse:
    form = FriendRequestForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter a username."))
        return _back(request)
    try:
        friendship = services.send_friend_request(
            from_user=request.user, to_username=form.cleaned_data["username"]
        )
    except services.FriendshipError as error:
        messages.error(request, str(error))
        return _back(request)
    if friendship.accepted:
        messages.success(request, _("You are now friends."))
    else:
        messages.success(request, _("Friend request sent."))
    return _back(request)


@login_required
@require_POST
def accept_friend(request: HttpRequest, friendship_id: int) -> HttpResponse:
    try:
        services.accept_friend_request(user=request.user, friendship_id=friendship_id)
    except services.FriendshipError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("You are now friends."))
    return _back(request)


@login_required
@require_POST
def remove_friend(request: HttpRequest, user_id: int) -> HttpResponse:
    if services.remove_friend(user=request.user, other_id=user_id):
        messages.success(request, _("Removed."))
    return _back(request)


def table_ratings(request: HttpRequest, table_id: int) -> JsonResponse:
    """``/table/<id>/ratings.json``: the players' ratings in the table's mode
    (``current``, shown next to their names at a ranked table) and the rating
    changes of a rated game (``changes``, for the game-over panel of a page
    opened after the game: the table's sockets got them as a ``ratings``
    frame; ``[]`` until it is rated)."""
    from accounts.models import RatedGame
    from games.models import Table

    table = get_object_or_404(Table, pk=table_id)
    if not table.public and not (
        request.user.is_authenticated and table.seats.filter(user=request.user).exists()
    ):
        raise Http404("private table")
    record = RatedGame.objects.filter(game__table=table).first()
    changes = services.rating_changes(record) if record is not None else []
    # The players' ratings in the mode, shown next to their names (not to a
    # viewer in zen mode while the game is played).
    current = []
    if table.mode and not selectors.hides_ratings(request.user, table):
        seats = {seat.user_id: seat.number for seat in table.seats.all() if seat.user_id is not None}
        for user_id, (rating, provisional) in selectors.ratings_in_mode(list(seats), table.mode).items():
            current.append({"seat": seats[user_id], "rating": rating, "provisional": provisional})
        current.sort(key=lambda item: item["seat"])
    return JsonResponse({"mode": record.mode if record else table.mode, "changes": changes, "current": current})


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    """``/account/settings/``: the member's preferences, and the way to their
    e-mail addresses, password, two-factor authentication, data and closing.
    A POST with ``preference`` and ``value`` is a switch of the table page
    (JSON answer); any other POST is the whole form."""
    profile = services.ensure_profile(user=request.user)  # type: ignore[arg-type]
    if request.method == "POST" and "preference" in request.POST:
        switch = TableSwitchForm(request.POST)
        if not switch.is_valid():
            return JsonResponse({"ok": False, "errors": switch.errors}, status=400)
        services.update_preferences(user=request.user, **switch.preference_values())  # type: ignore[arg-type]
        return JsonResponse({"ok": True})
    form = PreferencesForm(request.POST if request.method == "POST" else None, instance=profile)
    if request.method == "POST":
        if form.is_valid():
            values = {name: form.cleaned_data[name] for name in services.PREFERENCES}
            profile = services.update_preferences(user=request.user, **values)  # type: ignore[arg-type]
            if profile.language:
                translation.activate(profile.language)  # the message in the language chosen
            messages.success(request, _("Your settings are saved."))
            response = redirect("accounts:settings")
            if profile.language:
                set_language_cookie(response, profile.language)
            return response
        status = 400
    else:
        status = 200
    kinds = set(Authenticator.objects.filter(user=request.user).values_list("type", flat=True))
    return render(
        request,
        "accounts/settings.html",
        {
            "form": form,
            "two_factor": Authenticator.Type.TOTP in kinds,
            "recovery_codes": Authenticator.Type.RECOVERY_CODES in kinds,
        },
        status=status,
    )


@login_required
@require_GET
def account_export(request: HttpRequest) -> HttpResponse:
    """``/account/export/``: all the member's data as one JSON file (a download)."""
    data = selectors.member_data(request.user)  # type: ignore[arg-type]
    body = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    day = timezone.now().date().isoformat()
    response["Content-Disposition"] = f'attachment; filename="dominoes-club-{request.user.get_username()}-{day}.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def account_close(request: HttpRequest) -> HttpResponse:
    """``/account/close/``: the confirmation page, then a POST with ``password``."""
    form = CloseAccountForm(request.POST if request.method == "POST" else None)
    reasons: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            services.close_account(user=request.user, password=form.cleaned_data["password"])  # type: ignore[arg-type]
        except services.ClosingError as error:
            reasons = error.reasons
        else:
            logout(request)
            messages.success(request, _("Your account is closed. Goodbye, and thank you for playing."))
            return redirect("games:home")
    blocking = [table for table in selectors.live_tables_of(request.user) if table.kind != Table.Kind.COMPUTER]  # type: ignore[arg-type]
    return render(
        request,
        "accounts/close.html",
        {"form": form, "reasons": reasons, "blocking": blocking},
        status=400 if request.method == "POST" else 200,
    )
