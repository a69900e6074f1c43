"""Hard: determinized Monte Carlo search with exact endgames.

For one decision it deals the unseen tiles many times (``knowledge.Dealer``:
every deal agrees with the counts, the voids shown by passes and draws and
the first-round opening), and for each deal plays every distinct legal play
and then the round to its end with the fast policy of ``sim.playout``. All
plays share the same deals and the same playout dice (common random numbers),
so their difference is measured with little noise. When few tiles remain in
the hands, each deal is instead solved exactly (``solver.Solver``), and with
nothing hidden one exact solve decides. Where nothing can be drawn (block
duels; since version "3" also three or four seats, pairs included) the search
is instead ``evaluate_duel``'s: the other seats reply by the tips model and the
computer's own later moves are searched by a tree over what it will see
(``games.ai.tree``).

The outcome of a round is scored for its side: points won or lost, a bonus
for winning the round, and a large one when the round ends the game (near the
target, the match score matters more than the points).

The budget is counted in simulated work, not wall time, so that a decision is
reproducible: the same view and seed give the same action on any machine, with
or without the compiled core (``games.ai.core``), which runs the same loops about
ten to fifteen times faster. ``DEFAULT_BUDGET_MS`` and ``HardOptions.speed`` are
calibrated for this machine (one core) with the compiled core.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from random import Random

from games.engine import Action, PlayerView

from . import core, model, tree
from .base import Candidate, candidates
from .knowledge import Choice, Dealer, Knowledge, public_voids, read_view
from .medium import score_play
from .model import choices_likelihood, rollout
from .sim import IS_DOUBLE, NO_WINNER, PIPS, make_policy, playout, round_result
from .solver import Solver, SolverBudget
from .tree import Move, OwnNode, backup, descend

DEFAULT_BUDGET_MS = 250


@dataclass(frozen=True, slots=True)
class HardOptions:
    """Hard's tuning knobs. The defaults are hard as it plays; the benchmarks pass other
    values (``dataclasses.replace``) instead of patching module globals. Every field that
    changes the search changes the decisions: a replay's computer moves are recomputed with
    the defaults.

    The budget is counted as estimated work (``*_us``: microseconds of the reference
    machine, one core, per piece of work), never read from the clock, so that a decision is
    reproducible on any machine, with or without the compiled core."""

    budget_ms: float = DEFAULT_BUDGET_MS
    # Work per unit of budget: the compiled core's speed over the pure-Python reference on
    # this machine (``bench/ai_core.py``: 11-16 times in the search loops). A budget of
    # ``budget_ms`` buys ``budget_ms * speed`` milliseconds of reference work, so with the
    # core a decision takes about ``budget_ms`` here; the reference path (numba missing or
    # switched off) makes the same decision, ``speed`` times slower.
    speed: float = 30.0
    # The cost model of the budget (reference microseconds; the setup, plain Python on both
    # paths, is charged ``speed`` times).
    setup_us: float = 400.0
    deal_us: float = 4.0
    swap_us: float = 0.9
    playout_us: float = 2.0
    turn_us: float = 2.25
    node_us: float = 5.0
    weigh_us: float = 8.0
    choice_us: float = 1.5
    model_choice_us: float = 12.0
    rollout_us: float = 3.0
    model_us: float = 2.2
    tree_us: float = 1.5
    # Share of random moves in the playouts (the rest follow the playout policy), and the
    # policy's weights: (per pip, per double, per tile held of the exposed number).
    playout_eps: float = 0.1
    playout_policy: tuple[int, int, int] = (1, 6, 2)
    # Issue 32's experiment (docs/ai.md, "A learned playout policy"): the playouts follow the
    # learned linear policy of ``games.ai.learn`` instead (``playout_policy`` unused), on the
    # pure-Python path only, each turn charged ``learn.TURN_COST`` times ``turn_us``. Off.
    learned_playout: bool = False
    min_deals: int = 8
    max_deals: int = 40_000
    # Exact solving once this few tiles remain in the hands and the boneyard.
    endgame_tiles: int = 10
    min_solved_deals: int = 12
    # At most this many nodes per exact solve (the compiled solver's table is sized for it).
    max_solver_nodes: int = 200_000
    # Reading the other seats' plays outside block duels: a seat lays tile t with a
    # probability proportional to exp(beta * (pips + double_weight * double)) among the
    # tiles it could lay; deals where the plays seen were likely weigh more (0: off).
    # "weight" is that pips-only model; "tips" the fuller one of ``games.ai.model`` (it
    # made no measurable difference outside block duels, so the cheaper one stays).
    beta: float = 0.4
    double_weight: float = 3.0
    opponent_model: str = "weight"
    # The tips model's sharpness (block duels, and "tips" above).
    temper: float = model.TEMPER
    # Block duels (two players, no drawing): each deal played on by the model for the other
    # seat (``evaluate_duel``) instead of by playouts and exact endgames, the computer's own
    # later moves searched by a tree over what it will see (``games.ai.tree``), passes
    # adding to the voids the model reads.
    duel_rollouts: bool = True
    duel_tree: bool = True
    # The same search (model rollouts, own-move tree, every other seat's plays read with the
    # tips model, partner included) with three or four seats, pairs included, wherever no
    # tile can be drawn any more (a block game, or a draw game whose boneyard is empty),
    # instead of the playouts; the endgames (``endgame_tiles``) are still solved exactly.
    # Since hard version "3" (off in "2").
    block_tree: bool = True
    # With three or four seats the model scores each play against every other seat and reads
    # the plays of three seats: the costs of that search (deal, tree, rollout, model) are
    # multiplied by this. 6 made a decision in pairs with the model's rollouts no dearer
    # than the playouts'; with ``tree_playout`` 4 buys about 10,000 deals in pairs at about
    # the playouts' CPU (docs/ai.md, "Hard version 3").
    crowd_cost: float = 4.0
    # With three or four seats (``block_tree``), the round finished beyond the tree by the
    # playouts' fast policy (``sim.playout``, ``playout_eps`` and ``playout_policy``, charged
    # as a playout) instead of the model's rollout; the model still answers for the other
    # seats inside the tree. There a rollout costs about five playouts (docs/ai.md). Block
    # duels keep the model's rollouts; the draw game's tree (``draw_tree``) needs this.
    # Since hard version "3".
    tree_playout: bool = True
    # In pairs (``block_tree``), the partner's plays read by the tips model like the
    # opponents' (on), with a sharpness of their own (``partner_temper``; None: ``temper``),
    # or not read at all (off: its choices leave every deal's weight alone). Issue 32's
    # lever (docs/ai.md, "Reading the partner"): the partner of hard is hard, not a tips
    # player, and a flatter reading of its plays (0.2) won more. Since hard version "4"
    # (None in "2" and "3").
    read_partner: bool = True
    partner_temper: float | None = 0.2
    # With three or four seats (``block_tree``), the other seats' plays read as the tips
    # model's at their sharpness or, with this probability, a tile at random (every tile that
    # fitted alike): a deal where a seat's play looks odd to the model keeps at least
    # tremble / tiles of its weight for that play. For players who are not tips players (a
    # searching program, a person, hard itself); 0 reads every seat as a tips player. Block
    # duels read as before. Issue 32's experiment (docs/ai.md, "What the model predicts, and
    # a reading that trembles").
    tremble: float = 0.0
    # The same tree in the draw game while tiles can still be drawn (two, three or four
    # seats): the other seats' draws and replies by the model, the computer's own draws as
    # chance nodes of its tree (``games.ai.tree``), the round finished beyond the tree by the
    # playouts (needs ``duel_tree`` and ``tree_playout``). Issue 32's lever for the draw game
    # (docs/ai.md, "The tree in the draw game"). Since hard version "5" (off before), with
    # at most ``draw_tree_seats`` seats: 2, the draw duel, where it was confirmed in games;
    # with three and four alone its screens showed no gain (4 would search every table).
    draw_tree: bool = True
    draw_tree_seats: int = 2
    # The tree of three and four seats (``block_tree``) searched in the endgames too, instead
    # of each deal solved exactly (``endgame_tiles``) as if the computer would see every hand
    # from then on. Issue 32's experiment (docs/ai.md, "The tree in the endgames"); the draw
    # duel's tree was screened with it too and gained nothing, so it leaves that one alone.
    # Since hard version "6" (off before).
    tree_endgames: bool = True
    track_voids: bool = True
    explore: float = tree.EXPLORE
    # Bonus for winning a single-round game, in points (only the win matters there; the
    # points only break ties). In a game to a target: a bonus for winning the round, and a
    # larger one for a round that ends the game.
    single_round_win: float = 1000.0
    round_win: float = 15.0
    game_win: float = 150.0
    # Most points a round is worth, beyond the bonuses (for scaling outcomes to about [-1, 1]).
    round_points: float = 50.0


DEFAULTS = HardOptions()

# The options of every search version of hard this code runs (``versions.IMPLEMENTED``):
# the defaults are the current version's. Version "2" had no tree with three or four seats
# (its ``crowd_cost`` and ``tree_playout`` are then unused).
VERSION_OPTIONS: dict[str, HardOptions] = {
    "2": replace(DEFAULTS, block_tree=False, partner_temper=None, draw_tree=False, tree_endgames=False),
    "3": replace(DEFAULTS, partner_temper=None, draw_tree=False, tree_endgames=False),
    "4": replace(DEFAULTS, draw_tree=False, tree_endgames=False),
    "5": replace(DEFAULTS, tree_endgames=False),
    "6": DEFAULTS,
}


def options_for(version: str | None) -> HardOptions:
    """The options hard version ``version`` decides with (None: the current version's)."""
    if version is None:
        return DEFAULTS
    try:
        return VERSION_OPTIONS[version]
    except KeyError:
        raise ValueError(f"hard version {version!r} is not run by this code ({tuple(VERSION_OPTIONS)})") from None


@dataclass(slots=True)
class SearchStats:
    """What the last decision searched: deals, playouts (or tree descents, or exact values)
    over all candidates, and per candidate, from the same deals and playouts as its value,
    the round's points for the seat's side (won +, lost -) and how often the side wins it."""

    deals: int = 0
    playouts: int = 0
    points: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)


