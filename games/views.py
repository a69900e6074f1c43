"""Game pages. Thin: parse, call a service or selector, render."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import limits, selectors, services
from games.forms import PlayComputerForm, preset_limits
from games.models import Table
from games.services import timers
from games.signals import table_page_panels
from games.variants import rules_url_for


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html", _home_context(PlayComputerForm()))


def _home_context(form: PlayComputerForm) -> dict[str, Any]:
    return {"play_form": form, "preset_limits": preset_limits()}


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
        return render(request, "games/home.html", _home_context(form), status=400)
    data = form.cleaned_data
    member = request.user if request.user.is_authenticated else None
    key = "" if member is not None else guest_key(request)  # the visitor the limit counts
    if not limits.allow_new_table(request):
        form.add_error(None, _("You have opened many tables in a short time: finish one, or wait a few minutes."))
        return render(request, "games/home.html", _home_context(form), status=429)
    table = services.create_computer_table(
        user=member,
        guest_key=key,
        preset=data["preset"],
        players=data["players"],
        teams=data["teams"],
        target=data["target"],
        level=data["level"],
    )
    return redirect("games:table", table_id=table.pk)


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
    }


def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The live table (also the final state of a finished game)."""
    table = get_object_or_404(Table.objects.select_related("game"), pk=table_id)
    seat = selectors.viewer_seat(table, user=request.user, guest_key=request.session.session_key)
    if not selectors.can_watch(table, seat):
        raise Http404("private table")
    panels = [html for _receiver, html in table_page_panels.send(Table, request=request, table=table) if html]
    return render(
        request, "games/table.html", {"table": table, "config": table_config(table, seat), "panels": panels}
    )


@require_POST
def claim_win(request: HttpRequest, table_id: int) -> HttpResponse:
    """A duel player claims the win over an opponent who left (games.services.timers)."""
    table = get_object_or_404(Table, pk=table_id)
    seat = None
    if request.user.is_authenticated:
        seat = table.seats.filter(user=request.user).values_list("number", flat=True).first()
    if seat is None:
        return JsonResponse({"ok": False, "code": "not_seated"}, status=403)
    try:
        timers.claim_win(game_id=table.game.pk, seat=seat)
    except services.GameError as error:
        return JsonResponse({"ok": False, "code": error.code, "message": error.message}, status=409)
    if request.headers.get("accept", "").startswith("application/json"):
        return JsonResponse({"ok": True})
    return redirect("games:table", table_id=table.pk)
