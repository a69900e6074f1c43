"""The writes of the tournaments (docs/tournaments.md): creating one, joining,
withdrawing, pausing, berserk; the periodic job that starts tournaments,
pairs their free players in waves and ends them; the scoring of a finished
game, once.

Tables are opened only through the table core (``games.play.services.create_table``,
ranked in the tournament's mode when it is rated, so that the ratings count
them like any ranked game); a player's next table is announced on their lobby
sockets (``lobby.broadcast``) after the commit.
"""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import is_bot, queue_ban
from community import services as community
from games.engine import Event
from games.models import Game, Move, Table
from games.play import selectors as game_selectors
from games.play.locks import try_lock
from games.play.modes import RANKED_MODES
from games.play.services import InGame, NotAllowed, SeatSpec, create_table, set_turn_percent
from games.signals import ChatRefused
from games.verifier import arena
from lobby import broadcast
from lobby.room_tables import queue_ban_message
from tournaments import duplicate, selectors
from tournaments.models import GameSeat, Player, Schedule, Score, Tournament, TournamentGame
from tournaments.pairing import Free, group_wave, pair_wave

logger = logging.getLogger(__name__)

ARENA_MODES = ("duel-block", "duel-draw", arena.FOUR_MODE)
"""The modes an arena is played in: the duels and the four-player free-for-all."""
DUPLICATE_MODES = ("duel-block", "duel-draw")
"""The modes a duplicate tournament is played in (duels)."""
MINUTES = (1, 120)
STARTS_IN = (0, 7 * 24 * 60)


class TournamentError(ValueError):
    """A refused request, with the message to show."""


def grace() -> timedelta:
    """How long after the end a game still playing may finish and count."""
    return timedelta(seconds=float(getattr(settings, "TOURNAMENT_GRACE_SECONDS", 120)))


# --- Creating and entering --------------------------------------------------------


def check_settings(*, format: str, mode: str, minutes: int, rounds: int = 0) -> None:
    """Refuse (``TournamentError``) a format, mode or length not open yet.
    ``rounds``: a duplicate tournament's number of rounds (ignored for an arena)."""
    if format == Tournament.Format.DUPLICATE:
        if mode not in DUPLICATE_MODES:
            raise TournamentError(_("A duplicate tournament is played in a duel mode: the block game or the draw game."))
        if not duplicate.ROUNDS[0] <= rounds <= duplicate.ROUNDS[1]:
            raise TournamentError(_("A duplicate tournament has from 1 to 12 rounds."))
        if not MINUTES[0] <= minutes <= MINUTES[1]:
            raise TournamentError(_("A duplicate round lasts from 1 to 120 minutes."))
        return
    if format != Tournament.Format.ARENA:
        raise TournamentError(_("Unknown tournament format."))
    if mode not in ARENA_MODES:
        raise TournamentError(
            _("An arena is played in a duel mode (the block game or the draw game) or by four players.")
        )
    if not MINUTES[0] <= minutes <= MINUTES[1]:
        raise TournamentError(_("An arena lasts from 1 to 120 minutes."))


def create_tournament(
    *,
    user: User,
    format: str,
    mode: str,
    minutes: int,
    starts_in: int,
    rated: bool = True,
    private: bool = False,
    rounds: int = 0,
    admits_bots: bool = False,
    now: datetime | None = None,
) -> Tournament:
    check_settings(format=format, mode=mode, minutes=minutes, rounds=rounds)
    if not STARTS_IN[0] <= starts_in <= STARTS_IN[1]:
        raise TournamentError(_("A tournament starts within a week."))
    moment = now or timezone.now()
    # 0 = within ten seconds: the next periodic tick starts it.
    starts_at = moment + timedelta(minutes=starts_in)
    is_duplicate = format == Tournament.Format.DUPLICATE
    with transaction.atomic():
        tournament = Tournament.objects.create(
            format=format,
            mode=mode,
            minutes=minutes,
            rounds=rounds if is_duplicate else 0,
            rated=rated,
            private=private,
            admits_bots=admits_bots,
            token=secrets.token_urlsafe(12) if private else "",
            created_by=user,
            starts_at=starts_at,
            # A duplicate tournament lasts its rounds (``minutes`` each).
            ends_at=starts_at + timedelta(minutes=minutes * (rounds if is_duplicate else 1)),
        )
        if is_duplicate:
            duplicate.draw_rounds(tournament)
    return tournament


