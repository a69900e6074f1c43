"""The routes under ``/api/`` (docs/api.md), with django-ninja: thin, each
parses, calls a service or a selector, and answers. Described by the OpenAPI
document at ``/api/openapi.json``."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer

from accounts.models import Profile
from accounts.selectors import bot_ids
from api import selectors, services, stream_schemas, streams, tokens
from api.forms import ChallengeForm, form_data
from api.models import AccessToken
from api.services import ApiError
from games.fairplay import export

API_VERSION = "1.0.0"

# A postable action in the notation (docs/notation.md): a tile on an end, a round's
# first tile, a draw, a pass. The service reads it (a token that does not match is
# answered 400 ``bad_frame`` with the notation's message).
ACTION_PATTERN = r"^(?:[0-6][0-6][LR]?|D|P)$"


class DominoesApi(NinjaAPI):
    """The document as ninja builds it, plus the schemas of the streams' lines
    (api.stream_schemas) and the pattern of a move's ``action``."""

    def get_openapi_schema(self, **kwargs: Any) -> Any:
        document = super().get_openapi_schema(**kwargs)
        document.add_schema_definitions(stream_schemas.components())
        for path, item in document["paths"].items():
            if path.endswith("/move/{action}"):
                for parameter in item["post"]["parameters"]:
                    if parameter["name"] == "action":
                        parameter["schema"]["pattern"] = ACTION_PATTERN
        return document


api = DominoesApi(
    title="Dominoes club API",
    version=API_VERSION,
    description="Programs at the table: bots, boards, challenges and game streams (docs/api.md). "
    "Moves are written in the dominoes notation (docs/notation.md).",
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs",
)


