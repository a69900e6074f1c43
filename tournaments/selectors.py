"""The reads of the tournaments: lists, standings, free players, a member's entry."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import pgettext

from accounts.selectors import bot_ids, closed_ids, shown_name
from community import selectors as community_selectors
from games.models import Seat, Table
from tournaments.models import GameSeat, Player, Tournament

LIVE = [Table.Status.WAITING, Table.Status.PLAYING]
TOP = 10


def listed(*, now: datetime | None = None) -> dict[str, list[Tournament]]:
    """The public tournaments: starting soon, running, recently finished (each
    finished one with ``winner``, its first row as shown: ``shown_final``)."""
    public = Tournament.objects.filter(private=False)
    finished = list(public.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:20])
    winners = shown_final([tournament.final_standings[0] for tournament in finished if tournament.final_standings])
    first = iter(winners)
    for tournament in finished:
        tournament.winner = next(first) if tournament.final_standings else None  # type: ignore[attr-defined]
    return {
        "created": list(public.filter(status=Tournament.Status.CREATED).order_by("starts_at")[:20]),
        "started": list(public.filter(status=Tournament.Status.STARTED).order_by("ends_at")[:20]),
        "finished": finished,
    }


def shown_final(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of frozen final standings as the pages show them: a closed
    account's name (stored when the tournament ended) replaced by "Closed
    account" (accounts.selectors.shown_name)."""
    closed = closed_ids(row.get("user_id") for row in rows)
    closed_name = pgettext("seat", "Closed account")
    return [{**row, "player": closed_name} if row.get("user_id") in closed else row for row in rows]


def next_tournament() -> Tournament | None:
    """The public tournament starting next (else the one running that ends
    last), for the home page; None when there is none."""
    public = Tournament.objects.filter(private=False)
    coming = public.filter(status=Tournament.Status.CREATED).order_by("starts_at", "pk").first()
    if coming is not None:
        return coming
    return public.filter(status=Tournament.Status.STARTED).order_by("-ends_at", "pk").first()


@dataclass(frozen=True)
class Entry:
    """One tournament of a member's history: their rank (final once finished)."""

    tournament: Tournament
    rank: int | None
    score: int | str  # a duplicate tournament's: its percentage ("150.00")
    games: int
    withdrawn: bool

    @property
    def trophy(self) -> int | None:
        """1, 2 or 3: a podium place of a finished tournament."""
        if self.tournament.status == Tournament.Status.FINISHED and self.rank is not None and self.rank <= 3:
            return self.rank
        return None


def _final_rank(tournament: Tournament, user_id: int) -> tuple[int | None, int | str, int]:
    for row in tournament.final_standings:
        if row.get("user_id") == user_id:
            score = row["score"] if isinstance(row["score"], str) else int(row["score"])
            return int(row["rank"]), score, int(row["games"])
    return None, 0, 0


def history(member_id: int, *, viewer_id: int | None = None, limit: int = 20) -> list[Entry]:
    """The member's tournaments, newest first (a private one only to the member
    themselves: its link is not theirs to give away)."""
    entries = Player.objects.filter(user_id=member_id).select_related("tournament")
    if viewer_id != member_id:
        entries = entries.filter(tournament__private=False)
    result = []
    for player in entries.order_by("-tournament__starts_at", "-pk")[:limit]:
        tournament = player.tournament
        if tournament.status == Tournament.Status.FINISHED:
            rank, score, games = _final_rank(tournament, member_id)
        else:
            rank, score, games = ranks(tournament).get(player.pk), player.score, player.games
        result.append(Entry(tournament, rank, score, games, player.withdrawn))
    return result


