"""Reads of the accounts app: ratings, leaderboards, friends, a member's
games, preferences, the member's data file."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from accounts import conduct, ratings
from accounts.charts import stacked_bars, time_chart
from accounts.hooks import export_parts, unwanted_contacts
from accounts.models import Abandonment, Friendship, Pool, Profile, Rating, RatingChange, RatingFigures
from games.engine import Event, EventKind
from games.models import Game, GameReview, Move, Seat, Table
from games.play.modes import RANKED_MODES, RankedMode
from games.play.selectors import seat_names
from games.play.variants import variant_name

CLOSED_ACCOUNT_FILE_NAME = "Closed account {number}"
"""A closed account's name in a published file (tournaments/results.py):
untranslated, so the file is the same whoever downloads it, and numbered in
the file's order, so two closed accounts stay two players. It has a space,
which no username may have: it can never be a member's name."""


def shown_name(user: AbstractBaseUser) -> str:
    """The name shown for a member beside what they did (a chat line, a
    tournament's standings): their username, or "Closed account" (in the
    active language) once the account is closed, by the member
    (``accounts.services.close_account``) or by a moderator: an inactive
    member is never named. (A game's seats keep their own rule:
    ``games.play.selectors.seat_name``, the stored name withdrawn.)"""
    if user.is_active:
        return user.get_username()
    return pgettext("seat", "Closed account")


def file_names(users: Iterable[AbstractBaseUser]) -> dict[int, str]:
    """The names of ``users`` (by id) in a published file: the username, or
    ``CLOSED_ACCOUNT_FILE_NAME`` numbered in the order given for each closed
    account; resolved when the file is built (docs/members.md, "Closing the
    account")."""
    names: dict[int, str] = {}
    closed = 0
    for user in users:
        if user.pk in names:
            continue
        if user.is_active:
            names[user.pk] = user.get_username()
        else:
            closed += 1
            names[user.pk] = CLOSED_ACCOUNT_FILE_NAME.format(number=closed)
    return names


def closed_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Those of ``user_ids`` whose account is closed (inactive)."""
    ids = {user_id for user_id in user_ids if user_id is not None}
    if not ids:
        return set()
    return set(get_user_model().objects.filter(pk__in=ids, is_active=False).values_list("pk", flat=True))


@dataclass(frozen=True)
class ModeRating(RatingFigures):
    """A member's standing in one mode, for display (a newcomer has no row yet)."""

    mode: RankedMode
    mu: float
    sigma: float
    games: int
    wins: int
    draws: int
    losses: int


def ratings_of(user: User, *, pool: str = Pool.PEOPLE) -> list[ModeRating]:
    """The member's rating in every ranked mode of ``pool``, in mode order."""
    rows = {row.mode: row for row in Rating.objects.filter(user=user, pool=pool)}
    result = []
    for key, mode in RANKED_MODES.items():
        row = rows.get(key)
        if row is None:
            result.append(ModeRating(mode, ratings.MU, ratings.SIGMA, 0, 0, 0, 0))
        else:
            result.append(ModeRating(mode, row.mu, row.sigma, row.games, row.wins, row.draws, row.losses))
    return result


def is_bot(user_id: int | None) -> bool:
    """Whether the member is a bot account (docs/api.md)."""
    return user_id is not None and Profile.objects.filter(user_id=user_id, is_bot=True).exists()


def own_pool(user: User) -> str:
    """The pool a member's ratings are shown from first: a bot's are in the bots' pool."""
    return Pool.BOTS if is_bot(user.pk) else Pool.PEOPLE


def has_ratings_in(user: User, pool: str) -> bool:
    """Whether the member has played a rated game in ``pool``."""
    return Rating.objects.filter(user=user, pool=pool, games__gt=0).exists()


def pool_of(user_ids: Iterable[int | None]) -> str:
    """The pool a rated game of these members rates in: the bots' when one of
    them is a bot account, else the people's (docs/members.md)."""
    return Pool.BOTS if bot_ids(user_id for user_id in user_ids if user_id is not None) else Pool.PEOPLE


