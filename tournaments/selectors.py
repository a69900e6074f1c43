"""The reads of the tournaments: lists, standings, free players, a member's entry."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from community import selectors as community_selectors
from games.models import Seat, Table
from tournaments.models import GameSeat, Player, Tournament

LIVE = [Table.Status.WAITING, Table.Status.PLAYING]
TOP = 10


def listed(*, now: datetime | None = None) -> dict[str, list[Tournament]]:
    """The public tournaments: starting soon, running, recently finished."""
    public = Tournament.objects.filter(private=False)
    return {
        "created": list(public.filter(status=Tournament.Status.CREATED).order_by("starts_at")[:20]),
        "started": list(public.filter(status=Tournament.Status.STARTED).order_by("ends_at")[:20]),
        "finished": list(public.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:20]),
    }


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
    score: int
    games: int
    withdrawn: bool

    @property
    def trophy(self) -> int | None:
        """1, 2 or 3: a podium place of a finished tournament."""
        if self.tournament.status == Tournament.Status.FINISHED and self.rank is not None and self.rank <= 3:
            return self.rank
        return None


def _final_rank(tournament: Tournament, user_id: int) -> tuple[int | None, int, int]:
    for row in tournament.final_standings:
        if row.get("user_id") == user_id:
            return int(row["rank"]), int(row["score"]), int(row["games"])
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


def standings(tournament: Tournament) -> list[Row]:
    return [Row(rank, player) for rank, player in enumerate(ranked_players(tournament), start=1)]


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