def join(*, tournament: Tournament, user: User) -> Player:
    """Join (or come back to) a tournament that has not ended; a bot account
    only one that admits bots (``Tournament.admits_bots``); one that has
    started not during a queue ban (``accounts.selectors.queue_ban``)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status == Tournament.Status.FINISHED:
            raise TournamentError(_("This tournament is over."))
        if not locked.admits_bots and is_bot(user.pk):
            raise TournamentError(_("This tournament does not admit bots."))
        # A started tournament pairs its players at once, as a queue: the
        # queue ban of a member who left games applies (docs/moderation.md).
        ban = queue_ban(user.pk) if locked.status == Tournament.Status.STARTED else None
        if ban is not None:
            raise TournamentError(queue_ban_message(ban))
        player, created = Player.objects.get_or_create(tournament=locked, user=user)
        if not created and (player.withdrawn or player.paused):
            player.withdrawn = player.paused = False
            player.save(update_fields=["withdrawn", "paused"])
    return player


def say(*, tournament: Tournament, user: User, text: str) -> None:
    """A line of the tournament's chat, for the members who joined it (the
    community's rules: filter, flood, repeat, timeout, troll)."""
    if selectors.entry(tournament, user.pk) is None:
        raise TournamentError(_("Only the tournament's players write in its chat."))
    try:
        community.say_in_tournament(tournament_id=tournament.pk, user_id=user.pk, text=text)
    except ChatRefused as refused:
        raise TournamentError(refused.message) from None


def _player(tournament: Tournament, user: User) -> Player:
    try:
        return Player.objects.select_for_update().get(tournament=tournament, user=user)
    except Player.DoesNotExist:
        raise TournamentError(_("You have not joined this tournament.")) from None


def withdraw(*, tournament: Tournament, user: User) -> Player:
    """Leave a tournament: no more pairings (the points stay; joining again comes back)."""
    with transaction.atomic():
        if tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("This tournament is over."))
        player = _player(tournament, user)
        player.withdrawn = True
        player.save(update_fields=["withdrawn"])
    return player


def withdraw_everywhere(*, user_id: int) -> int:
    """Withdraw the member from every tournament not over (their account
    closing: ``accounts.hooks.account_closing``, inside its transaction): they
    are never paired again; their points stay in the standings, under "Closed
    account". Returns how many."""
    not_over = [Tournament.Status.CREATED, Tournament.Status.STARTED]
    return Player.objects.filter(user_id=user_id, withdrawn=False, tournament__status__in=not_over).update(
        withdrawn=True
    )


def set_paused(*, tournament: Tournament, user: User, paused: bool) -> Player:
    """Pause (no new pairing after the current game) or come back."""
    with transaction.atomic():
        if tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("This tournament is over."))
        player = _player(tournament, user)
        player.paused = paused
        player.save(update_fields=["paused"])
    return player


