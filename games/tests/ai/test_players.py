"""One shared suite run against every level: legal, reproducible, and fair
(a decision depends on the seat's view only, never on the hidden tiles)."""
from __future__ import annotations

import json
from dataclasses import replace
from random import Random

import pytest

from games.ai import LEVELS, choose_action, make_player
from games.engine import (
    TILES,
    IllegalAction,
    PlayerView,
    apply_action,
    legal_actions,
    new_game,
    next_round,
    rules_for,
    view_for,
)

from .helpers import every_setup, initial_deal

# Small budgets keep the suite quick; the search code paths are the same.
BUDGET_MS = 4
SETUPS = list(every_setup(target=0))


def choose(view, level, seed):
    return choose_action(view, level, seed=seed, budget_ms=BUDGET_MS)


def test_levels_are_the_three_of_the_spec():
    assert LEVELS == ("easy", "medium", "hard")
    with pytest.raises(ValueError):
        make_player("expert")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("label", "rules"), SETUPS, ids=[label for label, _ in SETUPS])
def test_always_legal_in_every_setup(level, label, rules):
    decisions = 0
    for game in range(2):
        state = new_game(rules, seed=f"{label}-{game}")
        step = 0
        while not state.round_over:
            view = view_for(state, state.to_move)
            action = choose(view, level, seed=step)
            assert action in legal_actions(state), (label, step, action)
            state = apply_action(state, action)
            step += 1
            decisions += 1
    assert decisions > 0


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("preset", ["classic-draw", "quick", "duel-block"])
def test_free_choice_openings_of_later_rounds(level, preset):
    """Rounds after the first open with any tile of the opener's choice."""
    rules = replace(rules_for(preset, players=3 if preset != "duel-block" else 2), target=100)
    state = new_game(rules, seed=f"later-{preset}")
    rounds = 0
    while rounds < 3 and not state.game_over:
        while not state.round_over:
            view = view_for(state, state.to_move)
            action = choose(view, level, seed=rounds)
            assert action in legal_actions(state)
            state = apply_action(state, action)
        rounds += 1
        if not state.game_over:
            state = next_round(state)
            assert state.ends is None
            opening = choose(view_for(state, state.to_move), level, seed=0)
            assert opening in legal_actions(state)
    assert rounds >= 2 or state.game_over


def _positions(rules, seed, count):
    """Views of the seat to move with a real choice, from a medium-played game."""
    state = new_game(rules, seed=seed)
    out = []
    while not state.round_over and len(out) < count:
        view = view_for(state, state.to_move)
        if len(view.legal) > 1:
            out.append((state, view))
        state = apply_action(state, choose_action(view, "medium", seed=0))
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_give_the_same_action(level):
    for label, rules in SETUPS[::3]:
        for _state, view in _positions(rules, f"same-{label}", 3):
            first = choose(view, level, seed=11)
            again = choose(view, level, seed=11)
            assert first == again
            # the view as JSON, rebuilt, decides alike
            rebuilt = PlayerView.from_dict(json.loads(json.dumps(view.to_dict())))
            assert choose(rebuilt, level, seed=11) == first
            # without a seed: derived from the view, so still reproducible
            assert choose_action(view, level, budget_ms=BUDGET_MS) == choose_action(
                view, level, budget_ms=BUDGET_MS
            )


def _other_world(start, actions, seat, rng):
    """A different real deal that gives ``seat`` exactly the same view after ``actions``.

    Swaps two tiles that ``seat`` never saw between two other places (other
    hands, the boneyard, the tiles set aside), replays the same actions and
    keeps the first swap after which everything stays legal and ``seat``'s
    view is unchanged. None when no such swap exists.
    """
    hands, pile = initial_deal(start)
    rules = start.rules
    seen = {tile for tile in hands[seat]}
    places = [("hand", s) for s in range(rules.players) if s != seat] + [("pile", None)]
    out_of_play = [tile for tile in _all_tiles() if tile not in seen and not any(tile in h for h in hands)
                   and tile not in pile]

    def tiles_of(place):
        kind, s = place
        return hands[s] if kind == "hand" else pile

    target = _replay(rules, hands, pile, actions)
    wanted = view_for(target, seat).to_dict()
    candidates = []
    for i, p in enumerate(places):
        for q in places[i + 1:]:
            for x in tiles_of(p):
                for y in tiles_of(q):
                    candidates.append((p, x, q, y))
        for y in out_of_play:
            for x in tiles_of(p):
                candidates.append((p, x, None, y))
    rng.shuffle(candidates)
    for p, x, q, y in candidates:
        new_hands = [list(h) for h in hands]
        new_pile = list(pile)

        def put(place, old, new, new_hands=new_hands, new_pile=new_pile):
            kind, s = place
            target_list = new_hands[s] if kind == "hand" else new_pile
            target_list[target_list.index(old)] = new

        put(p, x, y)
        if q is not None:
            put(q, y, x)
        try:
            other = _replay(rules, new_hands, new_pile, actions)
        except IllegalAction:
            continue
        if view_for(other, seat).to_dict() == wanted and other.hands != target.hands:
            return target, other
    return None


def _all_tiles():
    return list(TILES)


def _replay(rules, hands, pile, actions):
    state = new_game(rules, seed=0, hands=hands, boneyard=pile)
    for action in actions:
        state = apply_action(state, action)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_tiles_of_the_other_seats_never_change_a_decision(level):
    """Fairness: two real deals that differ only in tiles the seat cannot see give
    the seat the same view, and the computer then takes the same action."""
    rng = Random(5)
    checked = 0
    for label, rules in SETUPS:
        state = new_game(rules, seed=f"fair-{label}")
        actions = []
        decisions = 0
        while not state.round_over and decisions < 3:
            view = view_for(state, state.to_move)
            if len(view.legal) > 1 and len(actions) >= 2:
                pair = _other_world(new_game(rules, seed=f"fair-{label}"), actions, state.to_move, rng)
                if pair is not None:
                    real, other = pair
                    view_a = view_for(real, real.to_move)
                    view_b = view_for(other, other.to_move)
                    assert view_a == view_b
                    for seed in (1, 2):
                        assert choose(view_a, level, seed) == choose(view_b, level, seed)
                    checked += 1
                    decisions += 1
            action = choose_action(view, "medium", seed=0)
            actions.append(action)
            state = apply_action(state, action)
    assert checked >= len(SETUPS)
