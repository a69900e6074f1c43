"""Creating tables and starting their games.

``create_table`` is the one way to seat a table, used by the computer tables
here, by matchmaking and by private tables. Keep its signature stable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.ai import LEVELS
from games.engine import (
    PRESETS,
    Rules,
    commit_seed,
    dump_state,
    new_game,
    rules_for,
    salted_seed,
    table_commitment,
)
from games.fairplay import move_chain
from games.fairplay.fairness import new_seed
from games.live import broadcast
from games.models import Game, Seat, Table
from games.play import live_games, selectors
from games.play.services import seats as one_game
from games.play.services.errors import GameNotLive, NotAllowed
from games.play.services.moves import after_commit_work, announce_finished, finish_game
from games.signals import member_bots

# The shortest share of the turn time a seat may be given (games.live.clock).
MIN_TURN_PERCENT = 10


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits at one seat: a member (``user``), a guest (``guest_key``, their
    session key), a computer (``level``), or nobody yet (all empty: an open
    seat of a table that waits for players). ``name`` overrides the shown
    name of a person (default: the username; guests and computers get
    translated names). ``turn_percent``: this seat's share of the turn time
    (games.live.clock), 100 by default, 50 for a berserk tournament player."""

    user: User | None = None
    guest_key: str = ""
    level: str = ""
    name: str = ""
    turn_percent: int = 100

    def __post_init__(self) -> None:
        if not MIN_TURN_PERCENT <= self.turn_percent <= 100:
            raise ValueError(f"a turn percent is between {MIN_TURN_PERCENT} and 100, not {self.turn_percent}")
        given = [self.user is not None, bool(self.guest_key), bool(self.level)]
        if sum(given) > 1:
            raise ValueError("a seat holds a member, a guest or a computer, not several")
        if self.level and self.level not in LEVELS:
            raise ValueError(f"unknown computer level {self.level!r}; expected one of {LEVELS}")

    @property
    def is_open(self) -> bool:
        return self.user is None and not self.guest_key and not self.level


def member_bot_ids(user_ids: Iterable[int]) -> set[int]:
    """Which of these members are bot accounts, as the apps above answer
    (``games.signals.member_bots``): stored on their seats (``Seat.bot``)."""
    ids = sorted(set(user_ids))
    if not ids:
        return set()
    bots: set[int] = set()
    for _receiver, answer in member_bots.send(sender=Seat, user_ids=ids):
        if answer:
            bots.update(int(user_id) for user_id in answer)
    return bots