def berserk(*, tournament: Tournament, user: User) -> Player:
    """Go berserk: for the current tournament game if it has no move yet, else
    for the next one. Refused once the current game has begun."""
    if tournament.format == Tournament.Format.DUPLICATE:
        raise TournamentError(_("A duplicate tournament has no berserk: every table plays the same clock."))
    with transaction.atomic():
        if tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("This tournament is over."))
        player = _player(tournament, user)
        seat = (
            # Only the seat's row is locked: PostgreSQL refuses FOR UPDATE on the
            # nullable side of the outer join that reaches the table's game.
            GameSeat.objects.select_for_update(of=("self",))
            .filter(player=player, game__table__status__in=[Table.Status.WAITING, Table.Status.PLAYING])
            .select_related("game__table__game")
            .first()
        )
        if seat is not None:
            if seat.game.table.game.seq > 0:
                raise TournamentError(_("Berserk is chosen before the first move."))
            try:
                # Half the turn time at that table (the table core's clock).
                set_turn_percent(table_id=seat.game.table_id, seat=seat.number, percent=arena.BERSERK_TURN_PERCENT)
            except NotAllowed:
                raise TournamentError(_("Berserk is chosen before the first move.")) from None
            seat.berserk = True
            seat.save(update_fields=["berserk"])
        else:
            player.berserk = True
            player.save(update_fields=["berserk"])
    return player


# --- The schedule -------------------------------------------------------------------


def next_slot(schedule: Schedule, now: datetime) -> datetime:
    """The first start of ``schedule`` at or after ``now`` (UTC)."""
    moment = now.astimezone(UTC)
    if schedule.cadence == Schedule.Cadence.HOURLY:
        slot = moment.replace(minute=schedule.minute, second=0, microsecond=0)
        step = timedelta(hours=1)
    elif schedule.cadence == Schedule.Cadence.DAILY:
        slot = moment.replace(hour=schedule.hour, minute=schedule.minute, second=0, microsecond=0)
        step = timedelta(days=1)
    elif schedule.cadence == Schedule.Cadence.WEEKLY:
        slot = moment.replace(hour=schedule.hour, minute=schedule.minute, second=0, microsecond=0)
        slot += timedelta(days=(schedule.weekday - moment.weekday()) % 7)
        step = timedelta(weeks=1)
    else:
        raise ValueError(f"unknown cadence {schedule.cadence!r}")
    while slot < moment:
        slot += step
    return slot


def schedule_due(*, now: datetime | None = None) -> int:
    """Create the next tournament of every active schedule whose next start
    is within its lead time; returns how many were created. Each slot is
    created once (``tournament_once_per_slot``): a second tick, or two at
    once, change nothing."""
    moment = now or timezone.now()
    created = 0
    for schedule in Schedule.objects.filter(active=True):
        starts_at = next_slot(schedule, moment)
        if starts_at - moment > timedelta(minutes=schedule.lead_minutes):
            continue
        if Tournament.objects.filter(schedule=schedule, starts_at=starts_at).exists():
            continue
        try:
            check_settings(
                format=schedule.format, mode=schedule.mode, minutes=schedule.minutes, rounds=schedule.rounds
            )
        except TournamentError as error:
            logger.warning("schedule %d cannot create its tournament: %s", schedule.pk, error)
            continue
        is_duplicate = schedule.format == Tournament.Format.DUPLICATE
        rounds = schedule.rounds if is_duplicate else 0
        try:
            with transaction.atomic():
                tournament = Tournament.objects.create(
                    format=schedule.format,
                    mode=schedule.mode,
                    minutes=schedule.minutes,
                    rounds=rounds,
                    rated=schedule.rated,
                    schedule=schedule,
                    starts_at=starts_at,
                    # A duplicate tournament lasts its rounds (``minutes`` each).
                    ends_at=starts_at + timedelta(minutes=schedule.minutes * max(rounds, 1)),
                )
                if is_duplicate:
                    duplicate.draw_rounds(tournament)
        except IntegrityError:
            continue  # another tick created this slot meanwhile
        created += 1
    return created


# --- The periodic job -----------------------------------------------------------