def member_entries(member_id: int) -> list[dict[str, Any]]:
    """Every tournament the member joined, oldest first, for their data file
    (``accounts.hooks.export_parts``): its format, mode, start, status, and the
    member's rank, score, games, whether they withdrew or went berserk."""
    rows = []
    for entry in reversed(history(member_id, viewer_id=member_id, limit=100_000)):
        tournament = entry.tournament
        rows.append(
            {
                "tournament": tournament.pk,
                "format": tournament.format,
                "mode": tournament.mode,
                "starts_at": tournament.starts_at.isoformat(),
                "status": tournament.status,
                "rank": entry.rank,
                "score": entry.score,
                "games": entry.games,
                "withdrawn": entry.withdrawn,
            }
        )
    return rows


def trophies(member_id: int, *, viewer_id: int | None = None) -> dict[int, int]:
    """How many times the member finished 1st, 2nd and 3rd ({1: n, 2: n, 3: n}),
    over every finished tournament (the private ones only to the member)."""
    finished = Tournament.objects.filter(status=Tournament.Status.FINISHED, players__user_id=member_id)
    if viewer_id != member_id:
        finished = finished.filter(private=False)
    counts = {1: 0, 2: 0, 3: 0}
    for standings_rows in finished.values_list("final_standings", flat=True):
        for row in standings_rows:
            if row.get("user_id") == member_id and int(row.get("rank", 0)) in counts:
                counts[int(row["rank"])] += 1
    return counts


def ranked_players(tournament: Tournament) -> QuerySet[Player]:
    """The players in the order of the standings (games/verifier/arena.py: points,
    wins, then the order of joining)."""
    return (
        Player.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("-score", "-wins", "joined_at", "pk")
    )


@dataclass(frozen=True)
class Row:
    rank: int
    player: Player
    # A bot account (docs/api.md), marked in the standings.
    bot: bool = False


def standings(tournament: Tournament) -> list[Row]:
    players = list(ranked_players(tournament))
    bots = bot_ids(player.user_id for player in players) if tournament.admits_bots else set()
    return [Row(rank, player, player.user_id in bots) for rank, player in enumerate(players, start=1)]


def ranks(tournament: Tournament) -> dict[int, int]:
    """Player id -> rank (1 = first)."""
    ids = ranked_players(tournament).values_list("pk", flat=True)
    return {pk: rank for rank, pk in enumerate(ids, start=1)}


def free_players(tournament: Tournament) -> list[Player]:
    """The players who may be paired now: neither paused nor withdrawn, at no
    live tournament table, and seated at no other game (one game at a time)."""
    busy_here = GameSeat.objects.filter(game__tournament=tournament, game__table__status__in=LIVE).values("player_id")
    candidates = list(
        Player.objects.filter(tournament=tournament, paused=False, withdrawn=False)
        .exclude(pk__in=busy_here)
        .select_related("user")
    )
    engaged = set(
        Seat.objects.filter(user_id__in=[player.user_id for player in candidates], engaged=True).values_list(
            "user_id", flat=True
        )
    )
    return [player for player in candidates if player.user_id not in engaged]


def last_tables(tournament: Tournament, player_ids: list[int]) -> dict[int, frozenset[int]]:
    """Player id -> the other players of their last table in the tournament
    (none before a first game): a four-player arena avoids seating them together again."""
    latest = dict(
        GameSeat.objects.filter(game__tournament=tournament, player_id__in=player_ids)
        .values("player_id")
        .annotate(last=Max("game_id"))
        .values_list("player_id", "last")
    )
    seated: dict[int, set[int]] = {}
    for game_id, player_id in GameSeat.objects.filter(game_id__in=set(latest.values())).values_list(
        "game_id", "player_id"
    ):
        seated.setdefault(game_id, set()).add(player_id)
    return {player_id: frozenset(seated.get(game_id, set()) - {player_id}) for player_id, game_id in latest.items()}


def entry(tournament: Tournament, user_id: int | None) -> Player | None:
    if user_id is None:
        return None
    return Player.objects.filter(tournament=tournament, user_id=user_id).first()


