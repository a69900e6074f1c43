"""The post-game review as the replay page shows it (read only: a missing
review is queued by the periodic sweep, ``games.coach.services``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.coach.review import MISTAKE_POINTS, computer_status
from games.coach.wording import action_text, points_text
from games.models import Game, GameReview
from games.play import selectors
from games.play.modes import LEVEL_LABELS
from games.signals import review_mistake_puzzles


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
        # The chart's two points of this decision (its text alternative: the table of every choice).
        "best_points_text": _points_or_dash(option_points(item, item.get("best"))),
        "played_points_text": _points_or_dash(option_points(item, item.get("played"))),
    }


def _points_or_dash(points: float | None) -> str:
    return "\u2013" if points is None else points_text(points)  # an en dash, as the table's empty cells


def option_points(item: dict[str, Any], action: Any) -> float | None:
    """The expected points the stored review gives ``action`` (one of its
    ``options``), None when it has none (an older or partial review)."""
    for option in item.get("options") or ():
        if option.get("action") == action:
            return round(float(option["points"]), 2)
    return None


def review_chart(moves: Sequence[dict[str, Any]], names: dict[int, str], biggest: Sequence[int]) -> dict[str, Any]:
    """The review as a chart (static/js/charts.js), the game's swing: at each
    decision of a player (x the move's number), the points its side could
    expect from the round after the hard computer's choice and after the move
    played (the stored review's ``options[].points``: the gap is the cost),
    two lines per player; the biggest mistakes marked on the played line; and
    for each point the replay step that shows its position."""
    seqs = [int(item["seq"]) for item in moves]
    seats = sorted({int(item["seat"]) for item in moves})
    seat_of = {int(item["seq"]): int(item["seat"]) for item in moves}
    best = {int(item["seq"]): option_points(item, item.get("best")) for item in moves}
    played = {int(item["seq"]): option_points(item, item.get("played")) for item in moves}
    series: list[dict[str, Any]] = []
    for seat in seats:
        name = names.get(seat, str(seat))
        series.append(
            {
                "label": _("%(name)s: the hard computer's choice") % {"name": name},
                "values": [best[seq] if seat_of[seq] == seat else None for seq in seqs],
            }
        )
        series.append(
            {
                "label": _("%(name)s: the move played") % {"name": name},
                "values": [played[seq] if seat_of[seq] == seat else None for seq in seqs],
            }
        )
    series.append(
        {"label": _("Biggest mistakes"), "points": True, "values": [played[seq] if seq in biggest else None for seq in seqs]}
    )
    return {
        "time": False,
        "x": seqs,
        "series": series,
        "x_label": _("Move"),
        "y_label": _("Expected points of the round"),
        # The replay's steps count from 0 before the first move: move n shows at step n - 1 (as the links do).
        "goto": [seq - 1 for seq in seqs],
    }


def mistake_puzzles(game: Game, mistakes: Sequence[dict[str, Any]]) -> dict[int, str]:
    """The puzzles the apps above made at the positions of these mistakes
    (``games.signals.review_mistake_puzzles``): {a mistake's seq: the puzzle's url}."""
    if not mistakes:
        return {}
    wanted = {int(row["seq"]): int(row["seat"]) for row in mistakes}
    found: dict[int, str] = {}
    for _receiver, links in review_mistake_puzzles.send(None, game=game, seqs=wanted):
        if not isinstance(links, dict):
            continue
        for seq, url in links.items():
            if int(seq) in wanted:
                found.setdefault(int(seq), str(url))
    return found


def panel_context(game: Game) -> dict[str, Any]:
    """The review as the replay page shows it (read only: a missing review is
    queued by the periodic sweep, ``games.coach.selectors.missing_reviews``)."""
    review = GameReview.objects.filter(game=game).first()
    names = {player["seat"]: player["name"] for player in selectors.table_players(game.table)}
    ready = review is not None and review.status == GameReview.Status.READY and review.data is not None
    data: dict[str, Any] = (review.data or {}) if ready and review is not None else {}
    biggest = data.get("biggest", [])
    moves = [_row(item, names, biggest) for item in data.get("moves", [])]
    puzzles = mistake_puzzles(game, [row for row in moves if row["mistake"] or row["big"]])
    for row in moves:
        row["puzzle_url"] = puzzles.get(int(row["seq"]), "")
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
        "chart": review_chart(data.get("moves", []), names, biggest) if ready else None,
        "mistakes": sum(1 for row in moves if row["mistake"]),
    }