def tick(*, now: datetime | None = None) -> dict[str, int]:
    """Start the tournaments whose time has come, score the games whose end
    signal was lost, pair the free players of every running one, end those
    whose time (and grace) is over."""
    moment = now or timezone.now()
    scheduled = schedule_due(now=moment)
    started = Tournament.objects.filter(status=Tournament.Status.CREATED, starts_at__lte=moment).update(
        status=Tournament.Status.STARTED
    )
    scored = score_missed()
    paired = finished = 0
    for tournament in Tournament.objects.filter(status=Tournament.Status.STARTED):
        if tournament.format == Tournament.Format.DUPLICATE:
            paired += duplicate.run(tournament=tournament, now=moment, grace=grace())
            if duplicate.all_over(tournament) and finish(tournament=tournament, now=moment):
                finished += 1
        elif moment < tournament.ends_at:
            paired += len(pair_free(tournament=tournament, now=moment))
        elif finish(tournament=tournament, now=moment):
            finished += 1
    return {"scheduled": scheduled, "started": started, "scored": scored, "paired": paired, "finished": finished}


def pair_free(*, tournament: Tournament, now: datetime | None = None) -> list[Table]:
    """One wave: pair the tournament's free players and seat each pair at a
    table; returns the new tables."""
    moment = now or timezone.now()
    if tournament.status != Tournament.Status.STARTED or moment >= tournament.ends_at:
        return []
    if tournament.format == Tournament.Format.DUPLICATE:
        return []  # its rounds are paired at their times (tournaments.duplicate)
    spec = RANKED_MODES[tournament.mode]
    tables: list[Table] = []
    with transaction.atomic():
        if not try_lock(f"tournament:{tournament.pk}"):
            return tables
        free = selectors.free_players(tournament)
        if len(free) < 2:
            return tables
        ranks = selectors.ranks(tournament)
        by_id = {player.pk: player for player in free}
        groups: list[tuple[Free, ...]]
        if spec.players == arena.FOUR_PLAYERS:
            # Tables of four, avoiding the others of one's last table.
            last = selectors.last_tables(tournament, list(by_id))
            wave = [Free(player.pk, ranks[player.pk], last_table=last.get(player.pk, frozenset())) for player in free]
            groups = list(group_wave(wave))
        else:
            wave = [Free(player.pk, ranks[player.pk], player.last_opponent_id) for player in free]
            groups = list(pair_wave(wave))
        for group in groups:
            players = [by_id[item.player] for item in group]
            # Alternate who opens: the one with fewer games so far sits first.
            players.sort(key=lambda player: (player.games, player.pk))
            try:
                with transaction.atomic():
                    table = create_table(
                        kind=Table.Kind.RANKED if tournament.rated else Table.Kind.PRIVATE,
                        rules=spec.rules,
                        preset=spec.preset,
                        seats=[
                            SeatSpec(
                                user=player.user,
                                turn_percent=arena.BERSERK_TURN_PERCENT if player.berserk else 100,
                            )
                            for player in players
                        ],
                        public=True,
                        mode=spec.key if tournament.rated else "",
                        hold_seats=True,
                    )
                    game = TournamentGame.objects.create(tournament=tournament, table=table)
                    for number, player in enumerate(players):
                        GameSeat.objects.create(game=game, player=player, number=number, berserk=player.berserk)
                    if len(players) == 2:
                        for player, other in ((players[0], players[1]), (players[1], players[0])):
                            Player.objects.filter(pk=player.pk).update(last_opponent=other, berserk=False)
                    else:
                        # A four-player table: the last table is read from the seats.
                        Player.objects.filter(pk__in=[player.pk for player in players]).update(berserk=False)
            except InGame:
                # Seated elsewhere since the read: they wait for the next wave.
                continue
            tables.append(table)
            frame = {
                "type": "matched",
                "table": table.pk,
                "url": reverse("games:table", args=[table.pk]),
                "tournament": tournament.pk,
            }
            user_ids = [player.user_id for player in players]
            transaction.on_commit(partial(_announce_table, table.pk, user_ids, frame))
    if tables:
        logger.info("tournament %d: paired %d table(s)", tournament.pk, len(tables))
    return tables