def bot_ids(user_ids: Iterable[int]) -> set[int]:
    """Which of these members are bot accounts (one query)."""
    ids = {user_id for user_id in user_ids if user_id is not None}
    if not ids:
        return set()
    return set(Profile.objects.filter(user_id__in=ids, is_bot=True).values_list("user_id", flat=True))


# The newest rating changes a profile's chart of one mode draws.
HISTORY_POINTS = 200


@dataclass(frozen=True)
class RatingHistory:
    """A member's rating in one ranked mode over time: the shown rating after
    each rated game (oldest first), the one before the first, and the chart's JSON."""

    mode: RankedMode
    points: list[tuple[datetime, int]]
    start: int
    chart: dict[str, Any]

    @property
    def last(self) -> int:
        return self.points[-1][1]


def rating_histories(user: User, *, limit: int = HISTORY_POINTS, pool: str = Pool.PEOPLE) -> list[RatingHistory]:
    """Each ranked mode the member has played in ``pool``, in mode order, with
    its rating after each of the last ``limit`` rated games (RatingChange rows)."""
    result = []
    for key, mode in RANKED_MODES.items():
        changes = list(
            RatingChange.objects.filter(user=user, rated_game__mode=key, rated_game__pool=pool)
            .select_related("rated_game")
            .order_by("-rated_game__rated_at", "-pk")[:limit]
        )
        if not changes:
            continue
        changes.reverse()
        points = [(change.rated_game.rated_at, ratings.display_rating(change.mu_after)) for change in changes]
        chart = time_chart(
            [moment for moment, _ in points],
            [(str(mode.label), [value for _, value in points], "line")],
            y_label=str(_("Rating")),
        )
        result.append(RatingHistory(mode, points, ratings.display_rating(changes[0].mu_before), chart))
    return result


def profile_of(user: User) -> Profile:
    """The member's profile (every member has one from sign-up; a blank one,
    not saved, for an account made before profiles existed)."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)


@dataclass(frozen=True)
class QueueBan:
    """A member kept out of the queues for leaving games (accounts.conduct):
    until when, and how many games they left within the window."""

    until: datetime
    abandoned_recently: int


def queue_ban(user_id: int, *, now: datetime | None = None) -> QueueBan | None:
    """The ban that keeps the member out of the queues now, or None."""
    now = now or timezone.now()
    # Only the abandonments that can still bring a ban running now matter.
    since = now - conduct.WINDOW - conduct.BANS[-1]
    times = list(Abandonment.objects.filter(user_id=user_id, at__gt=since).values_list("at", flat=True))
    until = conduct.banned_until(times)
    if until is None or until <= now:
        return None
    return QueueBan(until=until, abandoned_recently=sum(1 for at in times if now - at < conduct.WINDOW))


@dataclass(frozen=True)
class Completion:
    """How many of the member's finished games with other people they played
    to the end (not left), of how many they started."""

    started: int
    finished: int

    @property
    def percent(self) -> int:
        return round(100 * self.finished / self.started) if self.started else 100


def completion(user: User) -> Completion:
    """The member's games with other people that ended (a game that ended
    before any tile beyond the opening is not counted), and those they did
    not leave (accounts.models.Abandonment)."""
    games = (
        Game.objects.filter(table__seats__user=user, finished_at__isnull=False)
        .exclude(table__kind=Table.Kind.COMPUTER)
        .exclude(result__aborted=True)
        .distinct()
    )
    started = games.count()
    left = Abandonment.objects.filter(user=user, game__in=games).values("game").distinct().count()
    return Completion(started=started, finished=started - left)


def display_rating_of(user: User, mode: str) -> float:
    row = Rating.objects.filter(user=user, mode=mode, pool=Pool.PEOPLE).only("mu").first()
    return float(ratings.display_rating(row.mu if row else ratings.MU))


def leaderboard(mode: str, *, limit: int = 100) -> QuerySet[Rating]:
    """Established (non-provisional) players of ``mode``, best rating first
    (the more certain first among equals), in the people's pool."""
    return (
        Rating.objects.filter(mode=mode, pool=Pool.PEOPLE, sigma__lte=ratings.PROVISIONAL_SIGMA, games__gt=0, user__is_active=True)
        .select_related("user")
        .order_by("-mu", "sigma", "user__username")[:limit]
    )


