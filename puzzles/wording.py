"""Why the other plays lose, in words, from the solver's values."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from puzzles.models import Puzzle


def outcome_text(result: str, points: int) -> str:
    if result == "win":
        return ngettext(
            "wins the round by %(points)d point", "wins the round by %(points)d points", points
        ) % {"points": points}
    if result == "loss":
        return ngettext(
            "loses the round by %(points)d point", "loses the round by %(points)d points", points
        ) % {"points": points}
    return _("nobody wins the round")


def end_text(ends: list[str]) -> str:
    if len(ends) > 1:
        return _("on either end")
    return _("on the left end") if ends[0] == "left" else _("on the right end")


def explain(puzzle: Puzzle) -> list[dict[str, Any]]:
    """Every play of the position, the solution first, each with what it
    leads to when every seat then plays its best."""
    rows = []
    for alt in puzzle.alternatives:
        best = alt["tile"] == puzzle.solution_tile and alt["ends"] == puzzle.solution_ends
        low, high = alt["tile"]
        rows.append(
            {
                "tile": alt["tile"],
                "ends": alt["ends"],
                "result": alt["result"],
                "points": alt["points"],
                "best": best,
                "text": _("%(tile)s %(end)s: %(outcome)s.")
                % {
                    "tile": f"{low}-{high}",
                    "end": end_text(alt["ends"]),
                    "outcome": outcome_text(alt["result"], alt["points"]),
                },
            }
        )
    rows.sort(
        key=lambda row: (
            not row["best"],
            row["result"] != "win",
            -row["points"] if row["result"] == "win" else row["points"],
        )
    )
    return rows


def kind_text(kind: str) -> str:
    return {
        "block": _("Block your opponent: one play wins by blocking the game."),
        "domino": _("Race to domino: one play gets your side out first."),
        "count": _("Count the tiles: every play wins, one wins the most points."),
        "infer": _("Read the passes and draws: which tiles can the opponent still hold?"),
    }.get(kind, kind)


def step_text(step: dict[str, Any], names: dict[int, str]) -> str:
    """One step of the solution line in words."""
    who = names.get(step["seat"], str(step["seat"] + 1))
    if step["action"] == "play":
        low, high = step["tile"]
        return _("%(name)s plays %(tile)s %(end)s.") % {
            "name": who,
            "tile": f"{low}-{high}",
            "end": end_text([step["end"]]),
        }
    if step["action"] == "draw":
        low, high = step["tile"]
        return _("%(name)s draws %(tile)s.") % {"name": who, "tile": f"{low}-{high}"}
    return _("%(name)s passes.") % {"name": who}


def verdict(puzzle: Puzzle, correct: bool) -> str:
    low, high = puzzle.solution_tile
    solution = _("%(tile)s %(end)s") % {"tile": f"{low}-{high}", "end": end_text(puzzle.solution_ends)}
    if correct:
        return _("Right: %(solution)s wins.") % {"solution": solution}
    return _("Not this one: the winning play is %(solution)s.") % {"solution": solution}


def history_text(entry: dict[str, Any], names: dict[int, str]) -> str:
    """One event of an inference puzzle's public history in words (another
    seat's drawn tile is not shown)."""
    who = names.get(entry["seat"], str(entry["seat"] + 1))
    ends = entry.get("ends")
    if entry["action"] == "play":
        return step_text(entry, names)
    if entry["action"] == "draw":
        if entry.get("tile") is not None:
            return step_text(entry, names)
        if ends:
            return _("%(name)s draws a tile (the ends showed %(left)s and %(right)s).") % {
                "name": who,
                "left": ends[0],
                "right": ends[1],
            }
        return _("%(name)s draws a tile.") % {"name": who}
    if ends:
        return _("%(name)s passes on %(left)s and %(right)s.") % {"name": who, "left": ends[0], "right": ends[1]}
    return _("%(name)s passes.") % {"name": who}


def infer_rows(puzzle: Puzzle, chosen: list[list[int]]) -> list[dict[str, Any]]:
    """Each unseen tile, whether the opponent can hold it, and whether the answer chose it."""
    assert puzzle.inference is not None
    possible = {tuple(tile) for tile in puzzle.inference["possible"]}
    picked = {tuple(tile) for tile in chosen}
    rows = []
    for low, high in puzzle.inference["unseen"]:
        can = (low, high) in possible
        rows.append(
            {
                "tile": [low, high],
                "result": "win" if can else "loss",
                "best": can,
                "chosen": (low, high) in picked,
                "text": (_("%(tile)s: may still be held.") if can else _("%(tile)s: cannot be held."))
                % {"tile": f"{low}-{high}"},
            }
        )
    return rows


def infer_verdict(puzzle: Puzzle, correct: bool) -> str:
    assert puzzle.inference is not None
    tiles = " ".join(f"{low}-{high}" for low, high in puzzle.inference["possible"])
    if correct:
        return _("Right: the opponent can hold only %(tiles)s.") % {"tiles": tiles}
    return _("Not quite: the opponent can hold exactly %(tiles)s.") % {"tiles": tiles}
