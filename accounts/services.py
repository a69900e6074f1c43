"""Writes of the accounts app: profiles and preferences, friendships,
ratings, closing an account."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import conduct, ratings, selectors
from accounts.hooks import account_closing
from accounts.models import Abandonment, Friendship, Pool, Profile, RatedGame, Rating, RatingChange
from games.engine import Event
from games.live import broadcast
from games.models import Game, Seat, StandIn, Table
from games.play import selectors as game_selectors
from games.play.modes import RANKED_MODES
from games.play.services import abort_game, waiting
from games.play.services.tables import withdraw_member_names
from games.timers.stand_ins import close_stand_ins

logger = logging.getLogger(__name__)


class FriendshipError(ValueError):
    """A friend request that cannot be made or answered (message for the user)."""


class BotRefused(ValueError):
    """An account that cannot become a bot (message for the member); nothing changed."""


def become_bot(*, user: User) -> Profile:
    """Turn an account with no games into a bot account, for good (docs/api.md).
    A bot is played by a program through the API: it never enters the people's
    ranked queues, and its name is marked wherever it shows."""
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        if profile.is_bot:
            return profile
        if Seat.objects.filter(user=user).exists():
            raise BotRefused(_("Only an account that has never played a game can become a bot."))
        profile.is_bot = True
        profile.save(update_fields=["is_bot"])
        return profile


def ensure_profile(*, user: User) -> Profile:
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


PREFERENCES = (
    "language", "sounds", "confirm_moves", "mute_reactions", "chat_off", "tile_faces", "zen", "notifications",
)
"""The member's preferences: fields of ``Profile`` the settings page edits."""


def update_preferences(*, user: User, **values: Any) -> Profile:
    """Store some of the member's preferences (names of ``PREFERENCES``,
    values already checked by the settings form)."""
    unknown = set(values) - set(PREFERENCES)
    if unknown:
        raise ValueError(f"not a preference: {sorted(unknown)}")
    profile = ensure_profile(user=user)
    for name, value in values.items():
        setattr(profile, name, value)
    profile.save(update_fields=list(values))
    return profile


def save_language(*, user: User, language: str) -> None:
    """The language a member chose at the foot of a page becomes their preference."""
    if language in dict(settings.LANGUAGES):
        update_preferences(user=user, language=language)


def get_or_create_rating(*, user: User, mode: str, pool: str = Pool.PEOPLE) -> Rating:
    if mode not in RANKED_MODES:
        raise ValueError(f"unknown ranked mode {mode!r}")
    rating, _created = Rating.objects.get_or_create(user=user, mode=mode, pool=pool)
    return rating


def send_friend_request(*, from_user: User, to_username: str) -> Friendship:
    """Ask ``to_username`` to be friends. If they had already asked, the two
    become friends at once (unless they blocked the sender since). A request
    to a member who blocked the sender is taken as always but never reaches
    them (``selectors.incoming_requests``), and the sender is not told."""
    to_user = get_user_model().objects.filter(username__iexact=to_username.strip()).first()
    if to_user is None:
        raise FriendshipError(_("No member is called %(name)s.") % {"name": to_username})
    if to_user.pk == from_user.pk:
        raise FriendshipError(_("You cannot add yourself as a friend."))
    with transaction.atomic():
        existing = (
            Friendship.objects.select_for_update()
            .filter(Q(from_user=from_user, to_user=to_user) | Q(from_user=to_user, to_user=from_user))
            .first()
        )
        if existing is not None:
            if not existing.accepted and existing.to_user_id == from_user.pk:
                if from_user.pk in selectors.unwanted_by(to_user.pk):
                    # They asked, then blocked the sender: this never makes them
                    # friends, and the sender is told what they always are.
                    return existing
                return _accept(existing)
            return existing
        try:
            with transaction.atomic():
                return Friendship.objects.create(from_user=from_user, to_user=to_user)
        except IntegrityError:
            # The other side asked at the same moment: both rows cannot exist.
            return Friendship.objects.get(from_user=from_user, to_user=to_user)


