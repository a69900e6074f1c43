"""The generator's claims, checked by an independent brute force: a plain
minimax over the engine's own states (legal_actions, apply_action and the
engine's round result), not the solver the generator uses."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from games.ai import choose_action
from games.engine import PRESETS, TILES, Play, Rules, State, apply_action, legal_actions, new_game, view_for
from puzzles.generator import WIN, find_puzzles, judge, plays


def _utility(state: State, side: int) -> float:
    result = state.round_result
    assert result is not None
    if result.winner is None:
        return 0.0
    winner = result.winner % 2 if state.rules.teams else result.winner
    return WIN + result.points if winner == side else -(WIN + result.points)


def _side(state: State, seat: int) -> int:
    return seat % 2 if state.rules.teams else seat


def brute(state: State, side: int) -> float:
    if state.round_over or state.to_move is None:
        return _utility(state, side)
    values = [brute(apply_action(state, action), side) for action in legal_actions(state)]
    return max(values) if _side(state, state.to_move) == side else min(values)


def brute_plays(state: State) -> dict[tuple[int, int, str], float]:
    """The value of every legal play of the seat to move, for its side."""
    assert state.to_move is not None
    side = _side(state, state.to_move)
    return {
        (action.tile.low, action.tile.high, str(action.end)): brute(apply_action(state, action), side)
        for action in legal_actions(state)
        if isinstance(action, Play)
    }


def small_endgame(rng: Random, preset: str, size: int, bone: int) -> State:
    base = Rules(draw=False, players=4, teams=True) if preset == "pairs" else PRESETS[preset]
    rules = replace(base, hand_size=size, target=500)
    tiles = list(TILES)
    rng.shuffle(tiles)
    hands = [tiles[k * size : (k + 1) * size] for k in range(rules.players)]
    rest = tiles[rules.players * size :]
    return new_game(rules, hands=hands, boneyard=rest[:bone] if rules.draw else [], seed=rng.randrange(10**6))


CASES = [("duel-block", 5, 0), ("classic-draw", 4, 3), ("classic-block", 3, 0), ("pairs", 3, 0)]


@pytest.mark.parametrize(("preset", "size", "bone"), CASES)
def test_every_value_and_the_uniqueness_agree_with_a_brute_force(preset, size, bone):
    rng = Random(31)
    made = 0
    for _ in range(200):
        state = small_endgame(rng, preset, size, bone)
        if state.to_move is None or len(plays(state)) < 2:
            continue
        truth = brute_plays(state)
        puzzle = judge(state, 10**6)
        # Group the brute force's plays as the generator does: a tile on either of two equal ends is one play.
        groups: dict[tuple[int, int, tuple[str, ...]], float] = {}
        for tile, ends in plays(state):
            values = {truth[(tile.low, tile.high, end)] for end in ends}
            assert len(values) == 1
            groups[(tile.low, tile.high, ends)] = values.pop()
        winners = [key for key, value in groups.items() if value > 0]
        top = max(groups.values())
        unique = len(winners) == 1 or (
            len(winners) == len(groups) and sum(1 for value in groups.values() if value == top) == 1
        )
        if not unique:
            assert puzzle is None
            continue
        made += 1
        assert puzzle is not None
        want = winners[0] if len(winners) == 1 else next(key for key, value in groups.items() if value == top)
        got = puzzle.solution
        assert (got.tile.low, got.tile.high, got.ends) == want
        assert {(a.tile.low, a.tile.high, a.ends): a.value for a in puzzle.alternatives} == groups
        # The solution line is legal and ends the round as the solver said.
        end = state
        for step in puzzle.line:
            action = next(
                a
                for a in legal_actions(end)
                if a.seat == step["seat"]
                and type(a).__name__.lower() == step["action"]
                and (
                    step["action"] != "play"
                    or ([a.tile.low, a.tile.high], str(a.end)) == (step["tile"], step["end"])
                )
            )
            end = apply_action(end, action)
        assert end.round_over
        assert _utility(end, _side(state, puzzle.to_move)) == got.value
        assert puzzle.kind == (
            "count" if len(winners) > 1 else "block" if end.round_result.blocked else "domino"
        )
    assert made >= 5


def _self_play(preset: str, seed: int) -> list[tuple[int, State]]:
    state = new_game(PRESETS[preset], seed=seed)
    states = [(0, state)]
    while state.to_move is not None and not state.round_over:
        state = apply_action(state, choose_action(view_for(state, state.to_move), "easy", seed=len(states)))
        states.append((len(states), state))
    return states


def test_generation_is_deterministic_and_finds_the_kinds_in_duels():
    kinds = set()
    for seed in range(12):
        states = _self_play("duel-block", seed)
        first = find_puzzles(states)
        again = find_puzzles(states)
        assert first == again
        for puzzle in first:
            kinds.add(puzzle.kind)
            position = dict(states)[puzzle.seq]
            assert position.to_move == puzzle.to_move
    assert {"block", "domino"} <= kinds


def test_a_position_beyond_the_budget_makes_no_puzzle():
    states = _self_play("duel-block", 3)
    found = find_puzzles(states)
    assert found
    first = found[0]
    position = dict(states)[first.seq]
    assert judge(position, first.nodes, seq=first.seq) == first
    assert judge(position, first.nodes - 1, seq=first.seq) is None
