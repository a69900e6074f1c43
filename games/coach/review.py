"""The post-game review (docs/fair-play.md). The analysis of each decision,
from the player's view only, is ``games.coach.analysis.analyse``.

``review_game(game_id=...)`` (the body of the Celery task queued when a game
ends) stores one ``GameReview`` per game: every move of a person with the
hard level's choice and its cost, and every computer move recomputed from its
seat's view and its decision seed, with whether it is the move played. The
seeds come from the game's seed, so the review is the same each time it is
computed: the task is idempotent.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from games import jobs
from games.coach.analysis import analyse, canonical, distinct_plays, play_key
from games.engine import Action, Draw, Pass, Play, PlayerView, State, Tile, action_to_json, view_for
from games.engine.verify import computer_seed
from games.fairplay.fairness import is_published
from games.models import Game, GameReview, Move, Seat, Table
from games.pages.forms import LEVEL_LABELS
from games.play import selectors

logger = logging.getLogger(__name__)

REVIEW_VERSION = 1
# A move that costs at least this many points (expected) counts as a mistake.
MISTAKE_POINTS = 2.0
# How many of the costliest mistakes are highlighted.
BIGGEST = 3
PLAY_KINDS = (Move.Kind.PLAY, Move.Kind.DRAW, Move.Kind.PASS)


def review_budget_ms() -> float:
    """The hard level's budget for a reviewed decision (``REVIEW_BUDGET_MS``)."""
    from games.ai import DEFAULT_BUDGET_MS

    return float(getattr(settings, "REVIEW_BUDGET_MS", DEFAULT_BUDGET_MS))


def review_deals() -> int:
    """Deals of the hidden tiles used to estimate the points of each play (``REVIEW_DEALS``)."""
    return int(getattr(settings, "REVIEW_DEALS", 300))


# -- words --------------------------------------------------------------------------


def action_text(action: Action | dict[str, Any]) -> str:
    """A move in words, in the active language ("6-4 on the right", "draw", "pass")."""
    frame = action if isinstance(action, dict) else action_to_json(action)
    if frame["type"] == "play":
        tile = "{}-{}".format(*frame["tile"])
        if frame.get("end") == "right":
            return _("%(tile)s on the right") % {"tile": tile}
        return _("%(tile)s on the left") % {"tile": tile}
    if frame["type"] == "draw":
        return _("draw a tile")
    return _("pass")


def points_text(points: float) -> str:
    """Expected points, signed, one decimal, in the active language's format
    ("+26.1", French "+26,1")."""
    rounded = round(points, 1)
    sign = "-" if rounded < 0 else "+"
    return sign + formats.number_format(abs(rounded), 1, use_l10n=True)


# -- the review of a finished game ----------------------------------------------------


def _stored_action(move: Move) -> Action:
    payload = move.payload or {}
    seat = move.seat if move.seat is not None else 0
    if move.kind == Move.Kind.PLAY:
        return Play(seat, Tile(*payload["tile"]), payload["end"])
    if move.kind == Move.Kind.DRAW:
        return Draw(seat)
    return Pass(seat)


def check_computer_move(game: Game, move: Move, before: State, level: str) -> dict[str, Any]:
    """Recompute a computer move from its seat's view alone (through JSON, as
    anyone with the published seed can) and its decision seed, as the version of
    the computer recorded with it (``games.ai.recompute``: a move of a version this
    code does not run is marked "needs", with the versions that can recompute it)."""
    from games.ai import recompute

    recorded = (move.payload or {}).get("computer") or {}
    budget = recorded.get("budget_ms")
    level = recorded.get("level") or level
    seat = move.seat if move.seat is not None else 0
    view = PlayerView.from_dict(json.loads(json.dumps(view_for(before, seat).to_dict())))
    decision_seed = computer_seed(game.seed, move.seq - 1)
    played = _stored_action(move)
    result = recompute(
        view, played, {"level": level, "budget_ms": budget, "version": recorded.get("version")}, seed=decision_seed
    )
    return {
        "seq": move.seq,
        "seat": seat,
        "round": before.round if not before.round_over else before.round + 1,
        "level": level,
        "budget_ms": budget,
        "version": result.version,
        "decision_seed": decision_seed,
        "played": action_to_json(played),
        "recomputed": None if result.chosen is None else action_to_json(result.chosen),
        "status": result.status,
        "needed": list(result.needed),
        "same": result.same,
    }