def chat(tournament: Tournament, user_id: int | None) -> list[dict[str, Any]] | None:
    """The tournament's chat as this viewer reads it (its last lines), or
    None: only the members who joined read it."""
    if entry(tournament, user_id) is None or user_id is None:
        return None
    return community_selectors.tournament_lines(tournament_id=tournament.pk, viewer_id=user_id)


def current_table(player: Player) -> Table | None:
    """The player's tournament table still being played, if any."""
    seat = (
        GameSeat.objects.filter(player=player, game__table__status__in=LIVE).select_related("game__table").first()
    )
    return seat.game.table if seat is not None else None


def live_tables(tournament: Tournament) -> list[Table]:
    """The tournament's games in progress (to watch)."""
    return list(
        Table.objects.filter(tournament_game__tournament=tournament, status__in=LIVE).order_by("-pk")[:20]
    )


def visible(tournament: Tournament, *, key: str = "", user_id: int | None = None) -> bool:
    """A private tournament is seen with its link, by its creator or by its players."""
    if not tournament.private:
        return True
    if key and key == tournament.token:
        return True
    if user_id is None:
        return False
    return bool(
        Tournament.objects.filter(pk=tournament.pk)
        .filter(Q(created_by_id=user_id) | Q(players__user_id=user_id))
        .exists()
    )


def seconds_left(tournament: Tournament, *, now: datetime | None = None) -> int:
    """Until the start (created) or the end (started); 0 once finished."""
    moment = now or timezone.now()
    if tournament.status == Tournament.Status.CREATED:
        return max(0, int((tournament.starts_at - moment).total_seconds()))
    if tournament.status == Tournament.Status.STARTED:
        return max(0, int((tournament.ends_at - moment).total_seconds()))
    return 0


# --- The live standings frame (docs/tournaments.md, "Live standings") ----------------

AROUND = 2
"""The ranks on either side of the viewer's own that the frame carries."""
NAME_CHARS = 24
"""A name in the frame is cut to this many characters (a username may have 150):
the frame stays under 4 KB whatever the names and the number of players."""
FRAME_GROUP = "tournament.{id}"


def frame_group(tournament_id: int) -> str:
    """The channel group of the tournament page's sockets (``/ws/tournament/<id>/``)."""
    return FRAME_GROUP.format(id=tournament_id)


def short_name(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "\u2026"


StandingKey = tuple[int, int, datetime, int]
"""What orders a player in the standings: (points, wins, joined at, id)."""


def standing_key(player: Player) -> StandingKey:
    return (player.score, player.wins, player.joined_at, player.pk)


def ranks_of(tournament_id: int, keys: list[StandingKey]) -> list[int]:
    """The ranks (1 = first) that players with these keys hold now, in one
    query: for each key, those with more points plus those with as many and
    ahead on the tie-breaks (wins, then the order of joining), each count a
    range of the standings index (``tournament_standings``). Plain SQL: the
    ORM's compilation of the same took most of the time of a game's update
    (docs/tournaments.md, "Benchmark")."""
    if not keys:
        return []
    table = connection.ops.quote_name(Player._meta.db_table)
    # Only the model's own table name is formatted in; every value is a parameter.
    ahead = (
        f"(SELECT COUNT(*) FROM {table} WHERE tournament_id = %s AND score > %s)"  # noqa: S608
        f" + (SELECT COUNT(*) FROM {table} WHERE tournament_id = %s AND score = %s AND (wins > %s"
        " OR (wins = %s AND (joined_at < %s OR (joined_at = %s AND id < %s)))))"
    )
    params: list[Any] = []
    for score, wins, joined_at, pk in keys:
        joined = connection.ops.adapt_datetimefield_value(joined_at)
        params += [tournament_id, score, tournament_id, score, wins, wins, joined, joined, pk]
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join([ahead] * len(keys)), params)
        row = cursor.fetchone()
    return [int(count) + 1 for count in row]


def rank_of(player: Player) -> int:
    """The player's rank now (1 = first)."""
    return ranks_of(player.tournament_id, [standing_key(player)])[0]


