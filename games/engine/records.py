"""Plain records the engine returns: a round's result and a history entry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .actions import End
from .tiles import Tile

__all__ = ["HistoryEntry", "RoundResult"]

ActionName = Literal["play", "draw", "pass"]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended.

    ``winner``: the seat that won the round (None when nobody wins: a blocked
    tie under ``blocked_tie`` "nobody" or "draw"); ``team``: the winning pair
    (0 = seats 0+2, 1 = seats 1+3; None without pairs or without a winner);
    ``points``: what the winner's side scored (0 without a winner);
    ``blocked``: True when nobody could play any more (else "domino!").
    """

    winner: int | None
    team: int | None
    points: int
    blocked: bool

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "team": self.team, "points": self.points, "blocked": self.blocked}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        return cls(data["winner"], data["team"], data["points"], data["blocked"])


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One action of the current round: who did what, on which ends.

    ``ends`` is the (left, right) pair BEFORE the action (None before the first
    tile). ``tile`` is the played tile, or the drawn tile (in the drawer's own
    view and on the server only; None elsewhere), None for a pass. ``end`` is
    the end a tile was laid on (None for draws and passes).
    """

    seat: int
    action: ActionName
    tile: Tile | None
    end: End | None
    ends: tuple[int, int] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "action": self.action,
            "tile": None if self.tile is None else self.tile.to_list(),
            "end": None if self.end is None else str(self.end),
            "ends": None if self.ends is None else list(self.ends),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HistoryEntry:
        tile = data["tile"]
        end = data["end"]
        ends = data["ends"]
        return cls(
            data["seat"],
            data["action"],
            None if tile is None else Tile(tile[0], tile[1]),
            None if end is None else End(end),
            None if ends is None else (ends[0], ends[1]),
        )
