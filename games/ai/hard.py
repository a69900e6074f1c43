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

import math
from collections.abc import Callable
from random import Random
from typing import Any

from . import core, model, tree
from .base import Candidate, candidates
from .knowledge import Choice, Dealer, Knowledge, public_voids, read_view
from .medium import score_play
from .model import choices_likelihood, rollout
from .sim import IS_DOUBLE, NO_WINNER, PIPS, make_policy, playout, round_result
from .solver import Solver, SolverBudget
from .tree import Move, OwnNode, backup, descend

DEFAULT_BUDGET_MS = 250
# The cost model of the budget: estimated microseconds (one core of the
# reference machine) of each piece of work. Counting work instead of reading
# the clock keeps every decision reproducible.
SETUP_US = 400.0
DEAL_US = 4.0
SWAP_US = 0.9
PLAYOUT_US = 2.0
TURN_US = 2.25
NODE_US = 5.0
# Share of random moves in the playouts (the rest follow the playout policy).
PLAYOUT_EPS = 0.1
# Playout policy weights: (per pip, per double, per tile held of the exposed number).
PLAYOUT_POLICY = (1, 6, 2)
WEIGH_US = 8.0
CHOICE_US = 1.5
MIN_DEALS = 8
MAX_DEALS = 4000
# Exact solving once this few tiles remain in the hands and the boneyard.
ENDGAME_TILES = 10
MIN_SOLVED_DEALS = 12


# Opponent model for reading the other seats' plays: a seat lays tile t with
# a probability proportional to exp(BETA * (pips + DOUBLE_WEIGHT * double)),
# among the tiles it could lay. Deals where the plays seen were likely weigh
# more. BETA = 0 turns this inference off.
BETA = 0.4
DOUBLE_WEIGHT = 3.0
# "weight": the pips-only model above; "tips": the fuller model of ``games.ai.model``
# (heavy tiles, doubles, ends it can follow, the next players' voids). Block duels
# always use the fuller one (``evaluate_duel``); elsewhere it made no measurable
# difference in duel-block (56.8 % vs 56.7 %, 2,000 rounds at 50 ms), so the cheaper one stays.
OPPONENT_MODEL = "weight"
MODEL_CHOICE_US = 12.0
# Block duels (two players, no drawing): each deal is played out by the model for both
# sides (see ``evaluate_duel``) instead of by playouts and exact endgames.
DUEL_ROLLOUTS = True
ROLLOUT_US = 3.0
MODEL_US = 2.2
# Block duels: the computer's own later moves searched by a tree over what it will see
# (``games.ai.tree``) instead of following the model.
DUEL_TREE = True
TREE_US = 1.5
# Bonus for winning a single-round game, in points (only the win matters there; the
# points only break ties). In a game to a target: a bonus for winning the round, and a
# larger one for a round that ends the game.
SINGLE_ROUND_WIN = 1000.0
ROUND_WIN = 15.0
GAME_WIN = 150.0
# Most points a round is worth, beyond the bonuses (for scaling outcomes to about [-1, 1]).
ROUND_POINTS = 50.0


def _choice_table(beta: float) -> list[float]:
    return [math.exp(beta * (PIPS[i] + (DOUBLE_WEIGHT if IS_DOUBLE[i] else 0.0))) for i in range(28)]


def choice_weight(choices: list[Choice], held: list[list[int]], table: list[float]) -> float:
    """Likelihood of the other seats' observed plays in one deal, under the model above."""
    weight = 1.0
    for c in choices:
        options = (held[c.seat][c.tiers] | c.later) & c.fit
        total = 0.0
        while options:
            low = options & -options
            total += table[low.bit_length() - 1]
            options ^= low
        weight *= table[c.tile] / total
    return weight


def make_utility(know: Knowledge) -> Callable[[int, int], float]:
    """Score of a finished round (winning side, points) for the seat's side."""
    table = know.table
    me_side = table.side(know.me)
    others = max(1, table.sides - 1)
    target = know.target
    scores = know.side_scores
    win_bonus = _win_bonus(know)
    game_bonus = GAME_WIN

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