def signed_points(side: int, points: int, me_side: int) -> float:
    """The round's points for the seat's side: won (+), lost (-), none when nobody wins."""
    if side == NO_WINNER:
        return 0.0
    return float(points) if side == me_side else -float(points)


def split_value(know: Knowledge, options: HardOptions, v: float) -> tuple[float, float]:
    """(points for the side, 1 if it wins) of an exact value (``make_utility``'s result):
    the inverse of the utility (exact with two sides; with three or four seats alone in a
    game to a target, the game bonus is read as paid when some seat it could end the game for)."""
    if v == 0.0:
        return 0.0, 0.0
    table = know.table
    won = v > 0
    value = v if won else -v * max(1, table.sides - 1)
    p = value - _win_bonus(know, options)
    if know.target > 0:
        q = p - options.game_win
        me_side = table.side(know.me)
        for s, score in enumerate(know.side_scores):
            if (s == me_side) == won and q >= 0 and score + q >= know.target:
                p = q
                break
    return (p, 1.0) if won else (-p, 0.0)


def _means(totals: list[float], pts: list[float], wins: list[float], weights: float
           ) -> tuple[list[float], list[float], list[float]]:
    if weights > 0:
        return [t / weights for t in totals], [p / weights for p in pts], [x / weights for x in wins]
    return [0.0] * len(totals), [0.0] * len(totals), [0.0] * len(totals)


