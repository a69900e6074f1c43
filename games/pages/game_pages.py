"""Game pages. Thin: parse, call a service or selector, render."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.live.reactions import REACTION_IDS
from games.models import Table
from games.pages.forms import PlayComputerForm, preset_limits, variant_info
from games.pages.quick import quick_starts
from games.play import limits, selectors, services
from games.play.modes import LEVEL_LABELS
from games.play.variants import rules_url_for
from games.signals import home_page_panels, table_page_panels, table_page_preferences
from games.timers import expiry

LAST_SETTINGS = "last_computer_game"
"""Session key of the settings of the last game against the computer (the
home form starts from them)."""


def last_settings(request: HttpRequest) -> dict[str, Any]:
    """The settings of the viewer's last game against the computer, if any."""
    saved = request.session.get(LAST_SETTINGS)
    return dict(saved) if isinstance(saved, dict) else {}


def home(request: HttpRequest) -> HttpResponse:
    form = PlayComputerForm(initial=last_settings(request))
    context = _home_context(request, form)
    context["panels"] = [html for _receiver, html in home_page_panels.send(None, request=request) if html]
    return render(request, "games/home.html", context)


def _home_context(request: HttpRequest, form: PlayComputerForm) -> dict[str, Any]:
    level = last_settings(request).get("level")
    level = level if level in LEVEL_LABELS else "medium"
    info = variant_info()
    return {
        "play_form": form,
        "preset_limits": preset_limits(),
        "variant_info": info,
        "variant_now": info.get(str(form["preset"].value()), info["classic-draw"]),
        "quick_starts": quick_starts(level),
        "quick_level": LEVEL_LABELS[level],
    }


def guest_key(request: HttpRequest) -> str:
    """The session key that identifies a guest (the session is created now
    if the browser has none yet). It is also kept in the session's data,
    which survives the new key a login gives the session: when the guest
    then logs in or signs up, their seats pass to the member
    (``services.adopt_guest_seats``)."""
    request.session["guest"] = True  # a non-empty session gets its cookie
    if not request.session.session_key:
        request.session.save()
    key = str(request.session.session_key)
    request.session[services.GUEST_KEY_SESSION] = key
    return key


@require_POST
def play_computer(request: HttpRequest) -> HttpResponse:
    form = PlayComputerForm(request.POST)
    if not form.is_valid():
        return render(request, "games/home.html", _home_context(request, form), status=400)
    data = form.cleaned_data
    if not request.user.is_authenticated:
        guest_key(request)  # the visitor the limit counts
    if not limits.allow_new_table(request):
        form.add_error(None, limits.too_many_tables())
        return render(request, "games/home.html", _home_context(request, form), status=429)
    settings = {key: data[key] for key in COMPUTER_SETTINGS}
    table = _computer_table(request, settings)
    return redirect("games:table", table_id=table.pk)


COMPUTER_SETTINGS = ("preset", "players", "teams", "target", "level")


def _computer_table(request: HttpRequest, settings: dict[str, Any]) -> Table:
    """A new table against the computer for the viewer (the caller checked the
    visitor's limit); its settings are remembered for the home form."""
    member = request.user if request.user.is_authenticated else None
    table = services.create_computer_table(
        user=member, guest_key="" if member is not None else guest_key(request), **settings
    )
    request.session[LAST_SETTINGS] = settings
    return table


def computer_settings(table: Table) -> dict[str, Any] | None:
    """The settings a computer table was created with (the form's fields)."""
    if table.kind != Table.Kind.COMPUTER:
        return None
    game = table.game
    levels = [seat.level for seat in table.seats.all() if seat.level]
    return {
        "preset": game.preset,
        "players": int(game.rules.get("players", len(levels) + 1)),
        "teams": bool(game.rules.get("teams")),
        "target": int(game.rules.get("target", 0)),
        "level": levels[0] if levels else "medium",
    }


