"""The writes and reads of duplicate tournaments (docs/tournaments.md,
"Duplicate"): the rounds drawn at the creation (seed and commitment), each
round started at its time (every table dealt from the round's seed), the
results recorded, the round closed (its seed revealed, the games' seeds
unsealed) once its tables are over, and the matchpoint standings
(games/verifier/duplicate.py). ``tournaments.services`` calls these."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse

from games.engine import commit_seed
from games.fairplay.fairness import new_seed
from games.models import Game, Table
from games.play import selectors as game_selectors
from games.play.locks import try_lock
from games.play.modes import RANKED_MODES
from games.play.services import InGame, SeatSpec, abort_game, create_table, unseal
from games.verifier import arena, duplicate
from lobby import broadcast
from tournaments import selectors
from tournaments.models import GameSeat, Player, Round, Score, Tournament, TournamentGame
from tournaments.pairing import COMPUTER, pair_round

logger = logging.getLogger(__name__)

ROUNDS = (1, 12)
COMPUTER_LEVEL = "medium"
"""The level of an odd player's computer opponent."""

LIVE = [Table.Status.WAITING, Table.Status.PLAYING]


def draw_rounds(tournament: Tournament) -> list[Round]:
    """The rounds of a new duplicate tournament, each with its private seed
    and its public commitment (shown before the round)."""
    rounds = []
    for number in range(1, tournament.rounds + 1):
        starts_at = tournament.starts_at + timedelta(minutes=tournament.minutes * (number - 1))
        seed = new_seed()
        rounds.append(
            Round(
                tournament=tournament,
                number=number,
                starts_at=starts_at,
                ends_at=starts_at + timedelta(minutes=tournament.minutes),
                seed=seed,
                commitment=commit_seed(seed),
            )
        )
    return Round.objects.bulk_create(rounds)


def _history(tournament: Tournament) -> tuple[set[frozenset[int]], dict[int, int], dict[int, int]]:
    """The pairs that met, the games against the computer and at seat 0, by player."""
    met: set[frozenset[int]] = set()
    computer: dict[int, int] = {}
    first: dict[int, int] = {}
    by_game: dict[int, list[int]] = {}
    for game_id, player_id, number, level in GameSeat.objects.filter(game__tournament=tournament).values_list(
        "game_id", "player_id", "number", "game__computer"
    ):
        by_game.setdefault(game_id, []).append(player_id)
        if level:
            computer[player_id] = computer.get(player_id, 0) + 1
        if number == 0:
            first[player_id] = first.get(player_id, 0) + 1
    for players in by_game.values():
        if len(players) == 2:
            met.add(frozenset(players))
    return met, computer, first


def start_round(*, tournament: Tournament, round: Round, now: datetime) -> list[Table]:
    """Start a round whose time has come: its free players paired (no repeat
    when avoidable, an odd one against the computer) and seated, every table
    dealt from the round's seed. Once (a conditional update)."""
    spec = RANKED_MODES[tournament.mode]
    tables: list[Table] = []
    with transaction.atomic():
        if not try_lock(f"tournament:{tournament.pk}"):
            return tables
        if not Round.objects.filter(pk=round.pk, started_at__isnull=True).update(started_at=now):
            return tables
        free = selectors.free_players(tournament)
        by_id = {player.pk: player for player in free}
        ranks = selectors.ranks(tournament)
        ordered = sorted(by_id, key=lambda pk: ranks.get(pk, 0))
        met, computer_games, first = _history(tournament)
        for pair in pair_round(ordered, met, computer_games):
            humans = [by_id[pk] for pk in pair if pk != COMPUTER]
            # Seat 0 to the one who has held it less (then the first joined).
            humans.sort(key=lambda player: (first.get(player.pk, 0), player.joined_at, player.pk))
            against_computer = COMPUTER in pair
            if against_computer:
                # The computer takes seat 0 from a player who held it more than seat 1.
                person_first = first.get(humans[0].pk, 0) * 2 <= humans[0].games
                specs = [SeatSpec(user=humans[0].user), SeatSpec(level=COMPUTER_LEVEL)]
                if not person_first:
                    specs.reverse()
                numbers = [0 if person_first else 1]
            else:
                specs = [SeatSpec(user=player.user) for player in humans]
                numbers = [0, 1]
            rated = tournament.rated and not against_computer
            try:
                with transaction.atomic():
                    table = create_table(
                        kind=Table.Kind.RANKED if rated else Table.Kind.PRIVATE,
                        rules=spec.rules,
                        preset=spec.preset,
                        seats=specs,
                        # Not watchable: the other tables play the same deal.
                        public=False,
                        mode=spec.key if rated else "",
                        round_seed=round.seed,
                        # One game at a time even against the computer (one person).
                        hold_seats=True,
                    )
                    game = TournamentGame.objects.create(
                        tournament=tournament,
                        table=table,
                        round=round,
                        computer=COMPUTER_LEVEL if against_computer else "",
                    )
                    for number, player in zip(numbers, humans, strict=True):
                        GameSeat.objects.create(game=game, player=player, number=number)
            except InGame:
                continue  # seated elsewhere since the read: they sit this round out
            tables.append(table)
            frame = {
                "type": "matched",
                "table": table.pk,
                "url": reverse("games:table", args=[table.pk]),
                "tournament": tournament.pk,
            }
            transaction.on_commit(partial(broadcast.send_to_users, [player.user_id for player in humans], frame))
    logger.info("tournament %d: round %d started with %d table(s)", tournament.pk, round.number, len(tables))
    return tables


