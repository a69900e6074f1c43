"""The API's writes (docs/api.md): bot accounts, challenges, and the moves
of a program, each through the table core's services (games.play.services).
Refusals raise ``ApiError`` (an HTTP status and the websocket's error fields)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import services as account_services
from accounts.selectors import is_bot
from api.forms import ranked_mode_of
from api.models import Challenge
from community.selectors import has_blocked
from games.engine import EventKind, rules_for
from games.engine.notation import NotationError, read_token
from games.models import Game, Seat, Table
from games.play import selectors as game_selectors
from games.play import services as game_services
from games.play.services import SeatSpec
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Tournament


@dataclass
class ApiError(Exception):
    """A refused request: ``status`` is the HTTP status; ``code``, ``message``,
    ``reason`` (and ``extra``) are the fields of the websocket's ``error`` frame."""

    status: int
    code: str
    message: str
    reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, "reason": self.reason or self.code, **self.extra}


def game_refusal(error: game_services.GameError) -> ApiError:
    """The table core's refusal, with the fields the websocket sends (games/socket/table.py)."""
    if isinstance(error, game_services.StaleSeq):
        return ApiError(409, error.code, error.message, error.reason, {"seq": error.current})
    extra = {"detail": error.detail} if error.detail else {}
    if isinstance(error, game_services.InGame):
        return ApiError(409, error.code, error.message, error.reason, extra)
    status = 403 if isinstance(error, game_services.NotSeated) else 400
    return ApiError(status, error.code, error.message, error.reason, extra)


# -- bot accounts --------------------------------------------------------------------


def upgrade_to_bot(*, user: User) -> None:
    try:
        account_services.become_bot(user=user)
    except account_services.BotRefused as error:
        raise ApiError(400, "cannot_upgrade", str(error)) from None


# -- challenges ----------------------------------------------------------------------


def create_challenge(*, challenger: User, username: str, choices: dict[str, Any]) -> Challenge:
    """``choices``: a ``ChallengeForm``'s cleaned data."""
    dest = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if dest is None:
        raise ApiError(404, "not_found", _("No member is called %(name)s.") % {"name": username})
    if dest.pk == challenger.pk:
        raise ApiError(400, "bad_request", _("You cannot challenge yourself."))
    return Challenge.objects.create(
        challenger=challenger,
        dest=dest,
        preset=choices["preset"],
        players=choices["players"],
        teams=choices["teams"],
        target=choices["target"],
        rated=bool(choices["mode"]),
        level=choices["level"],
    )


def _open_challenge(challenge_id: int) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update().select_related("challenger", "dest").filter(pk=challenge_id).first()
    )
    if challenge is None:
        raise ApiError(404, "not_found", _("There is no such challenge."))
    if challenge.status != Challenge.Status.CREATED:
        raise ApiError(409, "not_open", _("This challenge was already answered."))
    return challenge


def accept_challenge(*, user: User, challenge_id: int) -> Table:
    """The challenged member accepts: the table opens (games.play.services.create_table),
    the challenger at seat 0, the computers of the challenge's level at the seats beyond two."""
    with transaction.atomic():
        challenge = _open_challenge(challenge_id)
        if challenge.dest_id != user.pk:
            raise ApiError(403, "not_allowed", _("Only the challenged member may accept."))
        if has_blocked(user.pk, challenge.challenger_id):
            # Never shown to them (api.selectors.challenges_of): as if it did not exist.
            raise ApiError(404, "not_found", _("There is no such challenge."))
        rules = rules_for(
            challenge.preset, players=challenge.players, teams=challenge.teams, target=challenge.target
        )
        seats = [SeatSpec(user=challenge.challenger), SeatSpec(user=challenge.dest)]
        seats += [SeatSpec(level=challenge.level) for _ in range(challenge.players - 2)]
        # A rated challenge is a ranked table of its mode: rated when it ends like
        # any ranked game (accounts.services.rate_finished_game: the bots' pool
        # with a bot, the people's otherwise, repeated games weighed 1/k).
        mode = ranked_mode_of(
            {"preset": challenge.preset, "players": challenge.players, "teams": challenge.teams,
             "target": challenge.target}
        )
        rated = challenge.rated and mode is not None
        try:
            table = game_services.create_table(
                kind=Table.Kind.RANKED if rated else Table.Kind.PRIVATE,
                mode=mode.key if rated and mode is not None else "",
                rules=rules,
                preset=challenge.preset,
                seats=seats,
                public=True,
                created_by=challenge.challenger,
                actor=user,
            )
        except game_services.GameError as error:
            raise game_refusal(error) from None
        challenge.status = Challenge.Status.ACCEPTED
        challenge.table = table
        challenge.save(update_fields=["status", "table"])
    return table


