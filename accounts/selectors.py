"""Reads of the accounts app: ratings, leaderboards, friends."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from accounts import ratings
from accounts.models import Friendship, Rating, RatingFigures
from games.modes import RANKED_MODES, RankedMode


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


def ratings_of(user: AbstractBaseUser) -> list[ModeRating]:
    """The member's rating in every ranked mode, in mode order."""
    rows = {row.mode: row for row in Rating.objects.filter(user=user)}
    result = []
    for key, mode in RANKED_MODES.items():
        row = rows.get(key)
        if row is None:
            result.append(ModeRating(mode, ratings.MU, ratings.SIGMA, 0, 0, 0, 0))
        else:
            result.append(ModeRating(mode, row.mu, row.sigma, row.games, row.wins, row.draws, row.losses))
    return result


def display_rating_of(user: AbstractBaseUser, mode: str) -> float:
    row = Rating.objects.filter(user=user, mode=mode).only("mu").first()
    return float(ratings.display_rating(row.mu if row else ratings.MU))


def leaderboard(mode: str, *, limit: int = 100) -> QuerySet[Rating]:
    """Established (non-provisional) players of ``mode``, best rating first
    (the more certain first among equals)."""
    return (
        Rating.objects.filter(mode=mode, sigma__lte=ratings.PROVISIONAL_SIGMA, games__gt=0)
        .select_related("user")
        .order_by("-mu", "sigma", "user__username")[:limit]
    )


def friends_of(user: AbstractBaseUser) -> list[AbstractBaseUser]:
    """Accepted friends, by username."""
    pairs = Friendship.objects.filter(Q(from_user=user) | Q(to_user=user), accepted=True).values_list(
        "from_user_id", "to_user_id"
    )
    ids = {a if b == user.pk else b for a, b in pairs}
    return list(get_user_model().objects.filter(pk__in=ids).order_by("username"))


def incoming_requests(user: AbstractBaseUser) -> QuerySet[Friendship]:
    return Friendship.objects.filter(to_user=user, accepted=False).select_related("from_user")


def outgoing_requests(user: AbstractBaseUser) -> QuerySet[Friendship]:
    return Friendship.objects.filter(from_user=user, accepted=False).select_related("to_user")


def friendship_between(user: AbstractBaseUser, other: AbstractBaseUser) -> Friendship | None:
    return Friendship.objects.filter(
        Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user)
    ).first()


def are_friends(user: AbstractBaseUser, other: AbstractBaseUser) -> bool:
    friendship = friendship_between(user, other)
    return bool(friendship and friendship.accepted)


@dataclass(frozen=True)
class GameLine:
    """One finished game on a profile, seen by one of its players."""

    table_id: int
    finished_at: object
    label: str
    opponents: list[dict[str, str]]
    outcome: str  # "win", "draw" or "loss"
    delta: int | None  # rating change, ranked games only


def recent_games(user: AbstractBaseUser, *, limit: int = 15) -> list[GameLine]:
    """The member's last finished games, newest first, with the rating change
    of ranked ones."""
    from accounts.models import RatingChange
    from accounts.names import seat_label
    from games.models import Seat, Table

    seats = list(
        Seat.objects.filter(user=user, table__status=Table.Status.FINISHED, table__game__isnull=False)
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
        outcome = "draw" if game.winner is None else ("win" if game.winner == side else "loss")
        mode = RANKED_MODES.get(table.mode)
        change = changes.get(table.pk)
        lines.append(
            GameLine(
                table_id=table.pk,
                finished_at=game.finished_at,
                label=str(mode.label) if mode else str(table.get_kind_display()),
                opponents=[
                    {
                        "username": other.user.get_username() if other.user_id else "",
                        "label": seat_label(other),
                    }
                    for other in sorted(others.get(table.pk, []), key=lambda s: s.number)
                ],
                outcome=outcome,
                delta=change.delta if change else None,
            )
        )
    return lines


@dataclass(frozen=True)
class LiveTable:
    table_id: int
    kind: str
    label: str
    players: list[str]
    spectators: int
    started_at: object


def live_tables(*, limit: int = 50) -> list[LiveTable]:
    """Public tables being played, ranked first, newest first: anyone may
    watch them (spectators see only public information)."""
    from accounts.names import seat_label
    from accounts.periodic import live_presence
    from games.models import Seat, Table

    # A table nobody plays any more (a guest closed the page against the
    # computer: no clock ends it) is not live: no move for a while and no
    # socket of a seated player.
    idle = timedelta(seconds=getattr(settings, "LIVE_TABLE_IDLE_SECONDS", 600))
    seated = live_presence().filter(seat__isnull=False).values("table_id")
    tables = list(
        Table.objects.filter(status=Table.Status.PLAYING, public=True)
        .filter(Q(game__updated_at__gte=timezone.now() - idle) | Q(pk__in=seated))
        .select_related("game")
        .order_by("-created_at")[: limit * 2]
    )
    tables.sort(key=lambda t: (t.kind != Table.Kind.RANKED, -t.pk))
    tables = tables[:limit]
    ids = [table.pk for table in tables]
    seats: dict[int, list[Any]] = {}
    for seat in Seat.objects.filter(table_id__in=ids).select_related("user").order_by("number"):
        seats.setdefault(seat.table_id, []).append(seat)
    watchers = dict(
        live_presence()
        .filter(table_id__in=ids, seat__isnull=True)
        .values("table_id")
        .annotate(n=Count("pk"))
        .values_list("table_id", "n")
    )
    result = []
    for table in tables:
        mode = RANKED_MODES.get(table.mode)
        result.append(
            LiveTable(
                table_id=table.pk,
                kind=table.kind,
                label=str(mode.label) if mode else str(table.get_kind_display()),
                players=[seat_label(seat) for seat in seats.get(table.pk, [])],
                spectators=watchers.get(table.pk, 0),
                started_at=getattr(getattr(table, "game", None), "started_at", None),
            )
        )
    return result


def pending_invitations(user: AbstractBaseUser) -> QuerySet[Any]:
    """Invitations to private tables that still wait for players."""
    from accounts.models import Invitation
    from games.models import Table

    return (
        Invitation.objects.filter(to_user=user, table__status=Table.Status.WAITING)
        .select_related("from_user", "table")
        .order_by("-created_at")
    )