def close_rounds(*, tournament: Tournament, now: datetime, grace: timedelta) -> int:
    """Close the started rounds whose tables are all over (or, after the
    round's time and the grace, stop the games still playing): the round's
    seed is revealed and its games' seeds published. Returns how many closed."""
    closed = 0
    for round in Round.objects.filter(tournament=tournament, started_at__isnull=False, over_at__isnull=True):
        live = list(
            Game.objects.filter(table__tournament_game__round=round, table__status__in=LIVE).values_list(
                "pk", flat=True
            )
        )
        if live:
            if now < round.ends_at + grace:
                continue
            for game_id in live:
                abort_game(game_id=game_id, reason="tournament_round_over")
        with transaction.atomic():
            if not Round.objects.filter(pk=round.pk, over_at__isnull=True).update(over_at=now):
                continue
            unseal(table_ids=list(TournamentGame.objects.filter(round=round).values_list("table_id", flat=True)))
        closed += 1
        logger.info("tournament %d: round %d over, its seed revealed", tournament.pk, round.number)
    return closed


def run(*, tournament: Tournament, now: datetime, grace: timedelta) -> int:
    """The periodic tick's work for a running duplicate tournament: close the
    rounds that are over, start those whose time has come. Returns the tables opened."""
    close_rounds(tournament=tournament, now=now, grace=grace)
    opened = 0
    for round in Round.objects.filter(tournament=tournament, started_at__isnull=True, starts_at__lte=now):
        opened += len(start_round(tournament=tournament, round=round, now=now))
    return opened


def all_over(tournament: Tournament) -> bool:
    return not Round.objects.filter(tournament=tournament, over_at__isnull=True).exists()


def record(*, game_row: TournamentGame) -> list[Score]:
    """Record a finished duplicate table's results, once (``tournament_score_once``):
    each player's outcome and margin. A game stopped unfinished records nothing."""
    game = Game.objects.filter(table_id=game_row.table_id, table__status=Table.Status.FINISHED).first()
    if game is None:
        return []
    state = game_selectors.game_state(game)
    if state is None or not state.game_over:
        return []
    seats = list(GameSeat.objects.filter(game=game_row).select_related("player__user").order_by("number"))
    scores: list[Score] = []
    try:
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=game_row.tournament_id)
            if tournament.status != Tournament.Status.STARTED:
                return []
            for seat in seats:
                result = duplicate.result_of(state, seat.number, seat.player.user.username)
                scores.append(
                    Score.objects.create(game=game_row, player=seat.player, points=result.margin, outcome=result.outcome)
                )
                Player.objects.filter(pk=seat.player_id).update(
                    wins=F("wins") + (1 if result.outcome == arena.WINNING else 0), games=F("games") + 1
                )
    except IntegrityError:
        return []
    return scores


# --- Reads ---------------------------------------------------------------------------