def _accept(friendship: Friendship) -> Friendship:
    friendship.accepted = True
    friendship.accepted_at = timezone.now()
    friendship.save(update_fields=["accepted", "accepted_at"])
    return friendship


def accept_friend_request(*, user: User, friendship_id: int) -> Friendship:
    """Accept a request made to ``user``."""
    with transaction.atomic():
        friendship = Friendship.objects.select_for_update().filter(pk=friendship_id, to_user=user).first()
        if friendship is None:
            raise FriendshipError(_("This friend request no longer exists."))
        if friendship.accepted:
            return friendship
        return _accept(friendship)


def cancel_friend_request(*, user: User, other_id: int) -> bool:
    """Withdraw ``user``'s pending request to ``other_id`` (a friendship or
    the other's request stay). The other sees it gone as after any
    cancellation. Returns whether there was one."""
    deleted, _details = Friendship.objects.filter(from_user=user, to_user_id=other_id, accepted=False).delete()
    return deleted > 0


def remove_friend(*, user: User, other_id: int) -> bool:
    """End a friendship, decline a request, or cancel one's own request.
    Returns whether something was removed."""
    deleted, _details = Friendship.objects.filter(
        Q(from_user=user, to_user_id=other_id) | Q(from_user_id=other_id, to_user=user)
    ).delete()
    return deleted > 0


def rate_finished_game(*, game_id: int) -> RatedGame | None:
    """Rate a finished ranked game, once. Returns the record, or None when the
    game is not to be rated (not ranked, not finished, a seat without a
    member) or was already rated.

    3-4 players are rated by final ranking, pairs by team; a player who
    resigned or abandoned ranks last (accounts.ratings.ranks_from_scores).
    An aborted game (``Game.aborted``: resigned or agreed drawn before any
    tile beyond the opening) is not rated. Each member's change is weighed
    by how often they met the same opponents in the last day
    (``repeat_weight``: the k-th game of a pair within 24 hours counts 1/k).
    A game with a bot account at a seat rates in the bots' pool (``Pool.BOTS``:
    the bot's and its opponents' ratings there), never in the people's.
    """
    with transaction.atomic():
        game = Game.objects.select_related("table").filter(pk=game_id).first()
        if game is None or game.result is None or game.aborted:
            return None
        table = game.table
        mode = RANKED_MODES.get(table.mode)
        if table.kind != Table.Kind.RANKED or table.status != Table.Status.FINISHED or mode is None:
            return None
        seats = list(table.seats.order_by("number"))
        user_ids = [seat.user_id for seat in seats]
        if len(seats) < 2 or None in user_ids:
            return None
        members_of = {seat.number: int(seat.user_id or 0) for seat in seats}
        pool = selectors.pool_of(members_of.values())
        try:
            with transaction.atomic():
                record = RatedGame.objects.create(game=game, mode=mode.key, pool=pool)
        except IntegrityError:
            return None  # rated already (the end announced twice)
        for user_id in members_of.values():
            Rating.objects.get_or_create(user_id=user_id, mode=mode.key, pool=pool)
        rows = {
            row.user_id: row
            for row in Rating.objects.select_for_update().filter(
                mode=mode.key, pool=pool, user_id__in=members_of.values()
            )
        }
        teams = bool(game.rules.get("teams"))
        sides = 2 if teams else len(seats)
        side_of = {seat.number: (seat.number % 2 if teams else seat.number) for seat in seats}
        members: list[list[int]] = [[] for _ in range(sides)]
        for seat in seats:
            members[side_of[seat.number]].append(seat.number)
        result = game.result
        resigned = result.get("resigned")
        last = [side_of[resigned]] if resigned is not None else []
        if not teams:
            # A player who left and never came back (a computer finished for
            # them) ranks last too; in pairs their partner's result stands.
            left = StandIn.objects.filter(table=table).values_list("seat", flat=True)
            last += [side_of[seat] for seat in left if side_of[seat] not in last]
        winner = result.get("winner")
        ranks = ratings.ranks_from_scores(result["scores"], winner=winner, last=last)
        by_seat = {number: rows[user_id] for number, user_id in members_of.items()}
        new = ratings.rate_match([[by_seat[n].skill for n in side] for side in members], ranks)
        drawn = winner is None and not last
        weights = {
            user_id: ratings.repeat_weight(
                1 + repeated_games(user_id=user_id, others=set(members_of.values()) - {user_id}, record=record)
            )
            for user_id in members_of.values()
        }
        for side, numbers in enumerate(members):
            for full, number in zip(new[side], numbers, strict=True):
                row = by_seat[number]
                weight = weights[row.user_id]
                skill = ratings.weighed(row.skill, full, weight)
                outcome = _outcome(drawn=drawn, won=side == winner and side not in last)
                RatingChange.objects.create(
                    rated_game=record,
                    user_id=row.user_id,
                    seat=number,
                    rank=ranks[side],
                    outcome=outcome,
                    mu_before=row.mu,
                    sigma_before=row.sigma,
                    mu_after=skill.mu,
                    sigma_after=skill.sigma,
                    weight=weight,
                )
                row.mu, row.sigma = skill.mu, skill.sigma
                row.games += 1
                counter = _COUNTERS[outcome]
                setattr(row, counter, getattr(row, counter) + 1)
                row.save()
        return record