def friends_of(user: User) -> list[User]:
    """Accepted friends, by username."""
    pairs = Friendship.objects.filter(Q(from_user=user) | Q(to_user=user), accepted=True).values_list(
        "from_user_id", "to_user_id"
    )
    ids = {a if b == user.pk else b for a, b in pairs}
    return list(get_user_model().objects.filter(pk__in=ids).order_by("username"))


def unwanted_by(user_id: int) -> set[int]:
    """The members whose friend requests never reach ``user_id`` (those they
    blocked: ``accounts.hooks.unwanted_contacts``); the senders are not told."""
    ids: set[int] = set()
    for _receiver, answer in unwanted_contacts.send(None, member_id=user_id):
        ids.update(int(pk) for pk in answer or ())
    return ids


def incoming_requests(user: User) -> QuerySet[Friendship]:
    """The friend requests made to ``user``, but those of members they blocked."""
    return (
        Friendship.objects.filter(to_user=user, accepted=False)
        .exclude(from_user_id__in=unwanted_by(user.pk))
        .select_related("from_user")
    )


def outgoing_requests(user: User) -> QuerySet[Friendship]:
    return Friendship.objects.filter(from_user=user, accepted=False).select_related("to_user")


def friendship_between(user: User, other: User) -> Friendship | None:
    """The friendship or request between the two, as ``user`` sees it: a
    request to them from a member they blocked is not shown (None)."""
    friendship = Friendship.objects.filter(
        Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user)
    ).first()
    if (
        friendship is not None
        and not friendship.accepted
        and friendship.to_user_id == user.pk
        and other.pk in unwanted_by(user.pk)
    ):
        return None
    return friendship


def are_friends(user: User, other: User) -> bool:
    friendship = friendship_between(user, other)
    return bool(friendship and friendship.accepted)


@dataclass(frozen=True)
class GameLine:
    """One finished game on a profile, seen by one of its players."""

    table_id: int
    finished_at: datetime | None
    label: str
    opponents: list[dict[str, Any]]  # username ("" for none), label, bot
    outcome: str  # "win", "draw", "loss" or "aborted" (games.outcome)
    delta: int | None  # rating change, ranked games only


def recent_games(user: User, *, viewer: User | AnonymousUser | None, limit: int = 15) -> list[GameLine]:
    """The member's last finished games that ``viewer`` may see, newest first,
    with the rating change of ranked ones. A table that is not public is
    listed only to those who sat at it (as its replay is: games.play.selectors.can_watch)."""
    visible = Q(table__public=True)
    if viewer is not None and viewer.is_authenticated:
        visible |= Q(table__seats__user=viewer)
    seats = list(
        Seat.objects.filter(user=user, table__status=Table.Status.FINISHED, table__game__isnull=False)
        .filter(visible)
        .distinct()
        .select_related("table", "table__game")
        .order_by("-table__game__finished_at", "-table_id")[:limit]
    )
    table_ids = [seat.table_id for seat in seats]
    others: dict[int, list[Seat]] = {}
    for other in Seat.objects.filter(table_id__in=table_ids).exclude(user=user).select_related("user"):
        others.setdefault(other.table_id, []).append(other)
    changes = {
        change.rated_game.game.table_id: change
        for change in RatingChange.objects.filter(
            user=user, rated_game__game__table_id__in=table_ids
        ).select_related("rated_game__game")
    }
    lines = []
    for seat in seats:
        table, game = seat.table, seat.table.game
        teams = bool((game.rules or {}).get("teams"))
        side = seat.number % 2 if teams else seat.number
        if game.aborted:
            outcome = "aborted"  # ended before any tile beyond the opening: counts for nothing
        else:
            outcome = "draw" if game.winner is None else ("win" if game.winner == side else "loss")
        mode = RANKED_MODES.get(table.mode)
        change = changes.get(table.pk)
        names = seat_names([seat, *others.get(table.pk, [])])
        lines.append(
            GameLine(
                table_id=table.pk,
                finished_at=game.finished_at,
                label=str(mode.label) if mode else str(table.get_kind_display()),
                opponents=[
                    {
                        # No link to a closed account (its seat has lost the name).
                        "username": other.user.get_username() if other.user is not None and other.name else "",
                        "label": names[other.number],
                        "bot": other.bot,
                    }
                    for other in sorted(others.get(table.pk, []), key=lambda s: s.number)
                ],
                outcome=outcome,
                delta=change.delta if change else None,
            )
        )
    return lines