def round_results(tournament: Tournament) -> dict[int, list[tuple[int, duplicate.Result]]]:
    """Round number -> [(table, result)], in the order the results were recorded."""
    rows = (
        Score.objects.filter(game__tournament=tournament, game__round__isnull=False)
        .select_related("player__user", "game__round")
        .order_by("pk")
    )
    seats = {
        (game_id, player_id): number
        for game_id, player_id, number in GameSeat.objects.filter(game__tournament=tournament).values_list(
            "game_id", "player_id", "number"
        )
    }
    by_round: dict[int, list[tuple[int, duplicate.Result]]] = {}
    for score in rows:
        assert score.game.round is not None
        result = duplicate.Result(
            player=score.player.user.username,
            seat=seats[(score.game_id, score.player_id)],
            outcome=score.outcome,
            margin=score.points,
        )
        by_round.setdefault(score.game.round.number, []).append((score.game.table_id, result))
    return by_round


def scored_rounds(tournament: Tournament) -> dict[int, list[tuple[int, duplicate.Scored]]]:
    return {
        number: list(zip([table for table, _r in results], duplicate.score_round([r for _t, r in results]), strict=True))
        for number, results in sorted(round_results(tournament).items())
    }


@dataclass(frozen=True)
class DuplicateRow:
    rank: int
    player: Player
    score: str
    matchpoints: int
    rounds: int


def standings(tournament: Tournament) -> list[DuplicateRow]:
    """The matchpoint standings (the sum of the round percentages)."""
    players = list(Player.objects.filter(tournament=tournament).select_related("user").order_by("joined_at", "pk"))
    by_name = {player.user.username: player for player in players}
    rows = duplicate.standings(
        [player.user.username for player in players],
        [[scored for _table, scored in results] for results in scored_rounds(tournament).values()],
    )
    return [DuplicateRow(row.rank, by_name[row.player], row.score, row.matchpoints, row.rounds) for row in rows]


def final_rows(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "rank": row.rank,
            "player": row.player.user.username,
            "user_id": row.player.user_id,
            "score": row.score,
            "matchpoints": row.matchpoints,
            "rounds": row.rounds,
            "wins": row.player.wins,
            "games": row.player.games,
        }
        for row in standings(tournament)
    ]


@dataclass(frozen=True)
class RoundView:
    number: int
    starts_at: datetime
    ends_at: datetime
    commitment: str
    seed: str  # "" until the round is over
    status: str  # "coming", "playing", "over"
    tables: int
    computer_tables: list[int]


def rounds(tournament: Tournament) -> list[RoundView]:
    views = []
    for round in Round.objects.filter(tournament=tournament).order_by("number"):
        games = list(TournamentGame.objects.filter(round=round).values_list("table_id", "computer"))
        status = "over" if round.over_at else "playing" if round.started_at else "coming"
        views.append(
            RoundView(
                number=round.number,
                starts_at=round.starts_at,
                ends_at=round.ends_at,
                commitment=round.commitment,
                seed=round.revealed_seed,
                status=status,
                tables=len(games),
                computer_tables=[table for table, level in games if level],
            )
        )
    return views


@dataclass(frozen=True)
class RoundCountdown:
    number: int
    to: str  # "start" or "end"
    seconds: int


def round_countdown(views: list[RoundView], now: datetime) -> RoundCountdown | None:
    """What the page counts down to in a duplicate tournament: the end of the
    round being played (the earliest one still within its time), else the
    start of the next round to come (0 once its time has come, until the tick
    starts it); None when neither (the last round in its grace, or all over)."""
    playing = [view for view in views if view.status == "playing" and view.ends_at > now]
    if playing:
        view = min(playing, key=lambda view: view.ends_at)
        return RoundCountdown(view.number, "end", int((view.ends_at - now).total_seconds()))
    coming = next((view for view in views if view.status == "coming"), None)
    if coming is not None:
        return RoundCountdown(coming.number, "start", max(0, int((coming.starts_at - now).total_seconds())))
    return None


def current_round(views: list[RoundView]) -> RoundView | None:
    """The round being played, else the next to come."""
    return next((view for view in views if view.status == "playing"), None) or next(
        (view for view in views if view.status == "coming"), None
    )