def _win_bonus(know: Knowledge) -> float:
    return SINGLE_ROUND_WIN if know.target <= 0 else ROUND_WIN


def utility_scale(know: Knowledge) -> float:
    """About the largest outcome ``make_utility`` gives, to scale outcomes to [-1, 1]."""
    return _win_bonus(know) + (GAME_WIN if know.target > 0 else 0.0) + ROUND_POINTS


def best_of(know: Knowledge, cands: list[Candidate], totals: list[float]) -> int:
    """Index of the play with the best mean utility; ties (e.g. every play wins) go to
    the heuristic's favourite."""
    return max(range(len(cands)), key=lambda k: (round(totals[k], 9), score_play(know, cands[k])))


class HardPlayer:
    """Determinized Monte Carlo over consistent deals, exact in small endgames."""

    name = "hard"

    def __init__(self, budget_ms: float | None = None, *, duel_search: bool | None = None):
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        # Block duels searched by ``evaluate_duel`` (default ``DUEL_ROLLOUTS``); False plays
        # them like every other setup (playouts, exact endgames).
        self.duel_search = duel_search

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
        return cands[best_of(know, cands, self.evaluate(know, cands, rng))].action

    def evaluate(self, know: Knowledge, cands: list[Candidate], rng: Random) -> list[float]:
        """Mean utility of each candidate over the deals the budget allows."""
        budget = max(1.0, self.budget_ms * 1000.0)
        duel_search = DUEL_ROLLOUTS if self.duel_search is None else self.duel_search
        if duel_search and know.table.players == 2 and not know.table.draw:
            return self.evaluate_duel(know, cands, rng, budget)
        utility = make_utility(know)
        table = know.table
        me = know.me
        nxt = (me + 1) % table.players
        dealer = Dealer(know, rng)
        deal_us = DEAL_US + (SWAP_US * dealer.swaps if dealer.constrained else 0.0)
        tips = OPPONENT_MODEL == "tips"
        temper = model.TEMPER  # read here, not bound at import: overrides apply
        choices = know.choices if (temper if tips else BETA) > 0 else []
        likelihood = _choice_table(BETA) if choices else []
        if choices:
            deal_us += WEIGH_US + (MODEL_CHOICE_US if tips else CHOICE_US) * len(choices)
        weights = 0.0
        single_deal = _single_deal(dealer)
        totals = [0.0] * len(cands)
        solver: Solver | None = None
        if sum(know.counts) + know.boneyard <= ENDGAME_TILES:
            nodes = budget / NODE_US / (len(cands) * (1 if single_deal else MIN_SOLVED_DEALS))
            solver = Solver(table, table.side(me), utility, int(max(200, nodes)))
        policy = make_policy(*PLAYOUT_POLICY)
        if core.enabled() and not tips:
            max_nodes = solver.max_nodes if solver is not None else 0
            means, _deals, _playouts = core.evaluate_general(
                know, cands, rng, dealer, use_choices=bool(choices), likelihood=likelihood, eps=PLAYOUT_EPS,
                policy=policy, costs=(budget, SETUP_US, deal_us, PLAYOUT_US, TURN_US, NODE_US),
                limits=(MIN_DEALS, MAX_DEALS, max_nodes, single_deal), win_bonus=_win_bonus(know),
                game_bonus=GAME_WIN,
            )
            return means
        spent = SETUP_US
        deals = 0
        dice = Random()
        while deals < MAX_DEALS and (spent < budget or deals < MIN_DEALS):
            hands, bone = dealer.deal()
            spent += deal_us
            if not choices:
                w = 1.0
            elif tips:
                w = choices_likelihood(table, choices, dealer.held_before(), temper)
            else:
                w = choice_weight(choices, dealer.held_before(), likelihood)
            if solver is not None:
                solver.nodes = 0
                try:
                    values = solver.values(hands, tuple(reversed(bone)), know, cands)
                except SolverBudget:
                    spent += solver.nodes * NODE_US
                    solver = None  # too big to solve: playouts from now on
                    continue
                spent += solver.nodes * NODE_US
                deals += 1
                weights += w
                for k, v in enumerate(values):
                    totals[k] += w * v
                if single_deal:
                    break
                continue
            deals += 1
            weights += w
            # Every play's playout gets the same random numbers (common random numbers).
            dice.seed(rng.getrandbits(48))
            stream: list[float] = []
            for k, c in enumerate(cands):
                hs = hands[:]
                hs[me] ^= 1 << c.tile
                if not hs[me]:
                    side, points = round_result(table, hs, me)
                    totals[k] += w * utility(side, points)
                    continue
                side, points, turns = playout(
                    table, hs, bone[:], c.left, c.right, know.board | 1 << c.tile, nxt, dice, PLAYOUT_EPS, policy, stream
                )
                totals[k] += w * utility(side, points)
                spent += PLAYOUT_US + TURN_US * turns
        return [t / weights if weights > 0 else 0.0 for t in totals]


    def evaluate_duel(self, know: Knowledge, cands: list[Candidate], rng: Random, budget: float) -> list[float]:
        """Block duel: for each deal (weighted by the model's likelihood of the other seat's
        plays), each candidate is followed by a rollout where both seats play the model's
        favourite tile for the hand the deal gives it, and the computer's own later moves
        are searched by a tree keyed by what it will have seen (``games.ai.tree``), so they
        never read the deal (no strategy fusion). With ``DUEL_TREE`` off, they follow the
        model too: the value is that of "this play, then the model's play"."""
        utility = make_utility(know)
        scale = utility_scale(know)
        table = know.table
        me = know.me
        nxt = 1 - me
        dealer = Dealer(know, rng)
        deal_us = DEAL_US + (SWAP_US * dealer.swaps if dealer.constrained else 0.0)
        temper = model.TEMPER
        choices = know.choices if temper > 0 else []
        if choices:
            deal_us += WEIGH_US + MODEL_CHOICE_US * len(choices)
        voids = public_voids(know)
        single_deal = _single_deal(dealer)
        if core.enabled():
            means, _deals, _descents = core.evaluate_duel(
                know, cands, rng, dealer, temper=temper, voids=voids, tree=DUEL_TREE, track_voids=model.TRACK_VOIDS,
                explore=tree.EXPLORE, scale=scale, model_weights=model.weights(),
                costs=(budget, SETUP_US, deal_us, TREE_US, ROLLOUT_US, MODEL_US),
                limits=(MIN_DEALS, MAX_DEALS, single_deal), win_bonus=_win_bonus(know), game_bonus=GAME_WIN,
            )
            return means
        totals = [0.0] * len(cands)
        trees: list[dict[int, OwnNode]] = [{} for _ in cands]
        path: list[tuple[OwnNode, Move]] = []
        weights = 0.0
        spent = SETUP_US
        deals = 0
        while deals < MAX_DEALS and (spent < budget or deals < MIN_DEALS):
            hands, _bone = dealer.deal()
            spent += deal_us
            w = choices_likelihood(table, choices, dealer.held_before(), temper) if choices else 1.0
            deals += 1
            weights += w
            for k, c in enumerate(cands):
                hs = hands[:]
                hs[me] ^= 1 << c.tile
                if not hs[me]:
                    side, points = round_result(table, hs, me)
                    totals[k] += w * utility(side, points)
                    continue
                board = know.board | 1 << c.tile
                if DUEL_TREE:
                    path.clear()
                    side, points, work = descend(table, hs, c.left, c.right, board, me, voids, trees[k], path)
                    value = utility(side, points)
                    backup(path, w, value / scale)
                    spent += TREE_US * len(path)
                else:
                    side, points, work = rollout(table, hs, [], c.left, c.right, board, nxt, voids)
                    value = utility(side, points)
                totals[k] += w * value
                spent += ROLLOUT_US + MODEL_US * work
            if single_deal:
                break
        return [t / weights if weights > 0 else 0.0 for t in totals]


def _single_deal(dealer: Dealer) -> bool:
    """True when only one deal agrees with the view (one place holds all unseen tiles)."""
    return len(set(dealer.place)) <= 1