def _choice_table(beta: float, double_weight: float) -> list[float]:
    return [math.exp(beta * (PIPS[i] + (double_weight if IS_DOUBLE[i] else 0.0))) for i in range(28)]


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


def make_utility(know: Knowledge, options: HardOptions = DEFAULTS) -> Callable[[int, int], float]:
    """Score of a finished round (winning side, points) for the seat's side."""
    table = know.table
    me_side = table.side(know.me)
    others = max(1, table.sides - 1)
    target = know.target
    scores = know.side_scores
    win_bonus = _win_bonus(know, options)
    game_bonus = options.game_win

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


def _win_bonus(know: Knowledge, options: HardOptions) -> float:
    return options.single_round_win if know.target <= 0 else options.round_win


def utility_scale(know: Knowledge, options: HardOptions = DEFAULTS) -> float:
    """About the largest outcome ``make_utility`` gives, to scale outcomes to [-1, 1]."""
    return _win_bonus(know, options) + (options.game_win if know.target > 0 else 0.0) + options.round_points


def best_of(know: Knowledge, cands: list[Candidate], totals: list[float]) -> int:
    """Index of the play with the best mean utility; ties (e.g. every play wins) go to
    the heuristic's favourite."""
    return max(range(len(cands)), key=lambda k: (round(totals[k], 9), score_play(know, cands[k])))


