"""The puzzle generator: plain Python, no Django, no clock, no randomness.

A finished game's deal is public, so each of its positions can be solved
with every hand known (double dummy). ``find_puzzles`` walks the states of a
game (``(seq, state)``: the position after the game's event ``seq``) and
keeps, in each round, the earliest position the exact solver
(``games.ai.solver.Solver``, alpha-beta over the whole deal) settles within
the node budget where either

- exactly one play of the seat to move wins the round ("block" when the
  best line ends in a blocked round, "domino" when it ends with the winning
  side laying its last tile), or
- every play wins and exactly one wins by the most points ("count").

A "play" is a tile and an end; a tile laid on either end when both ends show
the same number leaves the same position, so both ends are one play (either
is accepted). The same states and budget always give the same puzzles.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from games.ai.sim import NO_END, Table
from games.ai.solver import Solver, SolverBudget
from games.engine import TILES, Draw, End, Play, State, Tile, apply_action, legal_actions

KINDS = ("block", "domino", "count")
"""The kinds of puzzle, in the order docs/puzzles.md explains them."""

# A finished round's worth to the puzzle's side: a win scores WIN + points,
# a loss -(WIN + points), no winner 0; so the sign says who wins and the
# rest by how much.
WIN = 1000.0

DEFAULT_NODE_BUDGET = 60_000
"""Solver nodes one position may cost (its alternatives and its line)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A round's end for the puzzle's side: "win", "loss" or "none", and the points."""

    result: str
    points: int

    @classmethod
    def of(cls, value: float) -> Outcome:
        if value > 0:
            return cls("win", round(value - WIN))
        if value < 0:
            return cls("loss", round(-value - WIN))
        return cls("none", 0)

    def to_dict(self) -> dict[str, Any]:
        return {"result": self.result, "points": self.points}


@dataclass(frozen=True, slots=True)
class Alternative:
    """One play of the seat to move: a tile, the ends it may go on (one, or
    both when they leave the same position), and the solver's value."""

    tile: Tile
    ends: tuple[str, ...]
    value: float

    @property
    def outcome(self) -> Outcome:
        return Outcome.of(self.value)

    def to_dict(self) -> dict[str, Any]:
        return {"tile": [self.tile.low, self.tile.high], "ends": list(self.ends), **self.outcome.to_dict()}


@dataclass(frozen=True, slots=True)
class Found:
    """A puzzle: the position after event ``seq`` of the game, ``to_move``
    to play ``solution``; ``alternatives`` every play with its value (the
    solution's included), ``line`` the best play of every seat from there
    to the round's end (the solution first)."""

    kind: str
    seq: int
    round: int
    to_move: int
    solution: Alternative
    alternatives: tuple[Alternative, ...]
    line: tuple[dict[str, Any], ...]
    nodes: int
    blocked: bool = field(default=False)

    @property
    def end(self) -> str:
        return self.solution.ends[0]


def solver_table(state: State) -> Table:
    rules = state.rules
    return Table(
        players=rules.players,
        draw=rules.draw,
        closed_board=rules.closed_board,
        blocked_tie=rules.blocked_tie,
        teams=rules.teams,
        team_scoring=rules.team_scoring,
        opener=state.opener,
    )


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes
        self.used = 0

    def solver(self, table: Table, side: int) -> Solver:
        def utility(winner: int, points: int) -> float:
            if winner < 0:
                return 0.0
            return WIN + points if winner == side else -(WIN + points)

        return Solver(table, side, utility, max(self.left, 0))

    def spend(self, solver: Solver) -> None:
        self.left -= solver.nodes
        self.used += solver.nodes


def _value(state: State, table: Table, side: int, tile: Tile, end: str, budget: _Budget) -> float:
    seat = state.to_move
    assert seat is not None
    left = NO_END if state.left_end < 0 else state.left_end
    right = NO_END if state.right_end < 0 else state.right_end
    solver = budget.solver(table, side)
    try:
        return solver.value_after(
            list(state.hand_bits),
            tuple(state.pile[state.drawn :]),
            left,
            right,
            state.table_bits,
            seat,
            tile.index,
            end == "left",
        )
    finally:
        budget.spend(solver)


def plays(state: State) -> list[tuple[Tile, tuple[str, ...]]]:
    """The distinct plays of the seat to move: each tile with its ends (both
    ends as one play when they show the same number). Empty when it must
    draw or pass."""
    out: dict[Tile, list[str]] = {}
    same = state.left_end >= 0 and state.left_end == state.right_end
    for action in legal_actions(state):
        if isinstance(action, Play):
            out.setdefault(action.tile, []).append(str(action.end))
    grouped: list[tuple[Tile, tuple[str, ...]]] = []
    for tile, ends in out.items():
        if same:
            grouped.append((tile, tuple(ends)))
        else:
            grouped.extend((tile, (end,)) for end in ends)
    return grouped


