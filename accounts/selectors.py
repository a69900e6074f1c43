"""Reads of the accounts app: ratings, leaderboards, friends, a member's games."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from accounts import ratings
from accounts.models import Friendship, Profile, Rating, RatingChange, RatingFigures
from games.models import Seat, Table
from games.play.modes import RANKED_MODES, RankedMode
from games.play.selectors import seat_names


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


def ratings_of(user: User) -> list[ModeRating]:
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


def is_bot(user_id: int | None) -> bool:
    """Whether the member is a bot account (docs/api.md)."""
    return user_id is not None and Profile.objects.filter(user_id=user_id, is_bot=True).exists()


def bot_ids(user_ids: Iterable[int]) -> set[int]:
    """Which of these members are bot accounts (one query)."""
    ids = {user_id for user_id in user_ids if user_id is not None}
    if not ids:
        return set()
    return set(Profile.objects.filter(user_id__in=ids, is_bot=True).values_list("user_id", flat=True))


def profile_of(user: User) -> Profile:
    """The member's profile (every member has one from sign-up; a blank one,
    not saved, for an account made before profiles existed)."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)


def display_rating_of(user: User, mode: str) -> float:
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


def friends_of(user: User) -> list[User]:
    """Accepted friends, by username."""
    pairs = Friendship.objects.filter(Q(from_user=user) | Q(to_user=user), accepted=True).values_list(
        "from_user_id", "to_user_id"
    )
    ids = {a if b == user.pk else b for a, b in pairs}
    return list(get_user_model().objects.filter(pk__in=ids).order_by("username"))


def incoming_requests(user: User) -> QuerySet[Friendship]:
    return Friendship.objects.filter(to_user=user, accepted=False).select_related("from_user")


def outgoing_requests(user: User) -> QuerySet[Friendship]:
    return Friendship.objects.filter(from_user=user, accepted=False).select_related("to_user")


def friendship_between(user: User, other: User) -> Friendship | None:
    return Friendship.objects.filter(
        Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user)
    ).first()


def are_friends(user: User, other: User) -> bool:
    friendship = friendship_between(user, other)
    return bool(friendship and friendship.accepted)


@dataclass(frozen=True)
class GameLine:
    """One finished game on a profile, seen by one of its players."""

    table_id: int
    finished_at: datetime | None
    label: str
    opponents: list[dict[str, str]]
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
                        "username": other.user.get_username() if other.user is not None else "",
                        "label": names[other.number],
                    }
                    for other in sorted(others.get(table.pk, []), key=lambda s: s.number)
                ],
                outcome=outcome,
                delta=change.delta if change else None,
            )
        )
    return lines


def ratings_in_mode(user_ids: list[int], mode: str) -> dict[int, tuple[int, bool]]:
    """Each member's shown rating in ``mode`` and whether it is provisional
    (a member without a game in the mode has the starting rating)."""
    rows = {row.user_id: row for row in Rating.objects.filter(user_id__in=user_ids, mode=mode)}
    result = {}
    for user_id in user_ids:
        row = rows.get(user_id)
        mu, sigma = (row.mu, row.sigma) if row is not None else (ratings.MU, ratings.SIGMA)
        result[user_id] = (ratings.display_rating(mu), ratings.is_provisional(sigma))
    return result