def repeated_games(*, user_id: int, others: set[int], record: RatedGame) -> int:
    """How many ranked games ``user_id`` played with any one of ``others``
    (the most with a single one of them) in the ``REPEAT_WINDOW`` before
    ``record``, this game left out."""
    since = record.rated_at - ratings.REPEAT_WINDOW
    most = 0
    for other in others:
        count = (
            RatedGame.objects.filter(rated_at__gte=since, rated_at__lte=record.rated_at)
            .exclude(pk=record.pk)
            .filter(game__table__seats__user_id=user_id)
            .filter(game__table__seats__user_id=other)
            .distinct()
            .count()
        )
        most = max(most, count)
    return most


_COUNTERS = {"win": "wins", "draw": "draws", "loss": "losses"}


def _outcome(*, drawn: bool, won: bool) -> str:
    if drawn:
        return RatingChange.Outcome.DRAW
    return RatingChange.Outcome.WIN if won else RatingChange.Outcome.LOSS


def rate_missed_games(*, limit: int = 50) -> int:
    """Rate finished ranked games whose end signal was lost (a process that
    stopped right after the commit). Returns how many were rated."""
    missed = (
        Game.objects.filter(
            table__kind=Table.Kind.RANKED,
            table__status=Table.Status.FINISHED,
            rating_record__isnull=True,
            result__isnull=False,
        )
        .exclude(result__aborted=True)  # never rated: not missed
        .values_list("pk", "table_id")[:limit]
    )
    rated = 0
    for game_id, table_id in list(missed):
        if rate_finished_game(game_id=game_id) is not None:
            rated += 1
        count_abandonments_at_end(table_id=table_id)
    return rated


def record_abandonment(
    *, user_id: int, game_id: int, seat: int, kind: str = Abandonment.Kind.LEFT, at: datetime | None = None
) -> bool:
    """Count a game left by a member against them (one per game and seat:
    counted again, it is not counted twice); returns whether it was new.
    Their queue ban follows from these (accounts.conduct, selectors.queue_ban)."""
    try:
        with transaction.atomic():
            _row, created = Abandonment.objects.get_or_create(
                game_id=game_id,
                seat=seat,
                defaults={"user_id": user_id, "kind": kind, "at": at or timezone.now()},
            )
    except IntegrityError:  # counted meanwhile by another process
        return False
    if created:
        profile, _created = Profile.objects.get_or_create(user_id=user_id)
        Profile.objects.filter(pk=profile.pk).update(abandoned=F("abandoned") + 1)
    return created


