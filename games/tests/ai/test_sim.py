"""The bit-set simulator and the exact solver against the engine and against plain minimax."""
from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from games.ai.hard import make_utility
from games.ai.knowledge import read_view
from games.ai.sim import ENDS_MASK, NO_END, NUM, OTHER, TILES, Table, bits, mask_pips, playout, round_result
from games.ai.solver import Solver, SolverBudget
from games.engine import PRESETS, apply_action, new_game, rules_for, view_for

from .helpers import every_setup

SETUPS = list(every_setup(target=0))


def test_mask_pips_adds_every_tile():
    assert mask_pips((1 << 28) - 1) == 168
    assert mask_pips(NUM[6]) == 6 * 7 + 21


@pytest.mark.parametrize(("label", "rules"), SETUPS, ids=[label for label, _ in SETUPS])
def test_round_result_agrees_with_the_engine(label, rules):
    """Random games to the end: the simulator scores the final hands as the engine does."""
    rng = Random(label)
    for game in range(6):
        state = new_game(rules, seed=f"score-{label}-{game}")
        while not state.round_over:
            legal = view_for(state, state.to_move).legal
            state = apply_action(state, legal[rng.randrange(len(legal))])
        know = read_view(view_for(state, 0))
        hands = [sum(1 << t.index for t in hand) for hand in state.hands]
        result = state.round_result
        domino = -1 if result.blocked else result.winner
        side, points = round_result(know.table, hands, domino)
        if result.winner is None:
            assert side == -1
        else:
            assert side == (result.team if rules.teams else result.winner)
            assert points == result.points


@pytest.mark.parametrize(("label", "rules"), SETUPS, ids=[label for label, _ in SETUPS])
def test_playouts_from_real_positions_end_with_every_tile_accounted_for(label, rules):
    state = new_game(rules, seed=f"sim-{label}")
    know = read_view(view_for(state, state.to_move))
    rng = Random(0)
    for _ in range(50):
        hands = [sum(1 << t.index for t in hand) for hand in state.hands]
        bone = [t.index for t in reversed(state.boneyard)]
        total = sum(h.bit_count() for h in hands) + len(bone)
        side, points, turns = playout(know.table, hands, bone, know.left, know.right, know.board, state.to_move, rng)
        assert sum(h.bit_count() for h in hands) + len(bone) <= total
        assert side == -1 or 0 <= side < know.table.sides
        assert points >= 0
        assert turns >= 1


@pytest.mark.parametrize(("label", "rules"), SETUPS, ids=[label for label, _ in SETUPS])
def test_playouts_sharing_a_stream_get_the_numbers_of_a_fresh_seed_each(label, rules):
    """Common random numbers: playouts of several plays handed one ``stream`` play exactly as
    if the dice had been seeded again before each of them (and the stream is really reused)."""
    know = read_view(view_for(new_game(rules, seed=f"crn-{label}"), 0))
    state = new_game(rules, seed=f"crn-{label}")
    hands = [sum(1 << t.index for t in hand) for hand in state.hands]
    bone = [t.index for t in reversed(state.boneyard)]
    starts = [(seat, eps) for seat in range(rules.players) for eps in (0.0, 0.1, 0.5, 1.0)]
    for deal in range(10):
        seed = Random(f"{label}-{deal}").getrandbits(48)
        shared, fresh = Random(seed), Random()
        stream: list[float] = []
        for seat, eps in starts:
            fresh.seed(seed)
            expected = playout(know.table, hands[:], bone[:], NO_END, NO_END, 0, seat, fresh, eps)
            got = playout(know.table, hands[:], bone[:], NO_END, NO_END, 0, seat, shared, eps, None, stream)
            assert got == expected
        assert stream


def _minimax(table, hands, bone, left, right, seat, passes, me_side, utility):
    """Plain minimax, no pruning, no memory: the reference for the solver."""
    n = table.players
    fit = ENDS_MASK[left * 8 + right]
    h = hands[seat]
    m = h & fit
    if not m and table.draw and bone:
        bone = list(bone)
        while bone:
            tile = bone.pop(0)
            h |= 1 << tile
            if fit >> tile & 1:
                m = 1 << tile
                break
        hands = [*hands[:seat], h, *hands[seat + 1:]]
    if not m:
        if passes + 1 >= n:
            return utility(*round_result(table, hands, -1))
        return _minimax(table, hands, bone, left, right, (seat + 1) % n, passes + 1, me_side, utility)
    values = []
    for tile in bits(m):
        for on_left in (True, False):
            x = OTHER[tile * 7 + (left if on_left else right)]
            if x < 0:
                continue
            new = [*hands[:seat], h ^ 1 << tile, *hands[seat + 1:]]
            nl, nr = (x, right) if on_left else (left, x)
            if not new[seat]:
                values.append(utility(*round_result(table, new, seat)))
                continue
            values.append(_minimax(table, new, bone, nl, nr, (seat + 1) % n, 0, me_side, utility))
    return max(values) if table.side(seat) == me_side else min(values)


@pytest.mark.parametrize(("preset", "players", "teams", "size", "bone"), [
    ("duel-block", 2, False, 4, 0),
    ("classic-draw", 2, False, 3, 3),
    ("arena", 4, True, 2, 0),
    ("classic-block", 3, False, 2, 0),
])
def test_solver_matches_plain_minimax(preset, players, teams, size, bone):
    rules = replace(rules_for(preset, players=players, teams=teams), target=0, closed_board=False)
    table = Table(players, rules.draw, False, rules.blocked_tie, teams, rules.team_scoring, 0)
    rng = Random(3)

    def utility(side, points):
        return 0.0 if side < 0 else (points + 10.0 if side == 0 else -(points + 10.0))

    for _ in range(30):
        tiles = list(range(28))
        rng.shuffle(tiles)
        first = tiles.pop()
        hands = [sum(1 << x for x in tiles[k * size:(k + 1) * size]) for k in range(players)]
        pile = tiles[players * size: players * size + bone]
        # seat 0 lays ``first`` as the opening, then minimax for side 0
        hands[0] |= 1 << first
        solver = Solver(table, 0, utility, 10**6)
        got = solver.value_after(hands, tuple(pile), NO_END, NO_END, 0, 0, first, True)
        lo, hi = TILES[first]
        after = hands[:]
        after[0] ^= 1 << first
        if not after[0]:
            continue
        want = _minimax(table, after, pile, lo, hi, 1 % players, 0, 0, utility)
        assert got == pytest.approx(want)


def test_solver_gives_up_beyond_its_node_budget():
    table = Table(2, False, True, "draw", False, "all_others", 0)
    rng = Random(0)
    tiles = list(range(28))
    rng.shuffle(tiles)
    hands = [sum(1 << x for x in tiles[:7]), sum(1 << x for x in tiles[7:14])]
    solver = Solver(table, 0, lambda side, points: float(points), 5)
    with pytest.raises(SolverBudget):
        solver.value_after(hands, (), NO_END, NO_END, 0, 0, tiles[0], True)


def test_utility_counts_the_match_score_near_the_target():
    rules = replace(PRESETS["classic-block"], target=100)
    state = new_game(rules, seed=1)
    know = read_view(view_for(state, state.to_move))
    me = know.table.side(know.me)
    utility = make_utility(know)
    assert utility(me, 10) > 0 > utility(1 - me, 10)
    scores = [0, 0]
    scores[me] = 95
    near = make_utility(replace(know, side_scores=scores))
    assert near(me, 10) > utility(me, 10) + 100  # this round would win the game
    assert near(me, 4) == utility(me, 4)