def computer_status(item: dict[str, Any]) -> tuple[str, list[str]]:
    """(status, versions needed) of a stored recomputation. Reviews stored before
    versions were recorded have no status: a move they found different was recorded
    without a version, so it needs the older versions its level may have run."""
    if "status" in item:
        return str(item["status"]), list(item.get("needed") or [])
    if item.get("same"):
        return "same", []
    from games.ai.versions import implements, possible_versions

    level = str(item.get("level") or "")
    try:
        older = [v for v in possible_versions(level, item.get("version")) if not implements(level, v)]
    except ValueError:
        older = []
    return ("needs", older) if older else ("differs", [])


def review_human_move(game: Game, move: Move, before: State) -> dict[str, Any] | None:
    """The hard level's opinion of one move of a person (None for a forced move)."""
    seat = move.seat if move.seat is not None else 0
    view = view_for(before, seat)
    if len(distinct_plays(view)) < 2:
        return None  # one play, a draw or a pass: nothing was chosen
    played = canonical(view, _stored_action(move))
    analysis = analyse(
        view, seed=computer_seed(game.seed, move.seq - 1), budget_ms=review_budget_ms(), deals=review_deals()
    )
    cost = round(analysis.cost_of(played), 2)
    agrees = play_key(played) == play_key(analysis.best)
    return {
        "seq": move.seq,
        "seat": seat,
        "round": before.round,
        "played": action_to_json(played),
        "best": action_to_json(analysis.best),
        "agrees": agrees,
        "cost": cost,
        "mistake": cost >= MISTAKE_POINTS,
        "options": [{"action": action_to_json(o.action), "points": o.points, "wins": o.wins} for o in analysis.options],
        "deals": analysis.deals,
        "by": (move.payload or {}).get("by", ""),
    }


def build_review(game: Game) -> dict[str, Any]:
    """The review of a finished game (deterministic: seeds come from the game's seed)."""
    from games.ai import SEARCH_VERSIONS

    seats = {seat.number: seat for seat in Seat.objects.filter(table_id=game.table_id)}
    moves: list[dict[str, Any]] = []
    computer: list[dict[str, Any]] = []
    before: State | None = None
    for move, state in selectors.iter_states(game):
        if move is not None and before is not None and move.kind in PLAY_KINDS and move.seat is not None:
            seat = seats.get(move.seat)
            payload = move.payload or {}
            by = payload.get("by", "")
            level = (payload.get("computer") or {}).get("level") or (seat.level if seat is not None else "")
            if seat is not None and (seat.is_computer or by in ("computer", "server")):
                # A computer's move, or one the server made for a person (a stand-in, a timeout).
                if level:
                    computer.append(check_computer_move(game, move, before, level))
            elif seat is not None and seat.is_human:
                reviewed = review_human_move(game, move, before)
                if reviewed is not None:
                    moves.append(reviewed)
        before = state
    summary: dict[str, dict[str, Any]] = {}
    for item in moves:
        row = summary.setdefault(str(item["seat"]), {"decisions": 0, "agreed": 0, "mistakes": 0, "cost": 0.0})
        row["decisions"] += 1
        row["agreed"] += int(item["agrees"])
        row["mistakes"] += int(item["mistake"])
        row["cost"] = round(row["cost"] + item["cost"], 2)
    biggest = sorted((m for m in moves if m["mistake"]), key=lambda m: (-m["cost"], m["seq"]))[:BIGGEST]
    return {
        "version": REVIEW_VERSION,
        "budget_ms": review_budget_ms(),
        "deals": review_deals(),
        "moves": moves,
        "biggest": [m["seq"] for m in biggest],
        "summary": summary,
        "computer": computer,
        "computer_same": sum(1 for c in computer if c["same"]),
        "computer_versions": dict(SEARCH_VERSIONS),
    }


def review_lease() -> timedelta:
    """How long a started review is left to its task before another may take
    it over (``REVIEW_LEASE_SECONDS``; a review of a long game takes a minute)."""
    return timedelta(seconds=float(getattr(settings, "REVIEW_LEASE_SECONDS", 600)))


def _claim(game: Game) -> GameReview | None:
    """The review row of ``game``, claimed for this task; None when it is
    done already or another task is computing it (within its lease)."""
    now = timezone.now()
    try:
        review, created = GameReview.objects.get_or_create(game=game, defaults={"started_at": now})
    except IntegrityError:  # created meanwhile by a concurrent task
        return None
    if created:
        return review
    if review.status == GameReview.Status.READY and (review.data or {}).get("version") == REVIEW_VERSION:
        return None
    free = (
        Q(status=GameReview.Status.FAILED)
        | Q(status=GameReview.Status.READY)  # an older version of the review
        | Q(started_at__isnull=True)
        | Q(started_at__lt=now - review_lease())
    )
    if not GameReview.objects.filter(pk=review.pk).filter(free).update(status=GameReview.Status.PENDING, started_at=now):
        return None
    return review