@dataclass(frozen=True)
class VariantResults:
    """A member's results in one variant (a preset, its number of players, pairs or not)."""

    preset: str
    players: int
    teams: bool
    label: str
    wins: int
    losses: int
    draws: int

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws


def results_by_variant(user: User, *, viewer: User | AnonymousUser | None) -> list[VariantResults]:
    """The member's wins, losses and draws in each variant they played, over
    the finished games ``viewer`` may see (as ``recent_games``), most played
    first. An aborted game counts for nothing (games.outcome)."""
    visible = Q(table__public=True)
    if viewer is not None and viewer.is_authenticated:
        visible |= Q(table__seats__user=viewer)
    rows = (
        Seat.objects.filter(user=user, table__status=Table.Status.FINISHED, table__game__isnull=False)
        .filter(visible)
        .distinct()
        .values_list("table_id", "number", "table__game__preset", "table__game__rules", "table__game__winner",
                     "table__game__result")
    )
    counts: dict[tuple[str, int, bool], list[int]] = {}
    for _table_id, number, preset, rules, winner, result in rows:
        if (result or {}).get("aborted"):
            continue
        teams = bool((rules or {}).get("teams"))
        players = int((rules or {}).get("players") or 2)
        side = number % 2 if teams else number
        row = counts.setdefault((preset, players, teams), [0, 0, 0])
        row[2 if winner is None else (0 if winner == side else 1)] += 1
    lines = []
    for (preset, players, teams), (wins, losses, draws) in counts.items():
        if teams:
            label = _("%(variant)s, in pairs") % {"variant": variant_name(preset)}
        else:
            label = _("%(variant)s, %(players)s players") % {"variant": variant_name(preset), "players": players}
        lines.append(VariantResults(preset, players, teams, str(label), wins, losses, draws))
    return sorted(lines, key=lambda line: (-line.played, line.preset, line.players, line.teams))


def results_chart(lines: Sequence[VariantResults]) -> dict[str, Any] | None:
    """The results by variant as stacked bars (wins, draws, losses per
    variant: accounts.charts.stacked_bars); None without a game."""
    if not lines:
        return None
    return stacked_bars(
        [line.label for line in lines],
        [
            (str(_("Wins")), [line.wins for line in lines]),
            (str(_("Draws")), [line.draws for line in lines]),
            (str(_("Losses")), [line.losses for line in lines]),
        ],
        y_label=str(_("Games")),
        x_label=str(_("Variant")),
    )


def ratings_in_mode(user_ids: list[int], mode: str, *, pool: str | None = None) -> dict[int, tuple[int, bool]]:
    """Each member's shown rating in ``mode`` and whether it is provisional
    (a member without a game in the mode has the starting rating), in
    ``pool`` (by default the one a game of these members rates in: ``pool_of``)."""
    pool = pool or pool_of(user_ids)
    rows = {row.user_id: row for row in Rating.objects.filter(user_id__in=user_ids, mode=mode, pool=pool)}
    result = {}
    for user_id in user_ids:
        row = rows.get(user_id)
        mu, sigma = (row.mu, row.sigma) if row is not None else (ratings.MU, ratings.SIGMA)
        result[user_id] = (ratings.display_rating(mu), ratings.is_provisional(sigma))
    return result