def answer_challenge(*, user: User, challenge_id: int, decline: bool) -> Challenge:
    """Decline (the challenged member) or cancel (the challenger) an open challenge."""
    with transaction.atomic():
        challenge = _open_challenge(challenge_id)
        if decline and challenge.dest_id != user.pk:
            raise ApiError(403, "not_allowed", _("Only the challenged member may decline."))
        if not decline and challenge.challenger_id != user.pk:
            raise ApiError(403, "not_allowed", _("Only the challenger may cancel."))
        challenge.status = Challenge.Status.DECLINED if decline else Challenge.Status.CANCELED
        challenge.save(update_fields=["status"])
    return challenge


def play_computer(*, user: User, choices: dict[str, Any]) -> Table:
    """A game against the computer (``level``) at once, the member at seat 0."""
    try:
        return game_services.create_computer_table(
            user=user,
            preset=choices["preset"],
            players=choices["players"],
            teams=choices["teams"],
            target=choices["target"],
            level=choices["level"],
        )
    except game_services.GameError as error:
        raise game_refusal(error) from None


# -- playing -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seated:
    game_id: int
    seat: int
    seq: int


def _seat_and_game(*, user: User, table_id: int) -> tuple[int, Game]:
    """The member's seat number at the table and its game, in one query
    (``ApiError`` if none: a move's every request asks)."""
    if not 0 < table_id < 2**63:  # no such id (SQLite refuses a larger integer)
        raise ApiError(404, "not_found", _("There is no such table."))
    seat = Seat.objects.select_related("table__game").filter(table_id=table_id, user=user).first()
    game = None if seat is None else getattr(seat.table, "game", None)
    if seat is None or game is None:
        if seat is None and Table.objects.filter(pk=table_id, game__isnull=False).exists():
            raise ApiError(403, "not_seated", _("You have no seat at this table."))
        raise ApiError(404, "not_found", _("There is no such table."))
    game.table = seat.table
    return seat.number, game


def seated(*, user: User, table_id: int) -> Seated:
    """The member's seat at the table's game (``ApiError`` if none)."""
    number, game = _seat_and_game(user=user, table_id=table_id)
    return Seated(game.pk, number, game.seq)


def play_action(*, user: User, table_id: int, text: str, seq: int | None) -> int:
    """Play the action written ``text`` in the notation (docs/notation.md) at
    the table; ``seq`` the last event the program saw (default: the game's
    last). Through ``play_move`` with ``expected_seq``: of two moves posted at
    one ``seq``, one wins and the other is refused (``stale``). Returns the new seq."""
    number, game = _seat_and_game(user=user, table_id=table_id)
    where = Seated(game.pk, number, game.seq)
    state = game_selectors.game_state(game)
    if state is None or game.finished:
        raise ApiError(400, "illegal", _("This game is not being played."), "not_live")
    try:
        event = read_token(text, where.seat, first=not state.line)
    except NotationError as error:
        raise ApiError(400, "bad_frame", str(error), "action") from None
    if event.kind not in (EventKind.PLAY, EventKind.DRAW, EventKind.PASS):
        raise ApiError(400, "bad_frame", _("Resign and draw offers have their own routes."), "action")
    expected = game.seq if seq is None else seq
    try:
        outcome = game_services.play_move(
            game_id=where.game_id, seat=where.seat, action=event.action(), expected_seq=expected
        )
    except game_services.GameError as error:
        raise game_refusal(error) from None
    return outcome.seq


def next_round(*, user: User, table_id: int, seq: int | None) -> int:
    where = seated(user=user, table_id=table_id)
    try:
        outcome = game_services.start_next_round(game_id=where.game_id, seat=where.seat, expected_seq=seq)
    except game_services.GameError as error:
        raise game_refusal(error) from None
    return outcome.seq


def resign(*, user: User, table_id: int) -> int:
    where = seated(user=user, table_id=table_id)
    try:
        outcome = game_services.resign(game_id=where.game_id, seat=where.seat)
    except game_services.GameError as error:
        raise game_refusal(error) from None
    return outcome.seq


def offer_draw(*, user: User, table_id: int) -> bool:
    """Offer (or agree to) a draw; True when the game ended drawn."""
    where = seated(user=user, table_id=table_id)
    try:
        outcome = game_services.offer_draw(game_id=where.game_id, seat=where.seat)
    except game_services.GameError as error:
        raise game_refusal(error) from None
    return isinstance(outcome, game_services.Outcome)


# -- tournaments ---------------------------------------------------------------------


def join_tournament(*, user: User, tournament_id: int, key: str) -> Tournament:
    """Join a tournament (tournaments.services.join): a bot account only one
    that admits bots; a private one with its link's ``key``."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not tournament_selectors.visible(tournament, key=key, user_id=user.pk):
        raise ApiError(404, "not_found", _("There is no such tournament."))
    if not tournament.admits_bots and is_bot(user.pk):
        raise ApiError(403, "bots_not_admitted", _("This tournament does not admit bots."))
    try:
        tournament_services.join(tournament=tournament, user=user)
    except tournament_services.TournamentError as error:
        raise ApiError(409, "not_open", str(error)) from None
    return tournament