class RateLimited(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>``: a live token (api.tokens) holding one of ``scopes``
    (any scope when none is named), within its rate limit."""

    def __init__(self, *scopes: str) -> None:
        super().__init__()
        self.scopes = scopes

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken | None:
        found = tokens.authenticate(token)
        if found is None:
            return None
        wait = tokens.take_request(found)
        if wait:
            raise RateLimited(wait)
        if self.scopes and not set(self.scopes) & set(found.scope_list):
            raise ApiError(
                403, "missing_scope", _("This token lacks the scope %(scope)s.") % {"scope": " or ".join(self.scopes)}
            )
        request.user = found.user
        return found


ANY = TokenAuth()
BOT = TokenAuth("bot:play")
BOARD = TokenAuth("board:play")
CHALLENGE = TokenAuth("challenge:write", "bot:play")
TOURNAMENT = TokenAuth("tournament:write")


@api.exception_handler(ApiError)
def api_error(request: HttpRequest, error: ApiError) -> HttpResponse:
    return api.create_response(request, error.body(), status=error.status)


@api.exception_handler(RateLimited)
def rate_limited(request: HttpRequest, error: RateLimited) -> HttpResponse:
    body = {"type": "error", "code": "rate_limited", "message": _("Too many requests: try again later."),
            "reason": "rate_limited"}
    answer = api.create_response(request, body, status=429)
    answer["Retry-After"] = str(error.retry_after)
    return answer


@api.exception_handler(AuthenticationError)
def unauthorized(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    body = {"type": "error", "code": "unauthorized",
            "message": _("Send a valid token: Authorization: Bearer <token> (made on /account/tokens/)."),
            "reason": "unauthorized"}
    return api.create_response(request, body, status=401)


# -- schemas ---------------------------------------------------------------------------


class ErrorOut(Schema):
    type: str
    code: str
    message: str
    reason: str
    seq: int | None = None
    detail: str | None = None


class AccountOut(Schema):
    id: int
    username: str
    bot: bool
    url: str


class OkOut(Schema):
    ok: bool


class SeqOut(Schema):
    ok: bool
    seq: int


class DrawOut(Schema):
    ok: bool
    drawn: bool


ChallengeOut = stream_schemas.ChallengeOut


class GameRef(Schema):
    id: int
    url: str


class AcceptOut(Schema):
    ok: bool
    game: GameRef


class PoolRatingOut(Schema):
    mode: str
    rating: int
    provisional: bool
    games: int


class TournamentJoinOut(Schema):
    ok: bool
    tournament: int
    status: str
    url: str


class BotOut(Schema):
    username: str
    url: str
    ratings: list[PoolRatingOut]


ERRORS: dict[int, Any] = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 429: ErrorOut}

CHALLENGE_BODY = {
    "requestBody": {
        "required": False,
        "content": {
            media: {
                "schema": {
                    "type": "object",
                    "properties": {
                        "preset": {"type": "string", "enum": ["classic-draw", "classic-block", "arena", "quick", "duel-block"]},
                        "players": {"type": "integer", "enum": [2, 3, 4]},
                        "teams": {"type": "boolean"},
                        "target": {"type": "integer", "enum": [0, 50, 100]},
                        "rated": {"type": "boolean"},
                        "level": {"type": "string", "enum": ["easy", "medium", "hard"]},
                    },
                }
            }
            for media in ("application/json", "application/x-www-form-urlencoded")
        },
    }
}

NDJSON_NOTE = ("newline-delimited JSON (application/x-ndjson): every non-blank line is one object of the schema "
               "below; a blank keep-alive line after a few seconds of silence")
EVENT_STREAM = stream_schemas.ndjson_response("EventStreamLine", NDJSON_NOTE)
GAME_STREAM = stream_schemas.ndjson_response("GameStreamLine", NDJSON_NOTE)


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _choices(request: HttpRequest) -> dict[str, Any]:
    """A challenge's choices, from a form or a JSON body; ``ApiError`` with every wrong field."""
    if request.content_type == "application/json":
        try:
            payload = json.loads(request.body or b"{}")
        except ValueError:
            raise ApiError(400, "bad_request", _("The body is not JSON.")) from None
        if not isinstance(payload, dict):
            raise ApiError(400, "bad_request", _("The body must be a JSON object."))
        data = form_data(payload)
    else:
        data = request.POST.dict()
    form = ChallengeForm(data)
    if not form.is_valid():
        message = " ".join(str(error) for errors in form.errors.values() for error in errors)
        raise ApiError(400, "bad_request", message, "choices", {"detail": json.dumps(form.errors.get_json_data())})
    return form.cleaned_data


def _is_bot(user: User) -> bool:
    """Whether the member is a bot, from the profile the token's query loaded (api.tokens)."""
    try:
        return bool(user.profile.is_bot)
    except Profile.DoesNotExist:
        return False


def _player(request: HttpRequest, *, bot: bool) -> User:
    """The bot API is for bot accounts, the board API for people's."""
    user = _user(request)
    if _is_bot(user) != bot:
        if bot:
            raise ApiError(403, "not_a_bot", _("Only a bot account may use the bot API (upgrade it first)."))
        raise ApiError(403, "is_a_bot", _("A bot account plays through the bot API."))
    return user


# -- the account -----------------------------------------------------------------------


@api.get("/account", auth=ANY, response={200: AccountOut, **ERRORS}, tags=["account"])
def account(request: HttpRequest) -> dict[str, Any]:
    return selectors.account(_user(request))


@api.post("/bot/account/upgrade", auth=BOT, response={200: OkOut, **ERRORS}, tags=["bot"])
def upgrade(request: HttpRequest) -> dict[str, Any]:
    """Turn this account, which has never played, into a bot account: irreversible."""
    services.upgrade_to_bot(user=_user(request))
    return {"ok": True}


@api.get("/bot/online", auth=ANY, response={200: list[BotOut], **ERRORS}, tags=["bot"])
def bots_online(request: HttpRequest) -> list[dict[str, Any]]:
    """Bot accounts whose token was used in the last ten minutes, with their
    ratings in the bots' pool (every ranked mode; 1500 and provisional before a rated game)."""
    since = timezone.now() - timedelta(minutes=10)
    users = {t.user for t in AccessToken.objects.select_related("user").filter(last_used_at__gte=since, revoked_at=None)}
    bots = bot_ids(user.pk for user in users)
    return [
        selectors.account(user) | {"ratings": selectors.bot_ratings(user)}
        for user in sorted(users, key=lambda u: u.get_username())
        if user.pk in bots
    ]


# -- the event stream ------------------------------------------------------------------


@api.get("/stream/event", auth=ANY, openapi_extra=EVENT_STREAM, response={401: ErrorOut, 403: ErrorOut, 429: ErrorOut},
         tags=["stream"])
async def stream_event(request: HttpRequest) -> StreamingHttpResponse:
    """The games and challenges in progress, then ``challenge``, ``gameStart`` and ``gameFinish`` lines."""
    return await streams.event_stream(_user(request))


# -- challenges ------------------------------------------------------------------------


@api.post("/challenge/ai", auth=CHALLENGE, response={200: AcceptOut, **ERRORS}, openapi_extra=CHALLENGE_BODY,
          tags=["challenges"])
def challenge_ai(request: HttpRequest) -> dict[str, Any]:
    """Play the computer (``level``) at once. A member called "ai" is challenged by no one."""
    table = services.play_computer(user=_user(request), choices=_choices(request))
    return {"ok": True, "game": {"id": table.pk, "url": f"/table/{table.pk}/"}}


@api.post("/challenge/{username}", auth=CHALLENGE, response={200: ChallengeOut, **ERRORS},
          openapi_extra=CHALLENGE_BODY, tags=["challenges"])
def challenge(request: HttpRequest, username: str) -> dict[str, Any]:
    made = services.create_challenge(challenger=_user(request), username=username, choices=_choices(request))
    return selectors.challenge_object(made)


@api.post("/challenge/{int:challenge_id}/accept", auth=CHALLENGE, response={200: AcceptOut, **ERRORS},
          tags=["challenges"])
def accept(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    table = services.accept_challenge(user=_user(request), challenge_id=challenge_id)
    return {"ok": True, "game": {"id": table.pk, "url": f"/table/{table.pk}/"}}


@api.post("/challenge/{int:challenge_id}/decline", auth=CHALLENGE, response={200: OkOut, **ERRORS},
          tags=["challenges"])
def decline(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    services.answer_challenge(user=_user(request), challenge_id=challenge_id, decline=True)
    return {"ok": True}


@api.post("/challenge/{int:challenge_id}/cancel", auth=CHALLENGE, response={200: OkOut, **ERRORS},
          tags=["challenges"])
def cancel(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    services.answer_challenge(user=_user(request), challenge_id=challenge_id, decline=False)
    return {"ok": True}


# -- tournaments -----------------------------------------------------------------------


@api.post("/tournament/{int:tournament_id}/join", auth=TOURNAMENT, response={200: TournamentJoinOut, **ERRORS},
          tags=["tournaments"])
def tournament_join(request: HttpRequest, tournament_id: int, key: str = "") -> dict[str, Any]:
    """Join a tournament (or come back to it) before it ends: a bot account only one that admits bots
    (403 ``bots_not_admitted`` otherwise); ``key``: a private tournament's link key. Each pairing then
    comes as a ``gameStart`` line on the event stream."""
    tournament = services.join_tournament(user=_user(request), tournament_id=tournament_id, key=key)
    url = reverse("tournaments:detail", args=[tournament.pk])
    return {"ok": True, "tournament": tournament.pk, "status": tournament.status, "url": url}


# -- a game's record -------------------------------------------------------------------


class ExportOpeningOut(Schema):
    seat: int
    tile: list[int]


class ExportOut(Schema):
    id: int
    finished: bool
    tags: dict[str, str]
    opening: ExportOpeningOut
    rounds: list[list[str]]
    result: str
    notation: str


TEXT_RECORD = {"responses": {"200": {"description": "the game's record in the dominoes notation (docs/notation.md)",
                                     "content": {"text/plain": {"schema": {"type": "string"}}}}}}


def _exported(request: HttpRequest, game_id: int) -> Any:
    game = selectors.exported_game(_user(request), game_id)
    if game is None:
        raise ApiError(404, "not_found", _("No such game."))
    return game


@api.get("/game/{int:game_id}/export", auth=ANY, response={401: ErrorOut, 404: ErrorOut, 429: ErrorOut},
         openapi_extra=TEXT_RECORD, tags=["games"])
def game_export(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game (``game_id``: its table's id) in the dominoes notation, as ``/game/<id>/export``
    gives it: whole once it is over, as the public sees it before; a private table's to its players."""
    return HttpResponse(export.game_text(_exported(request, game_id)), content_type="text/plain; charset=utf-8")


@api.get("/game/{int:game_id}/export.json", auth=ANY, response={200: ExportOut, **ERRORS}, tags=["games"])
def game_export_json(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """The game's record as JSON (``/game/<id>/export.json``): its tags, opening, rounds' actions and text."""
    return export.game_json(_exported(request, game_id))


# -- playing: /api/bot/... for bot accounts, /api/board/... for a person's client -------


def _game_routes(prefix: str, auth: TokenAuth, *, bot: bool) -> None:
    tag = [prefix]

    @api.get(f"/{prefix}/game/stream/{{int:game_id}}", auth=auth, openapi_extra=GAME_STREAM,
             response={401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut}, tags=tag,
             operation_id=f"{prefix}_game_stream")
    async def game_stream(request: HttpRequest, game_id: int, seq: int | None = None) -> StreamingHttpResponse:
        """``gameFull`` (the reader's own view, ``legal`` in the notation), then a ``gameState``
        line after every event; with ``seq``, resumed after that event."""
        user = await _async_player(request, bot=bot)
        return await streams.game_stream(user, game_id, seq)

    @api.post(f"/{prefix}/game/{{int:game_id}}/move/{{action}}", auth=auth, response={200: SeqOut, **ERRORS},
              tags=tag, operation_id=f"{prefix}_move")
    def move(request: HttpRequest, game_id: int, action: str, seq: int | None = None) -> dict[str, Any]:
        """Play ``action`` in the notation (``35R``, ``35L``, ``35`` for a round's first tile, ``D``, ``P``);
        ``seq``: the last event seen (default the game's last)."""
        user = _player(request, bot=bot)
        return {"ok": True, "seq": services.play_action(user=user, table_id=game_id, text=action, seq=seq)}

    @api.post(f"/{prefix}/game/{{int:game_id}}/next-round", auth=auth, response={200: SeqOut, **ERRORS},
              tags=tag, operation_id=f"{prefix}_next_round")
    def next_round(request: HttpRequest, game_id: int, seq: int | None = None) -> dict[str, Any]:
        """Deal the next round once a round is over (else the server deals it after a pause)."""
        user = _player(request, bot=bot)
        return {"ok": True, "seq": services.next_round(user=user, table_id=game_id, seq=seq)}

    @api.post(f"/{prefix}/game/{{int:game_id}}/resign", auth=auth, response={200: SeqOut, **ERRORS},
              tags=tag, operation_id=f"{prefix}_resign")
    def resign(request: HttpRequest, game_id: int) -> dict[str, Any]:
        user = _player(request, bot=bot)
        return {"ok": True, "seq": services.resign(user=user, table_id=game_id)}

    @api.post(f"/{prefix}/game/{{int:game_id}}/draw", auth=auth, response={200: DrawOut, **ERRORS},
              tags=tag, operation_id=f"{prefix}_draw")
    def draw(request: HttpRequest, game_id: int) -> dict[str, Any]:
        """Offer a draw, or agree to the one offered: the game ends drawn once every person agrees."""
        user = _player(request, bot=bot)
        return {"ok": True, "drawn": services.offer_draw(user=user, table_id=game_id)}


async def _async_player(request: HttpRequest, *, bot: bool) -> User:
    from asgiref.sync import sync_to_async

    result: User = await sync_to_async(_player)(request, bot=bot)
    return result


_game_routes("bot", BOT, bot=True)
_game_routes("board", BOARD, bot=False)
