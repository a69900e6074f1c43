"""Inference puzzles (plain Python, no double-dummy): from the public history
of a round, "which tiles can the opponent still hold?".

The position is seen by the seat to move: its own hand, the line, the counts
and the round's history as that seat saw it (the others' drawn tiles
hidden). The answer is what the computer players' knowledge reads from that
view (``games.ai.knowledge.read_view``: each pass and each draw shows the
numbers the seat's hand lacked then, a kept drawn tile opens a group of its
own, the forced first opening rules out heavier doubles): the unseen tiles
the next seat (an opponent, in pairs too) may hold. A position is a puzzle
when that opponent passed or drew earlier in the round and the knowledge
rules out at least ``MIN_RULED_OUT`` of the unseen tiles while leaving some.
In each round the earliest such position is kept: the same states always
give the same puzzles.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.ai.knowledge import read_view
from games.ai.sim import TILES
from games.engine import State, view_for

KIND = "infer"

# The fewest unseen tiles the history must rule out for a position to be a puzzle.
MIN_RULED_OUT = 3


@dataclass(frozen=True)
class Inferred:
    seq: int
    round: int
    seat: int  # the seat whose view the puzzle shows (the seat to move)
    opponent: int
    unseen: tuple[tuple[int, int], ...]  # the tiles the seat cannot see, in order
    possible: tuple[tuple[int, int], ...]  # those the opponent may hold: the answer
    held: int  # how many tiles the opponent holds
    history: tuple[dict[str, Any], ...]  # the round's history as the seat saw it

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "opponent": self.opponent,
            "unseen": [list(tile) for tile in self.unseen],
            "possible": [list(tile) for tile in self.possible],
            "held": self.held,
            "history": list(self.history),
        }


def _tiles(mask: int) -> tuple[tuple[int, int], ...]:
    return tuple((int(TILES[i][0]), int(TILES[i][1])) for i in range(len(TILES)) if mask >> i & 1)


def judge(state: State, seq: int = 0) -> Inferred | None:
    """The inference puzzle this position makes, or None."""
    seat = state.to_move
    if seat is None or state.round_over:
        return None
    players = state.rules.players
    opponent = (seat + 1) % players
    view = view_for(state, seat)
    if not any(entry.seat == opponent and entry.action in ("pass", "draw") for entry in view.history):
        return None
    know = read_view(view)
    possible = know.possible(opponent)
    ruled_out = know.unseen & ~possible
    if ruled_out.bit_count() < MIN_RULED_OUT or not possible:
        return None
    return Inferred(
        seq=seq,
        round=state.round,
        seat=seat,
        opponent=opponent,
        unseen=_tiles(know.unseen),
        possible=_tiles(possible),
        held=len(state.hands[opponent]),
        history=tuple(entry.to_dict() for entry in view.history),
    )


def find_inferences(states: Iterable[tuple[int, State]]) -> list[Inferred]:
    """The inference puzzles of one game's states (``(seq, state)`` in
    order): the earliest position of each round that makes one."""
    found: dict[int, Inferred] = {}
    for seq, state in states:
        if state.round in found:
            continue
        puzzle = judge(state, seq)
        if puzzle is not None:
            found[state.round] = puzzle
    return [found[number] for number in sorted(found)]