def alternatives(state: State, side: int, budget: _Budget) -> list[Alternative]:
    """Every play of the seat to move with its exact value for ``side``
    (``SolverBudget`` beyond the budget)."""
    table = solver_table(state)
    return [
        Alternative(tile, ends, _value(state, table, side, tile, ends[0], budget))
        for tile, ends in plays(state)
    ]


def _step(action: Any) -> dict[str, Any]:
    if isinstance(action, Play):
        return {
            "seat": action.seat,
            "action": "play",
            "tile": [action.tile.low, action.tile.high],
            "end": str(action.end),
        }
    return {"seat": action.seat, "action": type(action).__name__.lower()}


def best_line(
    state: State, side: int, first: Alternative, budget: _Budget
) -> tuple[list[dict[str, Any]], State]:
    """The line from ``first`` to the round's end, each seat playing its best
    (``side``'s seats the highest value, the others the lowest; the first
    such play in the engine's order on a tie), and the state at its end."""
    seat = state.to_move
    assert seat is not None
    action: Any = Play(seat, first.tile, End(first.ends[0]))
    line = [_step(action)]
    state = apply_action(state, action)
    table = solver_table(state)
    while state.to_move is not None and not state.round_over:
        mover = state.to_move
        options = plays(state)
        if not options:
            action = legal_actions(state)[0]
            if isinstance(action, Draw):
                drawn = TILES[state.pile[state.drawn]]
                step = _step(action)
                step["tile"] = [drawn.low, drawn.high]
                line.append(step)
            else:
                line.append(_step(action))
            state = apply_action(state, action)
            continue
        if len(options) == 1:
            tile, ends = options[0]
        else:
            scored = [
                (_value(state, table, side, tile, ends[0], budget), tile, ends) for tile, ends in options
            ]
            maximise = table.side(mover) == side
            pick = max if maximise else min
            target = pick(value for value, _tile, _ends in scored)
            tile, ends = next((tile, ends) for value, tile, ends in scored if value == target)
        action = Play(mover, tile, End(ends[0]))
        line.append(_step(action))
        state = apply_action(state, action)
    return line, state


def judge(state: State, node_budget: int = DEFAULT_NODE_BUDGET, *, seq: int = 0) -> Found | None:
    """The puzzle this position makes, or None (not one, or beyond the budget)."""
    try:
        return _judge(state, node_budget, seq)
    except SolverBudget:
        return None


def _judge(state: State, node_budget: int, seq: int) -> Found | None:
    """``judge``, raising ``SolverBudget`` beyond the budget."""
    seat = state.to_move
    if seat is None or state.round_over:
        return None
    if len(plays(state)) < 2:
        return None
    table = solver_table(state)
    side = table.side(seat)
    budget = _Budget(node_budget)
    alts = alternatives(state, side, budget)
    winners = [alt for alt in alts if alt.value > 0]
    if len(winners) == 1:
        solution = winners[0]
        kind = ""
    elif winners and len(winners) == len(alts):
        top = max(alt.value for alt in alts)
        best = [alt for alt in alts if alt.value == top]
        if len(best) != 1:
            return None
        solution, kind = best[0], "count"
    else:
        return None
    line, end = best_line(state, side, solution, budget)
    result = end.round_result
    assert result is not None
    if not kind:
        kind = "block" if result.blocked else "domino"
    return Found(
        kind=kind,
        seq=seq,
        round=state.round,
        to_move=seat,
        solution=solution,
        alternatives=tuple(alts),
        line=tuple(line),
        nodes=budget.used,
        blocked=result.blocked,
    )


def find_puzzles(states: Iterable[tuple[int, State]], node_budget: int = DEFAULT_NODE_BUDGET) -> list[Found]:
    """The puzzles of one game's states (``(seq, state)`` in order): in each
    round, the earliest position that makes one, searched from the round's
    end backwards until a position is beyond the node budget (the earlier
    ones only grow)."""
    rounds: dict[int, list[tuple[int, State]]] = {}
    for seq, state in states:
        if state.to_move is not None and not state.round_over:
            rounds.setdefault(state.round, []).append((seq, state))
    found: list[Found] = []
    for number in sorted(rounds):
        kept: Found | None = None
        for seq, state in reversed(rounds[number]):
            if len(plays(state)) < 2:
                continue
            try:
                puzzle = _judge(state, node_budget, seq)
            except SolverBudget:
                break
            if puzzle is not None:
                kept = puzzle
        if kept is not None:
            found.append(kept)
    return found
