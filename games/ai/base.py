"""The interface every computer player shares, and helpers over legal actions."""
from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Protocol

from games.engine import Action, PlayerView

from .knowledge import Knowledge, tile_index
from .sim import NO_END, play_tile


class Player(Protocol):
    """A computer player: reads only the view of its seat."""

    name: str

    def choose(self, view: PlayerView, rng: Random) -> Action:
        """Return one of ``view.legal``; the same view and ``rng`` state give the same action."""
        ...


@dataclass(frozen=True, slots=True)
class Candidate:
    """A legal play seen as bit-set data: tile index, end, resulting ends."""

    action: Action
    tile: int
    on_left: bool
    left: int  # ends after the play
    right: int


def candidates(legal: list[Action], know: Knowledge) -> list[Candidate]:
    """The distinct plays among the legal actions (a tile offered on two ends
    showing the same number is kept once: both give the same position)."""
    out: list[Candidate] = []
    seen: set[tuple[int, int, int]] = set()
    for action in legal:
        tile = getattr(action, "tile", None)
        if tile is None:
            continue
        t = tile_index(tile)
        on_left = know.left == NO_END or str(getattr(action, "end", "left")) == "left"
        left, right = play_tile(know.left, know.right, t, on_left)
        key = (t, min(left, right), max(left, right))
        if key in seen:
            continue
        seen.add(key)
        out.append(Candidate(action, t, on_left, left, right))
    return out
