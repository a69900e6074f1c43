"""Committed counts of the positions reachable from fixed deals.

Any change to a rule that touches these positions (legal moves, ends, drawing,
blocking, scoring) changes a count: look at why before updating one.
"""

from __future__ import annotations

from collections import Counter

from games.engine import Rules, State, apply_action, legal_actions, new_game

from .helpers import ts


def _explore(start: State) -> tuple[int, int, Counter]:
    """(distinct states, distinct final states, Counter of (winner, points, blocked) over final states)."""
    seen: set[State] = set()
    finals: Counter = Counter()
    stack = [start]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        if state.round_over:
            result = state.round_result
            finals[(result.winner, result.points, result.blocked)] += 1
            continue
        stack.extend(apply_action(state, action) for action in legal_actions(state))
    return len(seen), sum(finals.values()), finals


def test_reachable_positions_of_a_block_duel():
    rules = Rules(players=2, draw=False, target=0)
    start = new_game(rules, hands=[ts("6-6 1-2 3-4 0-5 2-2 1-6"), ts("6-2 2-5 4-4 0-3 1-3 5-6")], seed=0)
    states, finals, results = _explore(start)
    assert (states, finals) == (663, 198)
    assert results[(0, 15, False)] == 2  # seat 0 dominoes, 15 pips left in seat 1's hand
    assert sum(n for (winner, _, _), n in results.items() if winner == 1) == 46


def test_reachable_positions_of_a_draw_duel():
    rules = Rules(players=2, draw=True, target=0)
    hands = [ts("6-6 1-2 3-4 0-5 2-4 1-3"), ts("6-2 2-5 4-4 0-3 1-5 6-3")]
    start = new_game(rules, hands=hands, boneyard=ts("1-1 5-5 0-6 2-3 3-5 1-4 0-0"), seed=0)
    states, finals, results = _explore(start)
    assert (states, finals) == (4419, 912)
    assert sum(n for (_, _, blocked), n in results.items() if blocked) == 340
    assert sum(n for (winner, _, _), n in results.items() if winner == 1) == 474