def review_game(*, game_id: int) -> str:
    """Compute and store the review of a finished game, once: "reviewed",
    "exists" (already done), "running" (another task is on it), "not_finished"
    or "no_game". Idempotent: a repeated, redelivered or concurrent task
    leaves one row with the same content and does not compute it twice."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return "no_game"
    if not is_published(game):
        return "not_finished"
    review = _claim(game)
    if review is None:
        done = GameReview.objects.filter(game=game, status=GameReview.Status.READY).exists()
        return "exists" if done else "running"
    try:
        data = build_review(game)
    except Exception:
        logger.exception("the review of game %s failed", game_id)
        GameReview.objects.filter(pk=review.pk).update(status=GameReview.Status.FAILED, finished_at=timezone.now())
        raise
    GameReview.objects.filter(pk=review.pk).update(
        status=GameReview.Status.READY, data=data, finished_at=timezone.now()
    )
    return "reviewed"


# -- what the replay page shows ---------------------------------------------------------


def _row(item: dict[str, Any], names: dict[int, str], biggest: Sequence[int]) -> dict[str, Any]:
    return {
        **item,
        "name": names.get(item["seat"], str(item["seat"])),
        "played_text": action_text(item["played"]),
        "best_text": action_text(item["best"]) if "best" in item else "",
        "recomputed_text": action_text(item["recomputed"]) if item.get("recomputed") else "",
        "cost_text": points_text(-item.get("cost", 0.0)),
        "big": item["seq"] in biggest,
        "options_text": [(action_text(o["action"]), points_text(o["points"])) for o in item.get("options", [])],
    }


def missing_reviews(*, limit: int = 5) -> list[int]:
    """Finished games, newest first, whose review is missing (a game finished
    before reviews existed, a lost task) or whose computation was abandoned
    (its lease ran out). Read by the periodic sweep (``requeue_missing_reviews``),
    which queues them: a page never queues work while it renders."""
    stale_pending = Q(review__status=GameReview.Status.PENDING) & (
        Q(review__started_at__isnull=True) | Q(review__started_at__lt=timezone.now() - review_lease())
    )
    return list(
        Game.objects.filter(finished_at__isnull=False, table__status=Table.Status.FINISHED, state__isnull=False)
        .filter(Q(review__isnull=True) | stale_pending)
        .order_by("-finished_at")
        .values_list("pk", flat=True)[:limit]
    )


def requeue_missing_reviews() -> int:
    """Queue the reviews of finished games that have none, or whose
    computation was abandoned (a few per sweep, newest first)."""
    missing = missing_reviews()
    for game_id in missing:
        jobs.queue_review(game_id)
    return len(missing)


def panel_context(game: Game) -> dict[str, Any]:
    """The review as the replay page shows it (read only: a missing review is
    queued by the periodic sweep, ``missing_reviews``)."""
    review = GameReview.objects.filter(game=game).first()
    names = {player["seat"]: player["name"] for player in selectors.table_players(game.table)}
    ready = review is not None and review.status == GameReview.Status.READY and review.data is not None
    data = review.data if ready and review is not None else {}
    biggest = data.get("biggest", [])
    moves = [_row(item, names, biggest) for item in data.get("moves", [])]
    by_seq = {row["seq"]: row for row in moves}
    summary = [
        {"seat": int(seat), "name": names.get(int(seat), seat), **row}
        for seat, row in sorted(data.get("summary", {}).items(), key=lambda item: int(item[0]))
    ]
    computer = []
    for item in data.get("computer", []):
        status, needed = computer_status(item)
        level = str(item.get("level") or "")
        computer.append({**_row(item, names, ()), "status": status, "needed": needed,
                         "needed_text": " / ".join(needed), "level_text": LEVEL_LABELS.get(level, level)})
    recomputed = [row for row in computer if row["status"] != "needs"]
    return {
        "game": game,
        "table": game.table,
        "review_ready": ready,
        "review_failed": review is not None and review.status == GameReview.Status.FAILED,
        "moves": moves,
        "biggest": [by_seq[seq] for seq in biggest if seq in by_seq],
        "summary": summary,
        "computer": computer,
        "computer_recomputed": recomputed,
        "computer_all_same": all(row["same"] for row in recomputed),
        "computer_same": sum(1 for row in recomputed if row["same"]),
        "computer_unchecked": [row for row in computer if row["status"] == "needs"],
        "mistake_points": MISTAKE_POINTS,
    }
