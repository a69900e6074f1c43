"""Room tables: opening, joining and leaving them with a stake, the room
queue's matcher, and the settlement of the chips when a game ends.

A room table opened from a room page is a waiting table of the table core
(``games.play.services.waiting``): it seats, frees and closes the seats (one
game at a time included) and starts the game when the last seat is taken.
This module keeps the room's facts (``RoomTable``) and the chips: a
member's stake is held (a ``stake`` entry, under their wallet's row lock)
in the same transaction that seats them, before their seat is written
(``games.signals.waiting_seat_taking``: a refusal here writes nothing),
returned when they leave (``waiting_seat_left``), and every stake returns
when the table is closed (``waiting_table_closed``); lobby.receivers
connects them. When the game ends, ``settle`` pays the pot by place as the room's
payout table says (lobby.rooms.settle), exactly once: the ``RoomTable`` row
is locked and marked settled in the same transaction as the entries, and the
ledger's unique constraints refuse a second entry per (game, member, reason).
It runs from ``games.signals.game_finished`` (after the commit) and from the
periodic tick, which settles what a lost signal or a killed worker missed and
returns the stakes of aborted tables.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.ratings import ranks_from_scores
from accounts.selectors import QueueBan, display_rating_of, is_bot, queue_ban
from community.selectors import block_pairs
from games.live import broadcast as table_broadcast
from games.models import Game, Seat, Table
from games.play import selectors as game_selectors
from games.play import services as game_services
from games.play.locks import try_lock
from games.play.modes import RANKED_MODES
from lobby import broadcast, chips, room_selectors, rooms, selectors
from lobby.matchmaking import Ticket, pair_tickets, seat_order
from lobby.models import ChipEntry, ChipWallet, QueueEntry, RoomTable

logger = logging.getLogger(__name__)
Reason = ChipEntry.Reason


class RoomError(game_services.SeatRefused):
    """A seat that cannot be taken (message for the member); nothing changed."""


class QueueBanned(RoomError):
    """A member kept out of the queues (and the rooms' tables) for leaving
    games (fair conduct, docs/moderation.md): ``until`` when."""

    code = "queue_ban"

    def __init__(self, ban: QueueBan) -> None:
        super().__init__(queue_ban_message(ban), reason="queue_ban")
        self.until = ban.until


def queue_ban_message(ban: QueueBan) -> str:
    """Why and until when, in the member's language and time zone."""
    until = formats.date_format(timezone.localtime(ban.until), "DATETIME_FORMAT")
    return ngettext(
        "You left %(count)s game in the last 24 hours: you may not queue until %(until)s.",
        "You left %(count)s games in the last 24 hours: you may not queue until %(until)s.",
        ban.abandoned_recently,
    ) % {"count": ban.abandoned_recently, "until": until}


def check_queue_ban(*, user_id: int, now: datetime | None = None) -> None:
    """Raise ``QueueBanned`` if the member may not queue now."""
    ban = queue_ban(user_id, now=now)
    if ban is not None:
        raise QueueBanned(ban)


KINDS = (Table.Kind.ROOM,)


# --- Who may sit ------------------------------------------------------------------


def refusal(*, user_id: int, room: rooms.Room) -> str:
    """Why the member cannot sit in ``room`` now ("" if they can)."""
    ban = queue_ban(user_id)
    if ban is not None:
        return queue_ban_message(ban)
    wallet = ChipWallet.objects.filter(user_id=user_id).first()
    balance = wallet.balance if wallet else 0
    level = rooms.level_for(wallet.xp if wallet else 0)
    if level < room.min_level:
        return _("The %(room)s room opens at level %(needed)s; you are level %(level)s.") % {
            "room": room.name,
            "needed": room.min_level,
            "level": level,
        }
    if balance < room.stake:
        return _("The stake here is %(stake)s chips; you have %(balance)s.") % {
            "stake": room.stake,
            "balance": balance,
        }
    return ""


def _hold_stake(*, user_id: int, room_table: RoomTable, game: Game) -> None:
    """Hold the stake of a member sitting down (inside the seating transaction)."""
    room = rooms.ROOMS[room_table.room]
    wallet = chips.wallet_for_update(user_id)
    check_queue_ban(user_id=user_id)
    reason = refusal(user_id=user_id, room=room)
    if reason:
        raise RoomError(reason, reason="no_chips" if wallet.balance < room.stake else "level")
    try:
        with transaction.atomic():
            chips.post(
                user_id=user_id,
                amount=-room_table.stake,
                reason=Reason.STAKE,
                game=game,
                detail={"room": room.slug, "kind": room_table.kind, "target": room_table.target},
            )
    except IntegrityError:
        raise RoomError(_("You left this table: open or join another one."), reason="left_before") from None


# --- Opening, joining, leaving ------------------------------------------------------


def open_table(*, owner: User, room: str, kind: str, target: int) -> Table:
    """A waiting room table with the owner seated (their stake held) and the
    other seats open; everyone may watch."""
    spec = rooms.ROOMS.get(room)
    if spec is None:
        raise RoomError(_("This room does not exist."), reason="no_room")
    if kind not in rooms.KINDS or target not in rooms.LENGTHS:
        raise RoomError(_("This room has no such game."), reason="bad_game")
    rules = rooms.room_rules(kind, target)
    with transaction.atomic():
        table = game_services.waiting.open_table(
            kind=Table.Kind.ROOM, rules=rules, preset=rooms.PRESET, owner=owner, public=True
        )
        room_table = RoomTable.objects.create(table=table, room=room, kind=kind, target=target, stake=spec.stake)
        _hold_stake(user_id=owner.pk, room_table=room_table, game=table.game)
    return table


def join_table(*, table_id: int, user: User) -> Seat:
    """Seat ``user`` at the first open seat, holding their stake; the game
    starts when the last seat is taken. Refused (``RoomError``) without the
    level or the chips, and by the table core (full, started, one game at a
    time)."""
    return game_services.waiting.take_seat(table_id=table_id, user=user, kinds=KINDS)


def leave_table(*, table_id: int, user: User) -> None:
    """Leave a waiting table: the stake comes back. The owner leaving closes
    the table and every stake comes back."""
    game_services.waiting.leave_seat(table_id=table_id, user=user, kinds=KINDS)


# --- The chips of a waiting table's seats (games.signals; lobby.receivers) ------------


def _locked_room_table(table: Table) -> RoomTable | None:
    if table.kind != Table.Kind.ROOM:
        return None
    room_table = RoomTable.objects.select_for_update().filter(pk=table.pk).first()
    if room_table is None:
        raise RoomError(_("This room table does not exist."), reason="no_table")
    return room_table


def hold_for_seat(*, table: Table, game: Game, user_id: int) -> None:
    """A member is sitting down at a waiting room table: hold their stake
    (or refuse the seat, nothing written)."""
    room_table = _locked_room_table(table)
    if room_table is not None:
        _hold_stake(user_id=user_id, room_table=room_table, game=game)


def release_for_seat(*, table: Table, game: Game, user_id: int) -> None:
    """A member left a waiting room table: their stake comes back."""
    room_table = _locked_room_table(table)
    if room_table is not None and _held(game).get(user_id):
        chips.post(user_id=user_id, amount=room_table.stake, reason=Reason.RELEASE, game=game)


def settle_closed(*, table: Table) -> None:
    """A waiting room table was closed: every stake comes back now."""
    room_table = _locked_room_table(table)
    if room_table is not None:
        _settle_locked(room_table)


# --- Settlement ---------------------------------------------------------------------


def _held(game: Game) -> dict[int, int]:
    """Chips held per member at this game (stakes not yet returned)."""
    held: dict[int, int] = {}
    for entry in ChipEntry.objects.filter(game=game, user__isnull=False, reason__in=[Reason.STAKE, Reason.RELEASE]):
        if entry.user_id is not None:
            held[entry.user_id] = held.get(entry.user_id, 0) - entry.amount
    return {user_id: amount for user_id, amount in held.items() if amount}


def places_of(game: Game, *, teams: bool) -> list[int]:
    """Places per side (seat, or pair) from the game's result; a player who
    resigned (or abandoned: the timer resigns for them) ranks last."""
    result = game.result or {}
    resigned = result.get("resigned")
    last = [] if resigned is None else [resigned % 2 if teams else resigned]
    return ranks_from_scores(result["scores"], winner=result.get("winner"), last=last)


def settle(*, table_id: int) -> bool:
    """Settle a room table whose game ended or was aborted, once. Returns
    whether it was settled now (False: not a room table, still live, or
    settled already)."""
    with transaction.atomic():
        room_table = RoomTable.objects.select_for_update().filter(pk=table_id).first()
        if room_table is None:
            return False
        return _settle_locked(room_table)


def _settle_locked(room_table: RoomTable) -> bool:
    if room_table.settled_at is not None:
        return False
    table = Table.objects.get(pk=room_table.pk)
    if table.status not in (Table.Status.FINISHED, Table.Status.ABORTED):
        return False
    game = Game.objects.get(table=table)
    held = _held(game)
    room = rooms.ROOMS[room_table.room]
    detail: dict[str, Any] = {"room": room.slug, "kind": room_table.kind, "target": room_table.target}
    # An aborted game (never started, stopped, or resigned or agreed drawn
    # before any tile beyond the opening: Game.aborted) returns every stake.
    paid = (
        table.status == Table.Status.FINISHED
        and game.result
        and game.result.get("scores") is not None
        and not game.aborted
    )
    if not paid:
        for user_id, amount in held.items():
            chips.post(user_id=user_id, amount=amount, reason=Reason.REFUND, game=game, detail=detail)
        room_table.outcome = "refunded"
    else:
        _pay(room_table, room, table, game, held, detail)
    room_table.settled_at = timezone.now()
    room_table.save(update_fields=["settled_at", "outcome"])
    user_ids = list(held)
    table_id = table.pk
    transaction.on_commit(lambda: _announce(table_id, user_ids))
    return True


def _pay(
    room_table: RoomTable, room: rooms.Room, table: Table, game: Game, held: dict[int, int], detail: dict[str, Any]
) -> None:
    """Pay a game played (inside the settlement's transaction, the
    ``RoomTable`` row locked): the pot by place, the experience of the rounds
    played weighed by the pair's repeated games, the chips won from new
    accounts capped (the excess returns to the new account)."""
    kind = rooms.KINDS[room_table.kind]
    places = places_of(game, teams=kind.teams)
    result_data = game.result or {}
    rounds = int(result_data.get("rounds_played", result_data.get("rounds") or 0))
    result = rooms.settle(room, room_table.kind, places, rounds)
    seats = [seat for seat in Seat.objects.filter(table=table).order_by("number") if seat.user_id in held]
    user_of = {seat.number: int(seat.user_id or 0) for seat in seats}
    # Every player's wallet is locked, in one order, before what they won
    # today is read: two settlements of one member wait for each other, so
    # that neither the repeated games nor the caps can be raced.
    wallets = {user_id: chips.wallet_for_update(user_id) for user_id in sorted(set(user_of.values()))}
    now = timezone.now()
    paid = list(result.chips)
    won_from_new, returned = _newcomer_caps(result, room_table.stake, user_of, wallets, paid, now=now)
    players = set(user_of.values())
    owed = dict(held)
    for number, user_id in user_of.items():
        owed.pop(user_id)
        weight = rooms.repeat_weight(
            1 + _repeated_room_games(user_id=user_id, others=players - {user_id}, room_table=room_table, now=now)
        )
        entry_detail = {
            **detail,
            "place": result.places[number],
            "seat": number,
            "drawn": result.drawn,
            "rounds": rounds,
            "weight": str(weight),
        }
        if won_from_new.get(number):
            entry_detail["won_from_new"] = won_from_new[number]
        if paid[number] != result.chips[number]:
            entry_detail["capped"] = result.chips[number] - paid[number]
        chips.post(
            user_id=user_id,
            amount=paid[number],
            xp=int(result.xp[number] * weight),
            reason=Reason.REFUND if result.drawn else Reason.PAYOUT,
            game=game,
            detail=entry_detail,
        )
    for number, amount in returned.items():
        chips.post(
            user_id=user_of[number], amount=amount, reason=Reason.CAPPED, game=game, detail={**detail, "seat": number}
        )
    fee = result.fee + sum(owed.values())  # a stake without a seat (never expected) goes to the house
    if fee:
        chips.post_house(amount=fee, reason=Reason.FEE, game=game, detail=detail)
    room_table.outcome = "drawn" if result.drawn else "paid"


def _repeated_room_games(*, user_id: int, others: set[int], room_table: RoomTable, now: datetime) -> int:
    """How many room games played (paid or drawn) ``user_id`` settled with
    any one of ``others`` (the most with a single one) in the last
    ``rooms.REPEAT_WINDOW``, this one left out."""
    since = now - rooms.REPEAT_WINDOW
    most = 0
    for other in others:
        count = (
            RoomTable.objects.filter(settled_at__gte=since, outcome__in=["paid", "drawn"])
            .exclude(pk=room_table.pk)
            .filter(table__seats__user_id=user_id)
            .filter(table__seats__user_id=other)
            .distinct()
            .count()
        )
        most = max(most, count)
    return most


def _newcomer_caps(
    result: rooms.Settlement,
    stake: int,
    user_of: dict[int, int],
    wallets: dict[int, ChipWallet],
    paid: list[int],
    *,
    now: datetime,
) -> tuple[dict[int, dict[str, int]], dict[int, int]]:
    """Cap what each winner takes from new accounts (docs/rooms.md, "New
    accounts"): at most ``NEWCOMER_PAIR_CAP`` from one new account and
    ``NEWCOMER_DAILY_CAP`` from all of them in ``NEWCOMER_WINDOW``, counted
    from the winner's payout entries of that window (their wallet is locked).
    Lowers ``paid`` (per seat) by the excess; returns, per winner seat, what
    it won from each new account (user id -> chips, kept on its payout entry
    for the next games' caps), and per new account's seat the chips that
    return to it. Nothing is created or destroyed: the excess moves from the
    winner's payout back to the loser."""
    won_from_new: dict[int, dict[str, int]] = {}
    returned: dict[int, int] = {}
    if result.drawn:
        return won_from_new, returned
    nets = [chips_paid - stake for chips_paid in result.chips]
    users = {
        user.pk: user
        for user in get_user_model().objects.filter(pk__in=[user_of[n] for n, net in enumerate(nets) if net < 0])
    }
    new_losers = {
        number
        for number, net in enumerate(nets)
        if net < 0
        and number in user_of
        and user_of[number] in users
        and rooms.is_newcomer(joined=users[user_of[number]].date_joined, xp=wallets[user_of[number]].xp, now=now)
    }
    if not new_losers:
        return won_from_new, returned
    since = now - rooms.NEWCOMER_WINDOW
    for (winner, loser), share in sorted(rooms.shares_of(nets).items()):
        if loser not in new_losers or winner not in user_of or share <= 0:
            continue
        winner_id, loser_key = user_of[winner], str(user_of[loser])
        if winner not in won_from_new:
            won_from_new[winner] = {}
        before = _won_from_new_since(winner_id, since)
        mine = won_from_new[winner]
        pair = before.get(loser_key, 0) + mine.get(loser_key, 0)
        total = sum(before.values()) + sum(mine.values())
        allowed = max(0, min(share, rooms.NEWCOMER_PAIR_CAP - pair, rooms.NEWCOMER_DAILY_CAP - total))
        mine[loser_key] = mine.get(loser_key, 0) + allowed
        excess = share - allowed
        if excess:
            paid[winner] -= excess
            returned[loser] = returned.get(loser, 0) + excess
    return {seat: won for seat, won in won_from_new.items() if any(won.values())}, returned


def _won_from_new_since(user_id: int, since: datetime) -> dict[str, int]:
    """What ``user_id`` won from each new account since ``since`` (user id as
    text -> chips), from the ``won_from_new`` of their payout entries."""
    won: dict[str, int] = {}
    for detail in ChipEntry.objects.filter(
        user_id=user_id, reason=Reason.PAYOUT, created_at__gte=since
    ).values_list("detail", flat=True):
        for loser, amount in (detail or {}).get("won_from_new", {}).items():
            won[loser] = won.get(loser, 0) + int(amount)
    return won


def _announce(table_id: int, user_ids: list[int]) -> None:
    """After the commit that stored the settlement: tell the table's sockets
    what the game paid each seat (a ``settlement`` notice; the table page
    polls the status only when it missed it), and the players' lobby sockets
    their new balances. A failed send is logged: nothing relies on it."""
    try:
        room_table = RoomTable.objects.select_related("table__game").get(pk=table_id)
        table = room_table.table
        table_broadcast.broadcast_notice(
            table_id=table_id,
            players=Seat.objects.filter(table=table).count(),
            frame=room_selectors.settlement_frame(room_table),
            table=game_selectors.table_facts(table, table.game),
            after=table.game.seq,  # after the game's end on every socket
        )
    except Exception:
        logger.exception("could not announce the settlement of room table %s", table_id)
    for wallet in ChipWallet.objects.filter(user_id__in=user_ids):
        level = rooms.level_for(wallet.xp)
        broadcast.send_to_users(
            [wallet.user_id], {"type": "chips", "table": table_id, "chips": wallet.balance, "level": level}
        )


def settle_missed(*, limit: int = 50) -> int:
    """Settle the room tables that ended without being settled (a lost
    signal, a worker killed mid-settlement, an aborted game)."""
    pending = RoomTable.objects.filter(
        settled_at__isnull=True, table__status__in=[Table.Status.FINISHED, Table.Status.ABORTED]
    ).values_list("pk", flat=True)[:limit]
    done = 0
    for table_id in list(pending):
        try:
            done += settle(table_id=table_id)
        except Exception:
            logger.exception("settling room table %s failed", table_id)
    return done


WAITING_LIMIT = timedelta(minutes=30)
"""A room table still waiting for players after this long is closed and its
stakes returned (nobody's chips stay held by a table that never starts)."""


def close_stale_tables(*, now: datetime | None = None) -> int:
    """Close the room tables that waited longer than ``WAITING_LIMIT``
    (aborted by the table core); every stake returns. Returns how many
    were closed."""
    moment = now or timezone.now()
    stale = RoomTable.objects.filter(
        table__status=Table.Status.WAITING, table__created_at__lt=moment - WAITING_LIMIT
    ).values_list("pk", flat=True)
    closed = 0
    for table_id in list(stale):
        closed += game_services.waiting.close_table(table_id=table_id, reason="stale", kinds=KINDS)
    return closed


# --- The room queue -------------------------------------------------------------------


def join_room_queue(*, user: User, room: str, mode: str, channel_name: str = "") -> QueueEntry:
    """Queue for a room game of ``mode`` (the ranked mode's rules), if the
    member has the level and the chips now (they are held at the match)."""
    spec = rooms.ROOMS.get(room)
    if spec is None:
        raise RoomError(_("This room does not exist."), reason="no_room")
    if mode not in RANKED_MODES:
        raise RoomError(_("Unknown game."), reason="bad_mode")
    if is_bot(user.pk):
        raise RoomError(_("Bot accounts do not play in the ranked queues."), reason="bot")
    check_queue_ban(user_id=user.pk)
    reason = refusal(user_id=user.pk, room=spec)
    if reason:
        raise RoomError(reason, reason="cannot_sit")
    entry, _created = QueueEntry.objects.update_or_create(
        user=user,
        defaults={
            "mode": mode,
            "room": room,
            "rating": display_rating_of(user, mode),
            "channel_name": channel_name,
            "joined_at": timezone.now(),
        },
    )
    return entry


@dataclass(frozen=True)
class Match:
    table: Table
    user_ids: list[int]


def run_room_matcher(*, now: datetime | None = None) -> list[Table]:
    """Seat the waiting players of every room queue (room and mode) by
    rating, as the ranked matcher does; each player's stake is held as the
    table is made. A player who can no longer pay leaves the queue."""
    tables: list[Table] = []
    pairs = set(QueueEntry.objects.exclude(room="").values_list("room", "mode").distinct())
    for room, mode in sorted(pairs):
        if room in rooms.ROOMS and mode in RANKED_MODES:
            tables.extend(_match_room(room, mode, now=now))
    return tables


def _match_room(room: str, mode_key: str, *, now: datetime | None) -> list[Table]:
    mode = RANKED_MODES[mode_key]
    spec = rooms.ROOMS[room]
    kind = rooms.MODE_KINDS[mode_key]
    tables: list[Table] = []
    with transaction.atomic():
        if not try_lock(f"room-matcher:{room}:{mode_key}"):
            return tables
        entries = {
            entry.user_id: entry
            for entry in QueueEntry.objects.select_for_update()
            .filter(room=room, mode=mode_key)
            .select_related("user")
        }
        # Whoever can no longer sit (spent their chips elsewhere, or sat at a
        # table meanwhile: one game at a time) leaves the queue.
        busy = game_selectors.current_tables(entries)
        for user_id in [user_id for user_id in entries if user_id in busy or refusal(user_id=user_id, room=spec)]:
            entries.pop(user_id).delete()
        if len(entries) < mode.players:
            return tables
        moment = now or timezone.now()
        tickets = [Ticket(e.user_id, e.rating, (moment - e.joined_at).total_seconds()) for e in entries.values()]
        rng = random.SystemRandom()
        # Members who blocked one another are kept apart while others wait.
        for group in pair_tickets(tickets, mode.players, avoid=block_pairs(entries)):
            users = [entries[t.user_id].user for t in seat_order(group, teams=mode.teams, rng=rng)]
            try:
                with transaction.atomic():
                    QueueEntry.objects.filter(user_id__in=[user.pk for user in users]).delete()
                    table = game_services.create_table(
                        kind=Table.Kind.ROOM,
                        rules=mode.rules,
                        preset=mode.preset,
                        seats=[game_services.SeatSpec(user=user) for user in users],
                        public=True,
                        mode=mode_key,
                        start=False,
                    )
                    room_table = RoomTable.objects.create(
                        table=table, room=room, kind=kind, target=mode.target, stake=spec.stake
                    )
                    for user in users:
                        _hold_stake(user_id=user.pk, room_table=room_table, game=table.game)
                    game_services.start_game(table=table)
            except game_services.InGame as error:
                # Seated elsewhere since the check: they leave the queue, the others wait on.
                QueueEntry.objects.filter(user_id=error.user_id).delete()
                continue
            tables.append(table)
            frame = selectors.matched_frame(table)
            user_ids = [user.pk for user in users]
            transaction.on_commit(partial(broadcast.send_to_users, user_ids, frame))
    return tables