def _announce_table(table_id: int, user_ids: list[int], frame: dict[str, Any]) -> None:
    """Send the players of a new table its ``matched`` frame (after the commit),
    unless its game is already over: a deal over at its automatic opening ends
    as the table is created, and its end, run first after the same commit, has
    scored it and sent its players on to their next table; this frame, coming
    after, would send them back to the finished one."""
    if Table.objects.filter(pk=table_id, status__in=[Table.Status.WAITING, Table.Status.PLAYING]).exists():
        broadcast.send_to_users(user_ids, frame)


def finish(*, tournament: Tournament, now: datetime | None = None) -> bool:
    """End a tournament whose time is over once its games are done (or the
    grace has passed): the standings freeze. Computed once (False after)."""
    moment = now or timezone.now()
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.format == Tournament.Format.DUPLICATE:
            # After the last round (every round over), whatever the clock says.
            if locked.status != Tournament.Status.STARTED or not duplicate.all_over(locked):
                return False
            locked.final_standings = duplicate.final_rows(locked)
            locked.status = Tournament.Status.FINISHED
            locked.finished_at = moment
            locked.save(update_fields=["final_standings", "status", "finished_at"])
            logger.info("tournament %d finished", tournament.pk)
            return True
        if locked.status != Tournament.Status.STARTED or moment < locked.ends_at:
            return False
        playing = TournamentGame.objects.filter(
            tournament=locked, table__status__in=[Table.Status.WAITING, Table.Status.PLAYING]
        ).exists()
        if playing and moment < locked.ends_at + grace():
            return False
        # A game over whose scoring has not run (its end signal lost, or it ended
        # after this tick's score_missed) counts: scored now, under this lock,
        # before the standings freeze (record_game refuses a finished tournament).
        for table_id in _unscored(locked):
            record_game(table_id=table_id)
        locked.final_standings = [
            {
                "rank": row.rank,
                "player": row.player.user.username,
                "user_id": row.player.user_id,
                "score": row.player.score,
                "wins": row.player.wins,
                "games": row.player.games,
            }
            for row in selectors.standings(locked)
        ]
        locked.status = Tournament.Status.FINISHED
        locked.finished_at = moment
        locked.save(update_fields=["final_standings", "status", "finished_at"])
        everyone = (1, max(1, len(locked.final_standings)))
        transaction.on_commit(partial(announce_standings, tournament_id=locked.pk, ranks=everyone))
    logger.info("tournament %d finished", tournament.pk)
    return True


# --- Scoring a finished game -------------------------------------------------------


def game_facts(game: Game, seats: list[GameSeat]) -> list[arena.Facts]:
    """Each tournament seat's facts of a finished game (games/verifier/arena.py)."""
    state = game_selectors.game_state(game)
    if state is None or not state.game_over:
        raise ValueError("the game is not over")
    plays = Move.objects.filter(game=game, kind=Move.Kind.PLAY).values_list("kind", "seat", "payload")
    laid = arena.tiles_laid(Event.from_row(kind, seat, payload) for kind, seat, payload in plays)
    return [
        arena.facts_of(state, seat.number, tiles_laid=laid.get(seat.number, 0), berserk=seat.berserk)
        for seat in seats
    ]


def record_game(*, table_id: int) -> list[Score]:
    """Score a finished tournament game, once: its ``Score`` rows are unique
    per game and player, so that a second delivery writes nothing. A game
    that ends after the standings froze scores nothing."""
    game_row = TournamentGame.objects.filter(table_id=table_id).select_related("tournament").first()
    if game_row is None:
        return []
    if game_row.round_id is not None:
        return duplicate.record(game_row=game_row)
    game = Game.objects.filter(table_id=table_id, table__status=Table.Status.FINISHED).first()
    if game is None:
        return []
    seats = list(GameSeat.objects.filter(game=game_row).order_by("number"))
    facts = game_facts(game, seats)
    try:
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=game_row.tournament_id)
            if tournament.status != Tournament.Status.STARTED:
                return []
            return score_seats(tournament=tournament, game_row=game_row, seats=seats, facts=facts)
    except IntegrityError:
        # Already scored (the unique constraint): nothing counted twice.
        return []


