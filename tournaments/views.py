"""The tournaments' pages: thin (parse, call a service or a selector, answer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.services import update_preferences
from games.play.modes import RANKED_MODES
from games.verifier import arena
from games.verifier import duplicate as gv_duplicate
from tournaments import duplicate, selectors, services
from tournaments import results as published
from tournaments.forms import TournamentForm
from tournaments.models import Tournament


def _visible(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    user_id = request.user.pk if request.user.is_authenticated else None
    if not selectors.visible(tournament, key=request.GET.get("key", ""), user_id=user_id):
        raise Http404
    return tournament


def _page(tournament: Tournament) -> str:
    url = reverse("tournaments:detail", args=[tournament.pk])
    return f"{url}?key={tournament.token}" if tournament.private else url


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/index.html", {"lists": selectors.listed(), "form": TournamentForm()}
    )


@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.create_tournament(
                user=request.user,  # type: ignore[arg-type]
                format=data["format"],
                mode=data["mode"],
                minutes=data["minutes"],
                rounds=data["rounds"] or 0,
                starts_in=data["starts_in"],
                rated=data["rated"],
                private=data["private"],
                admits_bots=data["admits_bots"],
            )
        except services.TournamentError as error:
            form.add_error(None, str(error))
        else:
            return HttpResponseRedirect(_page(tournament))
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/new.html", {"form": form}, status=status)


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    is_duplicate = tournament.format == Tournament.Format.DUPLICATE
    rows: Sequence[selectors.Row | duplicate.DuplicateRow] = (
        duplicate.standings(tournament) if is_duplicate else selectors.standings(tournament)
    )
    round_views = duplicate.rounds(tournament) if is_duplicate else []
    user_id = request.user.pk if request.user.is_authenticated else None
    mine = next((row for row in rows if row.player.user_id == user_id), None)
    player = mine.player if mine is not None else None
    # A player waiting for the start is offered the browser notification
    # (Profile.notifications) a minute before it (static/js/notify.js).
    waiting = player is not None and not player.withdrawn and tournament.status == Tournament.Status.CREATED
    notifications_on = bool(waiting and getattr(getattr(request.user, "profile", None), "notifications", False))
    return {
        "tournament": tournament,
        "mode": RANKED_MODES.get(tournament.mode),
        "top": rows[: selectors.TOP],
        "mine": mine,
        "mine_in_top": mine is not None and mine.rank <= selectors.TOP,
        "player": player,
        "current_table": selectors.current_table(player) if player is not None else None,
        "offer_notification": waiting and not notifications_on,
        "notifications_on": notifications_on,
        # A duplicate round's tables are not watched (they play the same deal).
        "live": selectors.live_tables(tournament)
        if tournament.status == Tournament.Status.STARTED and not is_duplicate
        else [],
        "seconds_left": selectors.seconds_left(tournament),
        "podium": selectors.shown_final(tournament.final_standings[:3]),
        "page_url": _page(tournament),
        "chat": selectors.chat(tournament, user_id),
        "rounds": round_views,
        "current_round": duplicate.current_round(round_views) if is_duplicate else None,
        "round_countdown": duplicate.round_countdown(round_views, timezone.now()) if is_duplicate else None,
        "standings_template": "tournaments/_duplicate_standings.html" if is_duplicate else "tournaments/_standings.html",
        "duplicate_scoring": {"beaten": gv_duplicate.BEATEN, "tied": gv_duplicate.TIED, "alone": gv_duplicate.ALONE_PERCENT},
        "scoring": {
            "win": arena.WIN,
            "draw": arena.DRAW,
            "streak": arena.STREAK_AFTER,
            "bonus": arena.BERSERK_BONUS,
            "tiles": arena.BERSERK_TILES,
        },
    }


@require_GET
def detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    return render(request, "tournaments/detail.html", _context(request, tournament))


@require_GET
def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings panel alone (the page refreshes it as games end)."""
    tournament = _visible(request, tournament_id)
    context = _context(request, tournament)
    return render(request, context["standings_template"], context)


@require_http_methods(["GET", "POST"])
def chat(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament's chat: GET its lines (the fragment the page refreshes
    with the standings), POST ``text`` a line; its players only."""
    tournament = _visible(request, tournament_id)
    user_id = request.user.pk if request.user.is_authenticated else None
    if request.method == "POST":
        if user_id is None:
            return HttpResponseRedirect(f"{reverse('account_login')}?next={_page(tournament)}")
        try:
            services.say(tournament=tournament, user=request.user, text=request.POST.get("text", ""))  # type: ignore[arg-type]
        except services.TournamentError as error:
            messages.error(request, str(error))
        return HttpResponseRedirect(f"{_page(tournament)}#chat", status=303)
    lines = selectors.chat(tournament, user_id)
    if lines is None:
        raise Http404
    return render(request, "tournaments/_chat_lines.html", {"chat": lines})


def _act(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    user: Any = request.user
    try:
        if action == "join":
            services.join(tournament=tournament, user=user)
        elif action == "withdraw":
            services.withdraw(tournament=tournament, user=user)
        elif action == "pause":
            services.set_paused(tournament=tournament, user=user, paused=request.POST.get("paused") != "off")
        else:
            services.berserk(tournament=tournament, user=user)
    except services.TournamentError as error:
        messages.error(request, str(error))
        return HttpResponseRedirect(_page(tournament), status=303)
    return HttpResponseRedirect(_page(tournament), status=303)


@login_required
@require_POST
def join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "join")


@login_required
@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "withdraw")


@login_required
@require_POST
def pause(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "pause")


@login_required
@require_POST
def berserk(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "berserk")


@login_required
@require_POST
def notify(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """"Notify me a minute before the start": the member's browser
    notifications preference is turned on (the page's script has asked the
    browser's permission from the click, tournaments/js/notify_offer.js)."""
    tournament = _visible(request, tournament_id)
    update_preferences(user=request.user, notifications=True)  # type: ignore[arg-type]
    return HttpResponseRedirect(f"{_page(tournament)}#notify", status=303)


@require_GET
def results(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    if tournament.status != Tournament.Status.FINISHED:
        return JsonResponse({"error": "the results are published once the tournament is over"}, status=404)
    response = JsonResponse(published.build_results(tournament), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
    return response