def create_table(
    *,
    kind: str,
    rules: Rules,
    preset: str,
    seats: Sequence[SeatSpec],
    public: bool,
    created_by: User | None = None,
    mode: str = "",
    start: bool = True,
    server_seed: str | None = None,
    salt: str = "",
    actor: User | None = None,
    round_seed: str = "",
    hold_seats: bool = False,
) -> Table:
    """Create a table, its seats (in turn order) and its game.

    The game's private seed and its public commitment are fixed here, before
    any deal. With ``start`` (and no open seat) the first round is dealt at
    once; else the table waits (status "waiting") for ``start_game``.
    A member's ``salt`` mixes into ``server_seed`` (a seed whose commitment
    they saw before choosing the salt: games.fairplay.fairness) to make the deal; a
    server seed deals one game (``NotAllowed`` for a second one).
    One game at a time (games.play.services.seats): ``InGame`` when a member
    seated here already has a game elsewhere, worded for ``actor`` (who asked
    for the table; by default ``created_by``). ``hold_seats`` (a tournament's
    table, with ``start``): the members' seats are their game even when one
    person plays computers only (else practice, which holds nobody), so that
    they are seated at no other game until this one ends.
    """
    if kind not in Table.Kind.values:
        raise ValueError(f"unknown table kind {kind!r}")
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    if len(seats) != rules.players:
        raise ValueError(f"{rules.players} seats expected, got {len(seats)}")
    people = [spec.user.pk for spec in seats if spec.user is not None] + [
        spec.guest_key for spec in seats if spec.guest_key
    ]
    if len(people) != len(set(people)):
        raise ValueError("a person can hold only one seat at a table")
    if hold_seats and not start:
        raise ValueError("a table that holds its seats is started at once")
    if round_seed and (server_seed or salt):
        raise ValueError("a duplicate round's table deals from the round's seed, without a salt")
    server_seed = server_seed or new_seed()
    seed = salted_seed(server_seed, salt) if salt else server_seed
    commitment = commit_seed(server_seed)
    bots = member_bot_ids(spec.user.pk for spec in seats if spec.user is not None)
    try:
        with transaction.atomic():
            table = Table.objects.create(
                kind=kind, public=public, mode=mode, created_by=created_by, status=Table.Status.WAITING
            )
            Seat.objects.bulk_create(
                Seat(
                    table=table,
                    number=number,
                    user=spec.user,
                    guest_key=spec.guest_key,
                    level=spec.level,
                    name=spec.name or (spec.user.get_username() if spec.user is not None else ""),
                    turn_percent=spec.turn_percent,
                    bot=spec.user is not None and spec.user.pk in bots,
                )
                for number, spec in enumerate(seats)
            )
            # One game at a time (games.play.services.seats): refused, and nothing written.
            asking = actor or created_by
            one_game.engage_table(table=table, actor_id=asking.pk if asking is not None else None, held=hold_seats)
            if round_seed:
                seed, commitment = round_seed, table_commitment(round_seed, table.pk)
            Game.objects.create(
                table=table,
                preset=preset,
                rules=rules.to_dict(),
                seed=seed,
                commitment=commitment,
                server_seed=server_seed if salt else "",
                salt=salt,
                round_commitment=commit_seed(round_seed) if round_seed else "",
                sealed=bool(round_seed),
            )
            if start:
                start_game(table=table, held=hold_seats)
    except IntegrityError:
        # One committed seed deals one game (the unique commitment): a seed
        # offered once and claimed twice, or a server seed given twice.
        if Game.objects.filter(commitment=commitment, shared_commitment=False).exists():
            raise NotAllowed(
                _("This deal's fingerprint already deals another table: ask for a new one."),
                reason="commitment_used",
            ) from None
        raise
    table.refresh_from_db()
    return table


def unseal(*, table_ids: Sequence[int]) -> int:
    """Publish the seeds of finished duplicate-round games (``round_seed``
    tables) once their round is over; returns how many were unsealed."""
    return Game.objects.filter(
        table_id__in=list(table_ids), sealed=True, table__status=Table.Status.FINISHED
    ).update(sealed=False)


def create_computer_table(
    *,
    user: User | None = None,
    guest_key: str = "",
    preset: str,
    players: int,
    teams: bool,
    target: int,
    level: str,
) -> Table:
    """A member or a guest (by session key) against ``players - 1`` computers
    of ``level``; the person takes seat 0. Public: anyone may watch."""
    if (user is None) == (not guest_key):
        raise ValueError("a computer table is for one member or one guest")
    rules = rules_for(preset, players=players, teams=teams, target=target)
    person = SeatSpec(user=user) if user is not None else SeatSpec(guest_key=guest_key)
    seats = [person, *(SeatSpec(level=level) for _ in range(players - 1))]
    return create_table(
        kind=Table.Kind.COMPUTER, rules=rules, preset=preset, seats=seats, public=True, created_by=user
    )