def live_tables_of(user: User) -> list[Table]:
    """The tables waiting or playing where the member holds a seat."""
    return list(
        Table.objects.filter(seats__user=user, status__in=[Table.Status.WAITING, Table.Status.PLAYING])
        .select_related("game")
        .distinct()
        .order_by("pk")
    )


def table_preferences(user: User) -> dict[str, Any]:
    """The member's preferences the table page applies (its config's
    "preferences"; a guest's stay in their browser)."""
    profile = profile_of(user)
    return {
        "sounds": profile.sounds,
        "confirm": profile.confirm_moves,
        "muteReactions": profile.mute_reactions,
        "chatOff": profile.chat_off,
        "tileFaces": profile.tile_faces,
        "zen": profile.zen,
        "saveUrl": reverse("accounts:settings"),
    }


def hides_ratings(user: User | AnonymousUser, table: Table) -> bool:
    """Whether the viewer asked not to see ratings while ``table`` is played (zen mode)."""
    return bool(user.is_authenticated and table.live and profile_of(user).zen)


EXPORT_FORMAT = "dominoes-club-member-data/1"


def member_data(user: User) -> dict[str, Any]:
    """Everything the site keeps about the member, as one JSON-ready dict
    (``/account/export/``): this app's sections, then those of the apps
    above (``accounts.hooks.export_parts``). Public parts of the games only:
    the moves as anyone watching saw them (no tile drawn, no seed before the
    end: the replay file of a finished game has them)."""
    profile = profile_of(user)
    data: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now(),
        "account": {
            "username": user.get_username(),
            "first_name": user.first_name,
            "last_name": user.last_name,
            "email": user.email,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
            "email_addresses": [
                {"email": row.email, "verified": row.verified, "primary": row.primary}
                for row in EmailAddress.objects.filter(user=user).order_by("email")
            ],
            # What is set up, never its secrets.
            "two_factor": [
                {"type": row.type, "created_at": row.created_at, "last_used_at": row.last_used_at}
                for row in Authenticator.objects.filter(user=user).order_by("type")
            ],
        },
        "profile": {
            "created_at": profile.created_at,
            "games_abandoned": profile.abandoned,
            # Each game left, with when (the queue ban is worked out from them).
            "abandonments": [
                {"game": row.game_id, "seat": row.seat, "kind": row.kind, "at": row.at}
                for row in Abandonment.objects.filter(user=user).order_by("at")
            ],
            "preferences": {
                "language": profile.language,
                "sounds": profile.sounds,
                "confirm_moves": profile.confirm_moves,
                "mute_reactions": profile.mute_reactions,
                "chat_off": profile.chat_off,
                "tile_faces": profile.tile_faces,
                "hide_ratings_during_games": profile.zen,
                "notifications": profile.notifications,
            },
        },
        "ratings": [
            {
                "mode": row.mode,
                "pool": row.pool,
                "rating": row.display,
                "provisional": row.provisional,
                "mu": row.mu,
                "sigma": row.sigma,
                "games": row.games,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "updated_at": row.updated_at,
            }
            for row in Rating.objects.filter(user=user).order_by("pool", "mode")
        ],
        "rating_history": [
            {
                "table": change.rated_game.game.table_id,
                "mode": change.rated_game.mode,
                "pool": change.rated_game.pool,
                "rated_at": change.rated_game.rated_at,
                "seat": change.seat,
                "rank": change.rank,
                "outcome": change.outcome,
                "before": ratings.display_rating(change.mu_before),
                "after": ratings.display_rating(change.mu_after),
                "mu_before": change.mu_before,
                "sigma_before": change.sigma_before,
                "mu_after": change.mu_after,
                "sigma_after": change.sigma_after,
            }
            for change in RatingChange.objects.filter(user=user)
            .select_related("rated_game__game")
            .order_by("rated_game__rated_at", "pk")
        ],
        "friends": _friendships_data(user),
        "games": _games_data(user),
    }
    for receiver, answer in export_parts.send(None, member=user):
        if not isinstance(answer, dict):
            if answer:
                raise TypeError(f"{receiver!r} answered export_parts with {type(answer).__name__}, not a dict")
            continue
        for name, value in answer.items():
            if name in data:
                raise ValueError(f"two parts of the member's data are called {name!r} ({receiver!r})")
            data[name] = value
    return data


