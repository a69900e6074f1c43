"""Actions (``Play``, ``Draw``, ``Pass``) and their JSON frames.

Actions are frozen dataclasses. ``Play.end`` is normalised to the ``End``
StrEnum, so ``Play(0, t, "left") == Play(0, t, End.LEFT)`` and both hash alike.
The JSON shape is the websocket client frame: ``{"type": "play", "tile": [a, b],
"end": "left"}``, ``{"type": "draw"}``, ``{"type": "pass"}``, plus ``"seat"``
when ``with_seat`` is asked for (replay files).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .tiles import TILES, Tile

__all__ = [
    "Action",
    "Draw",
    "End",
    "Pass",
    "Play",
    "action_from_json",
    "action_to_json",
    "actions_from_json",
    "actions_to_json",
]


class End(StrEnum):
    """An end of the line; equal to the strings "left" and "right"."""

    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` from ``seat``'s hand on ``end`` of the line (the first tile: LEFT)."""

    seat: int
    tile: Tile
    end: End

    def __post_init__(self) -> None:
        if self.end.__class__ is not End:
            object.__setattr__(self, "end", End(self.end))
        if self.tile.__class__ is not Tile:
            object.__setattr__(self, "tile", Tile(*self.tile))


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one tile from the boneyard (only when no tile of the hand fits)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn (only when nothing fits and nothing can be drawn)."""

    seat: int


Action = Play | Draw | Pass

# Interned actions, so the engine hands out the same objects again and again.
PLAYS: tuple[tuple[tuple[Play, Play], ...], ...] = tuple(
    tuple((Play(seat, tile, End.LEFT), Play(seat, tile, End.RIGHT)) for tile in TILES) for seat in range(4)
)
DRAWS: tuple[Draw, ...] = tuple(Draw(seat) for seat in range(4))
PASSES: tuple[Pass, ...] = tuple(Pass(seat) for seat in range(4))


def action_to_json(action: Action, *, with_seat: bool = False) -> dict[str, Any]:
    """The client-frame dict of an action (with ``"seat"`` if asked)."""
    data: dict[str, Any]
    if isinstance(action, Play):
        data = {"type": "play", "tile": action.tile.to_list(), "end": str(action.end)}
    elif isinstance(action, Draw):
        data = {"type": "draw"}
    elif isinstance(action, Pass):
        data = {"type": "pass"}
    else:
        raise TypeError(f"not an action: {action!r}")
    if with_seat:
        data["seat"] = action.seat
    return data


def actions_to_json(actions: Iterable[Action]) -> list[dict[str, Any]]:
    """Actions as replay frames: each with its ``seat``."""
    return [action_to_json(action, with_seat=True) for action in actions]


def action_from_json(data: Mapping[str, Any], seat: int | None = None) -> Action:
    """Parse a frame. ``seat`` (the sender's seat) overrides/replaces ``data["seat"]``.

    Raises ValueError for a malformed frame (unknown type, bad tile or end, no seat).
    """
    if not isinstance(data, Mapping):
        raise ValueError("an action frame must be an object")
    if seat is None:
        seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ValueError("an action needs a seat from 0 to 3")
    kind = data.get("type")
    if kind == "play":
        tile = data.get("tile")
        if (
            not isinstance(tile, list | tuple)
            or len(tile) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 6 for n in tile)
        ):
            raise ValueError("a play needs a tile [a, b] with numbers 0 to 6")
        end = data.get("end")
        if end not in ("left", "right"):
            raise ValueError('a play needs an end, "left" or "right"')
        return PLAYS[seat][Tile(tile[0], tile[1]).index][0 if end == "left" else 1]
    if kind == "draw":
        return DRAWS[seat]
    if kind == "pass":
        return PASSES[seat]
    raise ValueError(f"unknown action type {kind!r}")


def actions_from_json(frames: Iterable[Mapping[str, Any]]) -> list[Action]:
    """Parse replay frames (each with its ``seat``)."""
    return [action_from_json(frame) for frame in frames]