def _row(rank: int, player: Player, streak_after: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": short_name(shown_name(player.user)),
        "score": player.score,
        "games": player.games,
        "fire": player.streak >= streak_after,
    }


def top_rows(tournament_id: int, *, streak_after: int) -> list[dict[str, Any]]:
    """The first ``TOP`` rows of the standings, as the frame carries them."""
    players = Player.objects.filter(tournament_id=tournament_id).select_related("user")
    ordered = players.order_by("-score", "-wins", "joined_at", "pk")[:TOP]
    return [_row(rank, player, streak_after) for rank, player in enumerate(ordered, start=1)]


def around_rows(player: Player, rank: int, *, streak_after: int) -> list[dict[str, Any]]:
    """The rows from ``rank - AROUND`` to ``rank + AROUND`` that are below the top."""
    first = max(rank - AROUND, TOP + 1)
    last = rank + AROUND
    if last < first:
        return []
    players = Player.objects.filter(tournament_id=player.tournament_id).select_related("user")
    ordered = players.order_by("-score", "-wins", "joined_at", "pk")[first - 1 : last]
    return [_row(index, row, streak_after) for index, row in enumerate(ordered, start=first)]


def standings_frame(tournament: Tournament, user_id: int | None, *, streak_after: int) -> dict[str, Any]:
    """The ``standings`` frame for one viewer: the top ten, and for a player
    their own rank and the ranks around it."""
    rank, around = viewer_part(tournament.pk, user_id, streak_after=streak_after)
    return {**base_frame(tournament, streak_after=streak_after), "me": rank, "around": around}


def touches(rank: int | None, lo: int, hi: int) -> bool:
    """Whether ranks ``lo`` to ``hi`` changing changes a viewer's own rank or
    the rows around it (always, when their rank is not known)."""
    return rank is None or (rank - AROUND <= hi and lo <= rank + AROUND)


def base_frame(tournament: Tournament, *, streak_after: int) -> dict[str, Any]:
    """The part of the ``standings`` frame every viewer shares (no viewer's rank)."""
    return {
        "type": "standings",
        "tournament": tournament.pk,
        "status": tournament.status,
        "players": Player.objects.filter(tournament=tournament).count(),
        "top": top_rows(tournament.pk, streak_after=streak_after),
        "me": None,
        "around": [],
    }


def viewer_part(tournament_id: int, user_id: int | None, *, streak_after: int) -> tuple[int | None, list[dict[str, Any]]]:
    """(the viewer's rank, the rows around it), or (None, []) for one who did not join."""
    if user_id is None:
        return None, []
    mine = Player.objects.filter(tournament_id=tournament_id, user_id=user_id).first()
    if mine is None:
        return None, []
    rank = rank_of(mine)
    return rank, around_rows(mine, rank, streak_after=streak_after)


@dataclass(frozen=True)
class Reminder:
    """The next tournament a member joined, as every page shows it."""

    tournament: Tournament
    started: bool
    seconds_to_start: int


def reminder_for(member_id: int, *, now: datetime | None = None) -> Reminder | None:
    """The member's next tournament not over, which they joined and did not
    leave: the one starting soonest, a running one before a coming one. One
    query (the member's entries, by the ``Player.user`` index, joined to
    their tournaments)."""
    moment = now or timezone.now()
    player = (
        Player.objects.filter(
            user_id=member_id,
            withdrawn=False,
            tournament__status__in=[Tournament.Status.CREATED, Tournament.Status.STARTED],
        )
        .select_related("tournament")
        .order_by("-tournament__status", "tournament__starts_at", "tournament__pk")
        .first()
    )
    if player is None:
        return None
    tournament = player.tournament
    started = tournament.status == Tournament.Status.STARTED
    left = 0 if started else max(0, int((tournament.starts_at - moment).total_seconds()))
    return Reminder(tournament=tournament, started=started, seconds_to_start=left)