def start_game(*, table: Table, held: bool = False) -> Game:
    """Deal the first round of a waiting table whose seats are all taken.
    Starting a started game changes nothing. ``held``: the table was opened
    with ``hold_seats`` (``create_table``)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(table_id=table.pk)
        if game.state is not None:
            return game
        locked_table = Table.objects.select_for_update().get(pk=table.pk)
        if locked_table.status != Table.Status.WAITING:
            raise GameNotLive(_("This table is closed."))
        seats = list(Seat.objects.filter(table_id=table.pk))
        if any(seat.kind == "open" for seat in seats):
            raise NotAllowed(_("Every seat must be taken before the game starts."), reason="open_seats")
        state = new_game(selectors.game_rules(game), game.seed)
        now = timezone.now()
        game.state = dump_state(state)
        game.to_move = state.to_move
        game.round_over = state.round_over
        game.started_at = now
        game.save(update_fields=["state", "to_move", "round_over", "started_at", "updated_at"])
        locked_table.status = Table.Status.PLAYING
        locked_table.save(update_fields=["status"])
        if not one_game.is_game(locked_table, seats, held=held):
            # One person and computers only: practice, not a game that holds them.
            one_game.release(table_id=table.pk)
        if state.game_over:
            # A block deal where nobody holds the opening number is blocked
            # from the first tile (about 1 duel in 120): the game ends at once.
            finish_game(game=game, table=locked_table, state=state, announce=False)
            game.save(update_fields=["result", "winner", "finished_at"])
        info = selectors.seat_info(seats)
        facts = selectors.table_facts(locked_table, game)
        table_id, seq, head = table.pk, game.seq, move_chain.head(game)
        after_commit_work(game_id=game.pk, seq=seq, state=state, seats=info)  # before the news
        transaction.on_commit(
            lambda: broadcast.broadcast_snapshot(
                table_id=table_id, seq=seq, state=state, humans=info.humans, table=facts, chain=head
            )
        )
        if state.game_over:
            announce_finished(game=game, table=locked_table)  # after the snapshot that shows the end
    return game


def set_turn_percent(*, table_id: int, seat: int, percent: int) -> None:
    """Give ``seat`` a share of the turn time (games.live.clock) before the
    game's first move (a tournament player who goes berserk: 50). Refused
    (``NotAllowed``, nothing changed) once a move is played or the game is
    over; every viewer gets the table's new clock."""
    if not MIN_TURN_PERCENT <= percent <= 100:
        raise ValueError(f"a turn percent is between {MIN_TURN_PERCENT} and 100, not {percent}")
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("table").get(table_id=table_id)
        if game.finished or game.table.status not in (Table.Status.WAITING, Table.Status.PLAYING):
            raise GameNotLive(_("This table is closed."))
        if game.seq > 0:
            raise NotAllowed(_("The turn time is set before the first move."), reason="started")
        if not Seat.objects.filter(table_id=table_id, number=seat).update(turn_percent=percent):
            raise ValueError(f"table {table_id} has no seat {seat}")
        # The live store's seats (games.play.live_games) hold the old share.
        game_id = game.pk
        transaction.on_commit(lambda: live_games.forget(game_id))
        if game.state is None:
            return
        facts = selectors.table_facts(game.table, game)
        frame = {"type": "clock", "clock": facts.get("clock")}
        players = int(game.rules.get("players", 0))
        transaction.on_commit(
            lambda: broadcast.broadcast_notice(table_id=table_id, players=players, frame=frame, table=facts)
        )


# The session entry that remembers a guest's key across a login (games.pages.game_pages.guest_key).
GUEST_KEY_SESSION = "guest_key"


def adopt_guest_seats(*, guest_key: str, user: User) -> int:
    """Give ``user`` the seats a guest holds under ``guest_key`` (called when
    that guest logs in or signs up, so their game goes on as a member's and
    shows on their profile). A table where the member already sits keeps the
    guest's seat as it is. Returns how many seats changed hands."""
    if not guest_key:
        return 0
    adopted = 0
    with transaction.atomic():
        seats = Seat.objects.select_for_update().filter(guest_key=guest_key, user__isnull=True)
        for seat in seats:
            if Seat.objects.filter(table_id=seat.table_id, user=user).exists():
                continue
            seat.user = user
            seat.guest_key = ""
            seat.name = user.get_username()
            seat.bot = user.pk in member_bot_ids([user.pk])
            seat.save(update_fields=["user", "guest_key", "name", "bot"])
            adopted += 1
    return adopted



def withdraw_member_names(*, user_id: int) -> int:
    """A member closed their account: their seats keep the member (the games
    and ratings stand) but no longer their name, so every page and file shows
    the seat as a closed account (games.play.selectors.seat_name), and a rematch
    they had asked for no longer counts them (it would seat them again).
    Returns how many seats changed."""
    with transaction.atomic():
        seats = Seat.objects.filter(user_id=user_id, table__status=Table.Status.FINISHED).select_related("table")
        for seat in seats:
            table = seat.table
            if seat.number in (table.rematch_seats or []):
                table.rematch_seats = [number for number in table.rematch_seats if number != seat.number]
                table.save(update_fields=["rematch_seats"])
        return Seat.objects.filter(user_id=user_id).exclude(name="").update(name="")