def _friendships_data(user: User) -> list[dict[str, Any]]:
    """Friendships and requests both ways; ``hidden``: a request made to the
    member by someone they blocked, kept but never shown to them (the
    sender's own file lists it as ``asked``, as they are never told)."""
    rows = Friendship.objects.filter(Q(from_user=user) | Q(to_user=user)).select_related("from_user", "to_user")
    unwanted = unwanted_by(user.pk)
    result = []
    for row in rows.order_by("created_at", "pk"):
        other = row.to_user if row.from_user_id == user.pk else row.from_user
        asked_you = not row.accepted and row.to_user_id == user.pk
        result.append(
            {
                "member": other.get_username() if other.is_active else "",
                "status": "friends" if row.accepted else ("asked_you" if asked_you else "asked"),
                "hidden": asked_you and other.pk in unwanted,
                "created_at": row.created_at,
                "accepted_at": row.accepted_at,
            }
        )
    return result


def _games_data(user: User) -> list[dict[str, Any]]:
    """The tables the member sat at, with their games' public facts and moves."""
    seats = list(Seat.objects.filter(user=user).select_related("table", "table__game").order_by("table_id"))
    table_ids = [seat.table_id for seat in seats]
    players: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table_id__in=table_ids).select_related("user").order_by("number"):
        players.setdefault(seat.table_id, []).append(seat)
    moves: dict[int, list[dict[str, Any]]] = {}
    for move in Move.objects.filter(game__table_id__in=table_ids).order_by("game_id", "seq").values(
        "game_id", "seq", "seat", "kind", "payload", "created_at"
    ):
        moves.setdefault(move["game_id"], []).append(_public_move(move))
    reviews = {
        review.game_id: review.data or {}
        for review in GameReview.objects.filter(game__table_id__in=table_ids, status=GameReview.Status.READY)
    }
    result = []
    for seat in seats:
        table = seat.table
        game = getattr(table, "game", None)
        names = seat_names(players.get(table.pk, []))
        item: dict[str, Any] = {
            "table": table.pk,
            "kind": table.kind,
            "mode": table.mode,
            "public": table.public,
            "status": table.status,
            "created_at": table.created_at,
            "finished_at": table.finished_at,
            "your_seat": seat.number,
            "players": [
                {"seat": other.number, "name": names[other.number], "kind": other.kind, "level": other.level or None}
                for other in players.get(table.pk, [])
            ],
        }
        if game is not None:
            item.update(
                preset=game.preset,
                rules=game.rules,
                commitment=game.commitment,
                started_at=game.started_at,
                result=game.result,
                winner=game.winner,
                moves=moves.get(game.pk, []),
            )
            if game.finished and table.status == Table.Status.FINISHED:
                item["replay"] = reverse("fair_play:replay_json", args=[table.pk])
            review = reviews.get(game.pk)
            if review is not None:
                item["review"] = {
                    "summary": (review.get("summary") or {}).get(str(seat.number)),
                    "moves": [entry for entry in review.get("moves", []) if entry.get("seat") == seat.number],
                }
        result.append(item)
    return result


def _public_move(move: Mapping[str, Any]) -> dict[str, Any]:
    """A stored move as every viewer of the table saw it (``Event.public``): no tile drawn."""
    event = Event.from_row(move["kind"], move["seat"], move["payload"]).public()
    public: dict[str, Any] = {"seq": move["seq"], "kind": str(event.kind), "seat": event.seat, "at": move["created_at"]}
    if event.kind is EventKind.PLAY:
        public["tile"] = None if event.tile is None else list(event.tile)
        public["end"] = None if event.end is None else str(event.end)
    if event.by:
        public["by"] = event.by
    return public