def count_stand_ins_as_abandoned(*, table_id: int) -> int:
    """At the end of a game, count an abandoned game against each member a
    computer was still standing in for (the table forgets its stand-ins)."""
    game_id = Game.objects.filter(table_id=table_id).values_list("pk", flat=True).first()
    seats = close_stand_ins(table_id=table_id)
    if game_id is None:
        return 0
    return sum(
        record_abandonment(user_id=user_id, game_id=game_id, seat=seat, kind=Abandonment.Kind.STAND_IN)
        for seat, user_id in seats
    )


def count_timeouts_as_abandoned(*, table_id: int) -> int:
    """At the end of a game, count an abandoned game against each member whose
    clock ran out ``conduct.TIMEOUTS_IN_A_ROW`` turns in a row (the server
    played them). A game against the computer has no clock: never counted."""
    game = Game.objects.filter(table_id=table_id).exclude(table__kind=Table.Kind.COMPUTER).first()
    if game is None:
        return 0
    moves = [
        (seat, Event.from_row(kind, seat, payload).by)
        for kind, seat, payload in game.moves.values_list("kind", "seat", "payload")
    ]
    counted = 0
    for seat, user_id in Seat.objects.filter(table_id=table_id, user__isnull=False).values_list("number", "user_id"):
        if conduct.longest_server_streak(moves, seat) >= conduct.TIMEOUTS_IN_A_ROW:
            counted += record_abandonment(
                user_id=user_id, game_id=game.pk, seat=seat, kind=Abandonment.Kind.TIMEOUTS
            )
    return counted


def count_abandonments_at_end(*, table_id: int) -> int:
    """The abandoned games a finished game shows: the stand-ins still playing,
    then the clocks run out turn after turn (one per seat at most)."""
    return count_stand_ins_as_abandoned(table_id=table_id) + count_timeouts_as_abandoned(table_id=table_id)


def rating_changes(record: RatedGame) -> list[dict[str, Any]]:
    """The rating changes of a rated game, by seat, as the table shows them
    (``ratings`` notice frame, ``/table/<id>/ratings.json``)."""
    return [
        {
            "seat": change.seat,
            "user": change.user.get_username() if change.user.is_active else "",
            "before": ratings.display_rating(change.mu_before),
            "after": ratings.display_rating(change.mu_after),
            "delta": change.delta,
            "provisional": ratings.is_provisional(change.sigma_after),
            "outcome": change.outcome,
            "weight": change.weight,
        }
        for change in record.changes.select_related("user").order_by("seat")
    ]


def announce_rating_changes(*, record: RatedGame) -> None:
    """Tell the table's sockets the new ratings (public: no tile), as a
    ``{"type": "ratings", "mode": ..., "changes": [...]}`` notice frame."""
    game = record.game
    table = game.table
    changes = rating_changes(record)
    frame = {"type": "ratings", "mode": record.mode, "pool": record.pool, "changes": changes}
    broadcast.broadcast_notice(
        table_id=table.pk,
        players=len(changes),
        frame=frame,
        table=game_selectors.table_facts(table, game),
        after=game.seq,
    )


