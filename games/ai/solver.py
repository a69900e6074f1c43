"""Exact perfect-information solver for small endgames.

Given one full deal (every hand known, the boneyard in drawing order), it
finds the minimax value of the round for one side: that side's seats
maximise, every other seat minimises (two pairs; "paranoid" when three or
four play alone). Alpha-beta with a transposition table; a node budget makes
it give up (``SolverBudget``) so that the caller can fall back to playouts.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .sim import ENDS_MASK, NO_END, NUM, OTHER, PIPS, TILES, Table, bits, round_result

_EXACT, _LOWER, _UPPER = 0, 1, 2


class SolverBudget(Exception):
    """Raised when a solve needs more nodes than it was given."""


class Solver:
    """Minimax over one deal. ``utility(side, points)`` scores a finished round
    for the maximising side (``me_side``)."""

    def __init__(self, table: Table, me_side: int, utility: Callable[[int, int], float], max_nodes: int):
        self.table = table
        self.me_side = me_side
        self.utility = utility
        self.max_nodes = max_nodes
        self.nodes = 0
        self.memo: dict[tuple[object, ...], tuple[int, float]] = {}
        self.bone: tuple[int, ...] = ()
        self.closed = table.closed_board or not table.draw

    def values(self, hands: list[int], bone: tuple[int, ...], know: Any, cands: list[Any]) -> list[float]:
        """Value of each candidate play (``.tile``, ``.on_left``) of ``know.me`` in one deal."""
        self.bone = bone
        self.memo = {}
        hs = tuple(hands)
        return [
            self._after_play(hs, 0, know.left, know.right, know.board, know.me, c.tile, c.on_left, -1e9, 1e9)
            for c in cands
        ]

    def value_after(
        self,
        hands: list[int],
        bone: tuple[int, ...],
        left: int,
        right: int,
        board: int,
        seat: int,
        tile: int,
        on_left: bool,
    ) -> float:
        """Value for ``me_side`` once ``seat`` lays ``tile`` (on the left end or not)."""
        self.bone = bone
        self.memo = {}
        return self._after_play(tuple(hands), 0, left, right, board, seat, tile, on_left, -1e9, 1e9)

    def _after_play(
        self,
        hands: tuple[int, ...],
        bi: int,
        left: int,
        right: int,
        board: int,
        seat: int,
        tile: int,
        on_left: bool,
        alpha: float,
        beta: float,
    ) -> float:
        h = hands[seat] ^ (1 << tile)
        hs = list(hands)
        hs[seat] = h
        if left == NO_END:
            left, right = TILES[tile]
        elif on_left:
            left = OTHER[tile * 7 + left]
        else:
            right = OTHER[tile * 7 + right]
        board |= 1 << tile
        if not h:
            side, points = round_result(self.table, hs, seat)
            return self.utility(side, points)
        if self.closed and left == right and board & NUM[left] == NUM[left]:
            side, points = round_result(self.table, hs, -1)
            return self.utility(side, points)
        n = self.table.players
        return self._search(tuple(hs), bi, left, right, board, (seat + 1) % n, 0, alpha, beta)

    def _search(
        self,
        hands: tuple[int, ...],
        bi: int,
        left: int,
        right: int,
        board: int,
        seat: int,
        passes: int,
        alpha: float,
        beta: float,
    ) -> float:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SolverBudget
        key = (hands, bi, left, right, seat, passes)
        entry = self.memo.get(key)
        if entry is not None:
            flag, val = entry
            if flag == _EXACT:
                return val
            if flag == _LOWER and val >= beta:
                return val
            if flag == _UPPER and val <= alpha:
                return val
        n = self.table.players
        fit = ENDS_MASK[left * 8 + right]
        h = hands[seat]
        m = h & fit
        if not m and self.table.draw and bi < len(self.bone):
            hs = list(hands)
            while bi < len(self.bone):
                t = self.bone[bi]
                bi += 1
                h |= 1 << t
                if fit >> t & 1:
                    m = 1 << t
                    break
            hs[seat] = h
            hands = tuple(hs)
        if not m:
            if passes + 1 >= n:
                side, points = round_result(self.table, list(hands), -1)
                return self.utility(side, points)
            return self._search(hands, bi, left, right, board, (seat + 1) % n, passes + 1, alpha, beta)
        moves: list[tuple[int, int, bool]] = []
        for t in bits(m):
            if left == NO_END:
                moves.append((PIPS[t], t, True))
                continue
            if OTHER[t * 7 + left] >= 0:
                moves.append((PIPS[t], t, True))
            if OTHER[t * 7 + right] >= 0 and (left != right or OTHER[t * 7 + left] < 0):
                moves.append((PIPS[t], t, False))
        moves.sort(reverse=True)
        maximise = self.table.side(seat) == self.me_side
        a0, b0 = alpha, beta
        best = -1e9 if maximise else 1e9
        for _, t, on_left in moves:
            v = self._after_play(hands, bi, left, right, board, seat, t, on_left, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        if best <= a0:
            self.memo[key] = (_UPPER, best)
        elif best >= b0:
            self.memo[key] = (_LOWER, best)
        else:
            self.memo[key] = (_EXACT, best)
        return best