@require_POST
def rematch(request: HttpRequest, table_id: int) -> HttpResponse:
    """Ask for a rematch (games.play.services.rematch): the same seats and settings,
    a new deal, once every person seated asked; against the computer alone, at
    once. A page's script asks with ``Accept: application/json``."""
    table = get_object_or_404(Table.objects.select_related("game"), pk=table_id)
    seat = selectors.viewer_seat(table, user=request.user, guest_key=request.session.session_key)
    if seat is None:
        raise Http404("not a seat of yours")
    wants_json = request.headers.get("accept", "").startswith("application/json")
    try:
        # The ask that makes the new table (against the computer: at once)
        # counts as one new table for its asker (games.play.limits).
        result = services.offer_rematch(
            table_id=table.pk, seat=seat, allow_new_table=lambda: limits.allow_new_table(request)
        )
    except services.TooManyTables as error:
        if wants_json:
            return JsonResponse({"ok": False, "code": error.code, "message": error.message}, status=429)
        return HttpResponse(error.message, status=429)
    except services.GameError as error:
        if wants_json:
            body = {"ok": False, "code": error.code, "message": error.message}
            if isinstance(error, services.InGame) and error.url:
                body["url"] = error.url
            return JsonResponse(body, status=409)
        return HttpResponse(error.message, status=409)
    settings = computer_settings(table)
    if settings is not None:
        request.session[LAST_SETTINGS] = settings
    url = f"/table/{result.table.pk}/" if result.table is not None else None
    if wants_json:
        return JsonResponse({"ok": True, "url": url, "seats": result.asked, "waiting": result.waiting})
    return redirect(url or reverse("games:table", args=[table.pk]))


def table_config(table: Table, seat: int | None) -> dict[str, Any]:
    """What the table page's script starts from (``json_script`` "table-config")."""
    game = table.game
    return {
        "tableId": table.pk,
        "wsPath": f"/ws/table/{table.pk}/",  # websocket routes have no reverse()
        "seat": seat,
        "players": selectors.table_players(table),
        "rulesUrl": rules_url_for(game.preset),
        "preset": game.preset,
        "rules": game.rules,
        "teams": bool(game.rules.get("teams")),
        "ranked": table.ranked,
        "kind": table.kind,
        "status": table.status,
        "commitment": game.commitment,
        "mode": table.mode,
        "reactions": list(REACTION_IDS),
        "rematch": services.rematch_state(table) if table.status == Table.Status.FINISHED else None,
    }


def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The live table (also the final state of a finished game)."""
    table = get_object_or_404(Table.objects.select_related("game"), pk=table_id)
    seat = selectors.viewer_seat(table, user=request.user, guest_key=request.session.session_key)
    if not selectors.can_watch(table, seat):
        raise Http404("private table")
    panels = [html for _receiver, html in table_page_panels.send(Table, request=request, table=table) if html]
    config = table_config(table, seat)
    preferences: dict[str, Any] = {}
    for _receiver, answer in table_page_preferences.send(Table, request=request, table=table):
        preferences.update(answer or {})
    config["preferences"] = preferences or None
    context = {
        "table": table,
        "config": {**config, "me": request.user.get_username() if request.user.is_authenticated else ""},
        "seated": seat is not None,
        "again": computer_settings(table) if seat is not None else None,
        "panels": panels,
    }
    return render(request, "games/table.html", context)



@require_POST
def claim_win(request: HttpRequest, table_id: int) -> HttpResponse:
    """A duel player claims the win over an opponent who left (games.timers.expiry)."""
    table = get_object_or_404(Table, pk=table_id)
    seat = None
    if request.user.is_authenticated:
        seat = table.seats.filter(user=request.user).values_list("number", flat=True).first()
    if seat is None:
        return JsonResponse({"ok": False, "code": "not_seated"}, status=403)
    try:
        expiry.claim_win(game_id=table.game.pk, seat=seat)
    except services.GameError as error:
        return JsonResponse({"ok": False, "code": error.code, "message": error.message}, status=409)
    if request.headers.get("accept", "").startswith("application/json"):
        return JsonResponse({"ok": True})
    return redirect("games:table", table_id=table.pk)
