"""Hard: determinized Monte Carlo search with exact endgames.

For one decision it deals the unseen tiles many times (``knowledge.Dealer``:
every deal agrees with the counts, the voids shown by passes and draws and
the first-round opening), and for each deal plays every distinct legal play
and then the round to its end with the fast policy of ``sim.playout``. All
plays share the same deals and the same playout dice (common random numbers),
so their difference is measured with little noise. When few tiles remain in
the hands, each deal is instead solved exactly (``solver.Solver``), and with
nothing hidden one exact solve decides.

The outcome of a round is scored for its side: points won or lost, a bonus
for winning the round, and a large one when the round ends the game (near the
target, the match score matters more than the points).

The budget is counted in simulated work, not wall time, so that a decision is
reproducible: the same view and seed give the same action on any machine.
``DEFAULT_BUDGET_MS`` is calibrated for this machine (one core).
"""
from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from .base import Candidate, candidates
from .knowledge import Dealer, Knowledge, read_view
from .medium import score_play
from .sim import NO_WINNER, playout, round_result
from .solver import Solver, SolverBudget

DEFAULT_BUDGET_MS = 200
# Work units one millisecond buys on the reference machine; a playout costs
# one unit per tile still in play, a solver node ``NODE_COST`` units.
UNITS_PER_MS = 60.0
NODE_COST = 0.6
DEAL_COST = 8.0
MIN_DEALS = 8
MAX_DEALS = 4000
# Exact solving once this few tiles remain in all hands together.
ENDGAME_TILES = 10
ENDGAME_NODES = 30_000


def make_utility(know: Knowledge) -> Callable[[int, int], float]:
    """Score of a finished round (winning side, points) for the seat's side."""
    table = know.table
    me_side = table.side(know.me)
    others = max(1, table.sides - 1)
    target = know.target
    scores = know.side_scores
    win_bonus = 100.0 if target <= 0 else 15.0
    game_bonus = 150.0

    def utility(side: int, points: int) -> float:
        if side == NO_WINNER:
            return 0.0
        value = points + win_bonus
        if target > 0 and scores[side] + points >= target:
            value += game_bonus
        if side == me_side:
            return value
        return -value / others

    return utility


class HardPlayer:
    """Determinized Monte Carlo over consistent deals, exact in small endgames."""

    name = "hard"

    def __init__(self, budget_ms: float | None = None):
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms

    def choose(self, view: Any, rng: Random) -> Any:
        """Best expected play of ``view.legal`` over many consistent deals."""
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        know = read_view(view)
        cands = candidates(legal, know)
        if not cands:
            return legal[0]
        if len(cands) == 1:
            return cands[0].action
        totals = self.evaluate(know, cands, rng)
        # Ties (e.g. all plays win) go to the heuristic's favourite.
        best = max(range(len(cands)), key=lambda k: (round(totals[k], 9), score_play(know, cands[k])))
        return cands[best].action

    def evaluate(self, know: Knowledge, cands: list[Candidate], rng: Random) -> list[float]:
        """Mean utility of each candidate over the deals the budget allows."""
        units = max(1.0, self.budget_ms * UNITS_PER_MS)
        utility = make_utility(know)
        table = know.table
        me = know.me
        nxt = (me + 1) % table.players
        in_hands = sum(know.counts)
        dealer = Dealer(know, rng)
        single_deal = _single_deal(dealer)
        totals = [0.0] * len(cands)
        solver: Solver | None = None
        if in_hands <= ENDGAME_TILES:
            solver = Solver(table, table.side(me), utility, ENDGAME_NODES)
        spent = 0.0
        deals = 0
        playout_cost = in_hands + (know.boneyard if table.draw else 0)
        while deals < MAX_DEALS and (spent < units or deals < MIN_DEALS):
            hands, bone = dealer.deal()
            deals += 1
            spent += DEAL_COST
            if solver is not None:
                try:
                    values = []
                    for c in cands:
                        solver.nodes = 0
                        values.append(
                            solver.value_after(
                                hands, tuple(reversed(bone)), know.left, know.right, know.board, me, c.tile,
                                c.on_left,
                            )
                        )
                        spent += solver.nodes * NODE_COST
                    for k, v in enumerate(values):
                        totals[k] += v
                    if single_deal:
                        return totals
                    continue
                except SolverBudget:
                    spent += solver.nodes * NODE_COST
                    solver = None  # too big to solve: playouts from now on
                    deals -= 1
                    continue
            seed = rng.getrandbits(48)
            dice = Random()
            for k, c in enumerate(cands):
                hs = hands[:]
                hs[me] ^= 1 << c.tile
                if not hs[me]:
                    side, points = round_result(table, hs, me)
                    totals[k] += utility(side, points)
                    continue
                dice.seed(seed)
                side, points = playout(
                    table, hs, bone[:], c.left, c.right, know.board | 1 << c.tile, nxt, dice
                )
                totals[k] += utility(side, points)
                spent += playout_cost
        return [t / max(1, deals) for t in totals]


def _single_deal(dealer: Dealer) -> bool:
    """True when only one deal agrees with the view (one place holds all unseen tiles)."""
    return len(set(dealer.place)) <= 1
