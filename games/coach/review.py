"""The post-game review's computation (docs/fair-play.md). The analysis of
each decision, from the player's view only, is ``games.coach.analysis.analyse``.

``build_review(game)`` is every move of a person with the hard level's choice
and its cost, and every computer move recomputed from its seat's view and its
decision seed, with whether it is the move played. The seeds come from the
game's seed, so the review is the same each time it is computed. It writes
nothing: ``games.coach.services.review_game`` (the body of the Celery task
queued when a game ends) stores it, once; ``games.coach.review_page`` shows it.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings

from games.coach.analysis import analyse, canonical, distinct_plays, play_key
from games.engine import Action, Event, PlayerView, State, action_to_json, computer_seed, view_for
from games.models import Game, Move, Seat
from games.play import selectors

REVIEW_VERSION = 1
# A move that costs at least this many points (expected) counts as a mistake.
MISTAKE_POINTS = 2.0
# How many of the costliest mistakes are highlighted.
BIGGEST = 3


def review_budget_ms() -> float:
    """The hard level's budget for a reviewed decision (``REVIEW_BUDGET_MS``)."""
    from games.ai import DEFAULT_BUDGET_MS

    return float(getattr(settings, "REVIEW_BUDGET_MS", DEFAULT_BUDGET_MS))


def review_deals() -> int:
    """Deals of the hidden tiles used to estimate the points of each play (``REVIEW_DEALS``)."""
    return int(getattr(settings, "REVIEW_DEALS", 300))


def _event(move: Move) -> Event:
    return Event.from_row(move.kind, move.seat, move.payload)


def _stored_action(move: Move) -> Action:
    return _event(move).action()


def check_computer_move(game: Game, move: Move, before: State, level: str) -> dict[str, Any]:
    """Recompute a computer move from its seat's view alone (through JSON, as
    anyone with the published seed can) and its decision seed, as the version of
    the computer recorded with it (``games.ai.recompute``: a move of a version this
    code does not run is marked "needs", with the versions that can recompute it)."""
    from games.ai import recompute

    recorded = _event(move).computer or {}
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
        "by": _event(move).by,
    }


def build_review(game: Game) -> dict[str, Any]:
    """The review of a finished game (deterministic: seeds come from the game's seed)."""
    from games.ai import SEARCH_VERSIONS

    seats = {seat.number: seat for seat in Seat.objects.filter(table_id=game.table_id)}
    moves: list[dict[str, Any]] = []
    computer: list[dict[str, Any]] = []
    before: State | None = None
    for move, state in selectors.iter_states(game):
        event = None if move is None else _event(move)
        if move is not None and event is not None and before is not None and event.is_turn and move.seat is not None:
            seat = seats.get(move.seat)
            by = event.by
            level = (event.computer or {}).get("level") or (seat.level if seat is not None else "")
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


# -- what the replay page shows ---------------------------------------------------------