def score_seats(
    *, tournament: Tournament, game_row: TournamentGame, seats: list[GameSeat], facts: list[arena.Facts]
) -> list[Score]:
    """The standings update of one game: each seat's ``Score`` row and running
    total, and the standings announced after the commit. Inside the caller's
    transaction, with the tournament's row locked (``record_game``), so that
    the scoring is one game at a time per tournament: the ranks read before
    and after are exact, and only the ranks between them move (the frame's
    viewers outside them keep their rows)."""
    players = {
        player.pk: player
        for player in Player.objects.select_for_update().filter(pk__in=[seat.player_id for seat in seats])
    }
    before = selectors.ranks_of(tournament.pk, [selectors.standing_key(player) for player in players.values()])
    scores: list[Score] = []
    keys: list[selectors.StandingKey] = []
    for seat, fact in zip(seats, facts, strict=True):
        player = players[seat.player_id]
        points, streak = arena.score(fact, player.streak)
        scores.append(Score(game=game_row, player=player, points=points, outcome=fact.outcome))
        counted = 0 if fact.aborted else 1
        won = counted if fact.outcome == arena.WINNING else 0
        Player.objects.filter(pk=player.pk).update(
            score=F("score") + points, streak=streak, wins=F("wins") + won, games=F("games") + counted
        )
        keys.append((player.score + points, player.wins + won, player.joined_at, player.pk))
    # Once per game and player (the unique constraint: a second delivery fails here).
    Score.objects.bulk_create(scores)
    after = selectors.ranks_of(tournament.pk, keys)
    moved = (min(before + after), max(before + after))
    # Stored before announced: the frame goes out after the commit.
    transaction.on_commit(partial(announce_standings, tournament_id=tournament.pk, ranks=moved))
    return scores


def announce_standings(*, tournament_id: int, ranks: tuple[int, int]) -> None:
    """Send the tournament page's sockets the new standings (their shared part;
    each socket adds its viewer's rank and the rows around it when ``ranks``,
    the ranks that moved, reach them). A failed send is logged: a socket
    that reconnects gets the whole frame."""
    layer = get_channel_layer()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if layer is None or tournament is None:
        return
    message = {
        "type": "tournament.standings",
        "frame": selectors.base_frame(tournament, streak_after=arena.STREAK_AFTER),
        "lo": ranks[0],
        "hi": ranks[1],
    }
    try:
        async_to_sync(layer.group_send)(selectors.frame_group(tournament_id), message)
    except Exception:
        logger.exception("could not announce the standings of tournament %d", tournament_id)


def _unscored(tournament: Tournament) -> list[int]:
    """The tables of the tournament's finished games that have no score yet."""
    return list(
        TournamentGame.objects.filter(
            tournament=tournament, table__status=Table.Status.FINISHED, scores__isnull=True
        ).values_list("table_id", flat=True)
    )


def score_missed(*, limit: int = 50) -> int:
    """Score the finished games of running tournaments whose end signal was
    lost (a process that stopped between the commit and the receiver)."""
    missed = TournamentGame.objects.filter(
        tournament__status=Tournament.Status.STARTED, table__status=Table.Status.FINISHED, scores__isnull=True
    ).values_list("table_id", flat=True)[:limit]
    return sum(1 for table_id in list(missed) if record_game(table_id=table_id))


def after_game(*, table_id: int) -> dict[str, Any]:
    """A tournament game ended: score it, and pair its players again at once."""
    scores = record_game(table_id=table_id)
    tables: list[Table] = []
    game_row = TournamentGame.objects.filter(table_id=table_id).select_related("tournament").first()
    if game_row is not None and game_row.round_id is not None:
        # A duplicate table: the round closes (its seed revealed) with its last table.
        duplicate.close_rounds(tournament=game_row.tournament, now=timezone.now(), grace=grace())
    elif game_row is not None:
        tables = pair_free(tournament=game_row.tournament)
    return {"scored": len(scores), "paired": len(tables)}
