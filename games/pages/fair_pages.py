"""Pages of fair play (docs/fair-play.md). Thin: check access, call games.fairplay.fairness
or games.coach.review_page, answer.

- ``/table/<id>/replay.json``: the published record of a finished game (404
  for a table the viewer may not see, 403 while the game is not over).
- ``/table/<id>/review/``: the post-game review as an HTML fragment (the
  replay page polls it until it is ready).
- ``/fair-play/key.json``: the public key that signs the replay files.
- ``/game/<id>/export`` and ``/game/<id>/export.json``: the game in the
  dominoes notation (games.fairplay.export, docs/notation.md), whole once it is over,
  as the public sees it before.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games.coach import review_page
from games.fairplay import export, fairness, signing
from games.models import Game, Table
from games.play import selectors


def _visible_game(request: HttpRequest, table_id: int) -> Game:
    """The game of a table the viewer may see (a player, or anyone for a public table)."""
    table = get_object_or_404(Table, pk=table_id)
    game = Game.objects.select_related("table").filter(table=table).first()
    seat = selectors.viewer_seat(table, user=request.user, guest_key=request.session.session_key)
    if game is None or not selectors.can_watch(table, seat):
        raise Http404(_("No such game."))
    return game


def replay_json(request: HttpRequest, table_id: int) -> HttpResponse:
    game = _visible_game(request, table_id)
    if not fairness.is_published(game):
        return JsonResponse(
            {"error": "not_finished", "message": _("The seed of a game is published only when the game is over.")},
            status=403,
        )
    response = JsonResponse(fairness.build_replay(game), json_dumps_params={"indent": 1})
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="{fairness.replay_filename(game.table)}"'
    return response


def review_fragment(request: HttpRequest, table_id: int) -> HttpResponse:
    game = _visible_game(request, table_id)
    if not fairness.is_published(game):
        raise Http404(_("No finished game here."))
    html = render_to_string("games/_review.html", review_page.panel_context(game), request=request)
    return HttpResponse(html)


def signing_key(request: HttpRequest) -> JsonResponse:
    """The public half of the key that signs every replay file (games.fairplay.signing)."""
    public_key = signing.public_key_hex()
    return JsonResponse(
        {
            "algorithm": "Ed25519",
            "public_key": public_key,
            "verify": f"{fairness.VERIFY_COMMAND} --key {public_key} <replay.json>",
        }
    )


def _exported_game(request: HttpRequest, table_id: int) -> Game:
    game = _visible_game(request, table_id)
    if not export.exportable(game):
        raise Http404(_("This game has not started yet."))
    return game


def export_text(request: HttpRequest, table_id: int) -> HttpResponse:
    """The game as a record of the dominoes notation (text)."""
    game = _exported_game(request, table_id)
    response = HttpResponse(export.game_text(game), content_type="text/plain; charset=utf-8")
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="dominoes-{table_id}.txt"'
    return response


def export_json(request: HttpRequest, table_id: int) -> JsonResponse:
    """The game's record as JSON: its tags, its rounds' actions and the text."""
    game = _exported_game(request, table_id)
    response = JsonResponse(export.game_json(game), json_dumps_params={"indent": 1})
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="dominoes-{table_id}.json"'
    return response