class ClosingError(ValueError):
    """The account cannot be closed (yet): ``reasons``, for the member."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__("; ".join(reasons))
        self.reasons = reasons


def close_account(*, user: User, password: str) -> None:
    """Close the member's account, once their password is confirmed.

    Refused (``ClosingError``, nothing changed) while they sit at a live
    table of people (ranked, private or room, waiting or playing: they must
    finish the game or leave first) or while an app above answers
    ``accounts.hooks.account_closing`` with a reason. Their games against
    the computer still in play are aborted; the apps above settle what they
    keep (the lobby: queues, invitations, room tables).

    Then: the username stays, so nobody can register it again, but it is
    never shown again (the seats lose their stored name and show "Closed
    account"; the profile answers 404; the leaderboard leaves it out). The
    personal data is erased: e-mail addresses, first and last names, the
    password (unusable: the account cannot log in), the two-factor
    authenticators, the friendships, the preferences and every session. The
    games, moves and ratings stay, under the anonymous name, because the
    other players' games and ratings stand on them. The caller logs out."""
    if not password or not user.check_password(password):
        raise ClosingError([_("The password is not right.")])
    with transaction.atomic():
        member = get_user_model().objects.select_for_update().get(pk=user.pk)
        if not member.is_active:
            raise ClosingError([_("This account is already closed.")])
        reasons = _closing_hook(member, by_moderator=False)
        for table in selectors.live_tables_of(member):
            if table.kind == Table.Kind.COMPUTER:
                continue
            reasons.append(
                _("You are seated at table %(id)s (%(kind)s): finish the game or leave the table first.")
                % {"id": table.pk, "kind": table.get_kind_display()}
            )
        if reasons:
            raise ClosingError(reasons)  # rolls back what the receivers did
        for table in selectors.live_tables_of(member):
            abort_game(game_id=table.game.pk)
        member.email = ""
        member.first_name = ""
        member.last_name = ""
        member.is_active = False
        member.set_unusable_password()
        member.save(update_fields=["email", "first_name", "last_name", "is_active", "password"])
        EmailAddress.objects.filter(user=member).delete()
        Authenticator.objects.filter(user=member).delete()
        Friendship.objects.filter(Q(from_user=member) | Q(to_user=member)).delete()
        profile = ensure_profile(user=member)
        defaults = Profile()
        for name in PREFERENCES:
            setattr(profile, name, getattr(defaults, name))
        profile.closed_at = timezone.now()
        profile.save(update_fields=[*PREFERENCES, "closed_at"])
        withdraw_member_names(user_id=member.pk)
        _end_sessions(member.pk)


def _closing_hook(member: User, *, by_moderator: bool) -> list[str]:
    reasons: list[str] = []
    for _receiver, answer in account_closing.send(None, member=member, by_moderator=by_moderator):
        reasons.extend(answer or [])
    return reasons


def deactivate_account(*, member: User) -> bool:
    """A moderator closes the account (``community.services.close_account``,
    which logs it): it can no longer log in, and it is taken out of what the
    member's own closing takes them out of, without asking them to leave
    first: the apps above settle their part (``accounts.hooks.account_closing``
    with ``by_moderator=True``: the lobby's queues, invitations and unsettled
    room tables, the tournaments not over), the member leaves every waiting
    table they sit at (an owner's table closes, as when an owner leaves),
    and their games against the computer are aborted. A game in play with
    people goes on: the member, away, is played for as anyone away is.

    It is not the member's closing (``close_account``): nothing is erased
    (the e-mail addresses, names, password, two-factor authenticators,
    friendships, preferences and username stay, the seats keep their stored
    names), so the staff can review the account and reopen it
    (``is_active``). Refused (``ClosingError``, nothing changed) if a
    receiver gives a reason. False (nothing done) if the account is already
    closed."""
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=member.pk)
        if not locked.is_active:
            return False
        reasons = _closing_hook(locked, by_moderator=True)
        if reasons:
            raise ClosingError(reasons)  # rolls back what the receivers did
        for table in selectors.live_tables_of(locked):
            if table.kind == Table.Kind.COMPUTER:
                abort_game(game_id=table.game.pk)
            elif table.status == Table.Status.WAITING:
                waiting.leave_seat(table_id=table.pk, user=locked, kinds=[table.kind])
        locked.is_active = False
        locked.save(update_fields=["is_active"])
    member.is_active = False
    return True


def _end_sessions(user_id: int) -> int:
    """Delete every stored session of the member (sessions in the database,
    the site's engine; another engine's sessions die anyway: the password's
    hash they were signed with is gone). Returns how many."""
    if settings.SESSION_ENGINE != "django.contrib.sessions.backends.db":
        return 0
    ended = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator(chunk_size=2000):
        if session.get_decoded().get(SESSION_KEY) == str(user_id):
            ended.append(session.pk)
    Session.objects.filter(pk__in=ended).delete()
    return len(ended)