class HardPlayer:
    """Determinized Monte Carlo over consistent deals, exact in small endgames."""

    name = "hard"

    def __init__(
        self,
        budget_ms: float | None = None,
        *,
        options: HardOptions = DEFAULTS,
        duel_search: bool | None = None,
    ):
        """``budget_ms`` overrides ``options.budget_ms``; ``duel_search=False`` plays block duels
        like every other setup (playouts, exact endgames), as ``options.duel_rollouts=False``."""
        if budget_ms is not None:
            options = replace(options, budget_ms=budget_ms)
        if duel_search is not None:
            options = replace(options, duel_rollouts=duel_search)
        self.options = options
        self.stats = SearchStats()

    @property
    def budget_ms(self) -> float:
        return self.options.budget_ms

    def choose(self, view: PlayerView, rng: Random) -> Action:
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
        opts = self.options
        budget = max(1.0, opts.budget_ms * 1000.0 * opts.speed)
        table = know.table
        if self.searches_draw_tree(know):
            return self.evaluate_duel(know, cands, rng, budget)
        if table.players == 2:
            if opts.duel_rollouts and not table.draw:
                return self.evaluate_duel(know, cands, rng, budget)
        elif opts.block_tree and (not table.draw or know.boneyard == 0) and \
                (opts.tree_endgames or sum(know.counts) + know.boneyard > opts.endgame_tiles):
            return self.evaluate_duel(know, cands, rng, budget)
        utility = make_utility(know, opts)
        me = know.me
        nxt = (me + 1) % table.players
        dealer = Dealer(know, rng)
        deal_us = opts.deal_us + (opts.swap_us * dealer.swaps if dealer.constrained else 0.0)
        tips = opts.opponent_model == "tips"
        temper = opts.temper
        choices = know.choices if (temper if tips else opts.beta) > 0 else []
        likelihood = _choice_table(opts.beta, opts.double_weight) if choices else []
        if choices:
            deal_us += opts.weigh_us + (opts.model_choice_us if tips else opts.choice_us) * len(choices)
        weights = 0.0
        single_deal = _single_deal(dealer)
        totals = [0.0] * len(cands)
        solver: Solver | None = None
        if sum(know.counts) + know.boneyard <= opts.endgame_tiles:
            nodes = budget / opts.node_us / (len(cands) * (1 if single_deal else opts.min_solved_deals))
            solver = Solver(table, table.side(me), utility, int(min(opts.max_solver_nodes, max(200, nodes))))
        policy = make_policy(*opts.playout_policy)
        compiled = core.evaluate_general(
            know, cands, rng, dealer, use_choices=bool(choices), likelihood=likelihood, eps=opts.playout_eps,
            policy=policy, costs=(budget, opts.setup_us * opts.speed, deal_us, opts.playout_us, opts.turn_us, opts.node_us),
            limits=(opts.min_deals, opts.max_deals, solver.max_nodes if solver is not None else 0, single_deal),
            win_bonus=_win_bonus(know, opts), game_bonus=opts.game_win,
        ) if core.enabled() and not tips and not opts.learned_playout else None
        if compiled is not None:
            (means, pts_mean, wins_mean), deals, playouts = compiled
            self.stats = SearchStats(deals, playouts, pts_mean, wins_mean)
            return means
        spent = opts.setup_us * opts.speed
        deals = 0
        playouts = 0
        learned: tuple[float, ...] | None = None
        turn_us = opts.turn_us
        if opts.learned_playout:
            from . import learn

            learned = learn.weights()
            turn_us = opts.turn_us * learn.TURN_COST
        me_side = table.side(me)
        pts = [0.0] * len(cands)
        wins = [0.0] * len(cands)
        while deals < opts.max_deals and (spent < budget or deals < opts.min_deals):
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
                    spent += solver.nodes * opts.node_us
                    solver = None  # too big to solve: playouts from now on
                    continue
                spent += solver.nodes * opts.node_us
                deals += 1
                playouts += len(cands)  # exact values
                weights += w
                for k, v in enumerate(values):
                    totals[k] += w * v
                    p, won = split_value(know, opts, v)
                    pts[k] += w * p
                    wins[k] += w * won
                if single_deal:
                    break
                continue
            deals += 1
            weights += w
            # Every play's playout gets the same random numbers (common random numbers): the
            # first draws them from ``rng``, the next ones read them back (``stream``).
            stream: list[float] = []
            for k, c in enumerate(cands):
                hs = hands[:]
                hs[me] ^= 1 << c.tile
                if not hs[me]:
                    side, points = round_result(table, hs, me)
                    totals[k] += w * utility(side, points)
                    pts[k] += w * signed_points(side, points, me_side)
                    wins[k] += w * (1.0 if side == me_side else 0.0)
                    continue
                if learned is None:
                    side, points, turns = playout(
                        table, hs, bone[:], c.left, c.right, know.board | 1 << c.tile, nxt, rng, opts.playout_eps,
                        policy, stream,
                    )
                else:
                    side, points, turns = learn.playout(
                        table, hs, bone[:], c.left, c.right, know.board | 1 << c.tile, nxt, rng, opts.playout_eps,
                        learned, stream,
                    )
                playouts += 1
                totals[k] += w * utility(side, points)
                pts[k] += w * signed_points(side, points, me_side)
                wins[k] += w * (1.0 if side == me_side else 0.0)
                spent += opts.playout_us + turn_us * turns
        means, pts_mean, wins_mean = _means(totals, pts, wins, weights)
        self.stats = SearchStats(deals, playouts, pts_mean, wins_mean)
        return means

    def searches_draw_tree(self, know: Knowledge) -> bool:
        """Whether this position is searched by the tree of the draw game (``draw_tree``): a
        draw game with tiles left to draw, beyond the exact endgames."""
        opts = self.options
        return (opts.draw_tree and know.table.players <= opts.draw_tree_seats and opts.duel_tree and opts.tree_playout
                and know.table.draw and know.boneyard > 0 and sum(know.counts) + know.boneyard > opts.endgame_tiles)

    def evaluate_duel(self, know: Knowledge, cands: list[Candidate], rng: Random, budget: float) -> list[float]:
        """Block duel (and, with ``block_tree``, any block game): for each deal (weighted by
        the model's likelihood of the other seats' plays), each candidate is followed by a
        rollout where every seat plays the model's favourite tile for the hand the deal gives
        it, and the computer's own later moves are searched by a tree keyed by what it will
        have seen (``games.ai.tree``), so they never read the deal (no strategy fusion). With
        ``duel_tree`` off, they follow the model too: the value is that of "this play, then
        the model's play"."""
        opts = self.options
        table = know.table
        temper: float | list[float] = opts.temper
        if table.teams:
            partner = (know.me + 2) % table.players
            if not opts.read_partner:
                know = replace(know, choices=[c for c in know.choices if c.seat != partner])
            elif opts.partner_temper is not None and opts.temper > 0:
                temper = [opts.temper] * table.players
                temper[partner] = opts.partner_temper
        tremble = opts.tremble if table.players > 2 else 0.0
        utility = make_utility(know, opts)
        scale = utility_scale(know, opts)
        me = know.me
        nxt = (me + 1) % table.players
        dealer = Dealer(know, rng)
        deal_us = opts.deal_us + (opts.swap_us * dealer.swaps if dealer.constrained else 0.0)
        choices = know.choices if opts.temper > 0 else []
        if choices:
            deal_us += opts.weigh_us + opts.model_choice_us * len(choices)
        drawing = table.draw and know.boneyard > 0
        # The tree of the draw game costs, a deal, about what the tree with more seats does.
        crowd = opts.crowd_cost if table.players > 2 or drawing else 1.0
        tree_us, rollout_us, model_us = opts.tree_us * crowd, opts.rollout_us * crowd, opts.model_us * crowd
        deal_us *= crowd
        voids = public_voids(know)
        # One possible deal: in a block duel the descents of that deal are the model's rollouts
        # and one decides; with more seats the tree keeps learning on it.
        single_deal = _single_deal(dealer) and table.players == 2
        # Beyond the tree: the model's rollout, or the playouts (``tree_playout``).
        finish = opts.tree_playout and opts.duel_tree and (table.players > 2 or drawing)
        policy = make_policy(*opts.playout_policy) if finish else None
        compiled = core.evaluate_duel(
            know, cands, rng, dealer, temper=temper, tremble=tremble, voids=voids, tree=opts.duel_tree,
            track_voids=opts.track_voids, explore=opts.explore, scale=scale, model_weights=model.weights(),
            costs=(budget, opts.setup_us * opts.speed, deal_us, tree_us, rollout_us, model_us, opts.playout_us,
                   opts.turn_us),
            limits=(opts.min_deals, opts.max_deals, single_deal), win_bonus=_win_bonus(know, opts),
            game_bonus=opts.game_win, finish=(opts.playout_eps, policy) if policy is not None else None,
        ) if core.enabled() else None
        if compiled is not None:
            (means, pts_mean, wins_mean), deals, descents = compiled
            self.stats = SearchStats(deals, descents, pts_mean, wins_mean)
            return means
        me_side = table.side(me)
        totals = [0.0] * len(cands)
        pts = [0.0] * len(cands)
        wins = [0.0] * len(cands)
        trees: list[dict[int, OwnNode]] = [{} for _ in cands]
        path: list[tuple[OwnNode, Move]] = []
        weights = 0.0
        spent = opts.setup_us * opts.speed
        deals = 0
        descents = 0
        while deals < opts.max_deals and (spent < budget or deals < opts.min_deals):
            hands, bone = dealer.deal()
            spent += deal_us
            w = choices_likelihood(table, choices, dealer.held_before(), temper, tremble) if choices else 1.0
            deals += 1
            weights += w
            # The deal's playouts share their random numbers (``finish``), as in ``evaluate``.
            stream: list[float] = []
            for k, c in enumerate(cands):
                hs = hands[:]
                hs[me] ^= 1 << c.tile
                if not hs[me]:
                    side, points = round_result(table, hs, me)
                    totals[k] += w * utility(side, points)
                    pts[k] += w * signed_points(side, points, me_side)
                    wins[k] += w * (1.0 if side == me_side else 0.0)
                    continue
                board = know.board | 1 << c.tile
                descents += 1
                turns = 0
                if opts.duel_tree:
                    path.clear()
                    side, points, work, turns = descend(
                        table, hs, c.left, c.right, board, me, voids, trees[k], path, opts.explore, opts.track_voids,
                        (rng, opts.playout_eps, policy, stream) if policy is not None else None, bone[:],
                    )
                    value = utility(side, points)
                    backup(path, w, value / scale)
                    spent += tree_us * len(path)
                else:
                    side, points, work = rollout(table, hs, [], c.left, c.right, board, nxt, voids, opts.track_voids)
                    value = utility(side, points)
                totals[k] += w * value
                pts[k] += w * signed_points(side, points, me_side)
                wins[k] += w * (1.0 if side == me_side else 0.0)
                if finish:
                    spent += opts.playout_us + opts.turn_us * turns + model_us * work
                else:
                    spent += rollout_us + model_us * work
            if single_deal:
                break
        means, pts_mean, wins_mean = _means(totals, pts, wins, weights)
        self.stats = SearchStats(deals, descents, pts_mean, wins_mean)
        return means


def _single_deal(dealer: Dealer) -> bool:
    """True when only one deal agrees with the view (one place holds all unseen tiles)."""
    return len(set(dealer.place)) <= 1
