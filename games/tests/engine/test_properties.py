"""Property tests over random seeded games, for every preset and table choice."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    PRESET_OPTIONS,
    TILES,
    Draw,
    End,
    IllegalAction,
    Pass,
    Play,
    State,
    Tile,
    apply_action,
    legal_actions,
    new_game,
    next_round,
    rules_for,
    view_for,
)
from games.engine.state import hand_pips

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tables(draw):
    """(rules, seed) for any preset, any allowed players/pairs/target."""
    name = draw(st.sampled_from(sorted(PRESET_OPTIONS)))
    options = PRESET_OPTIONS[name]
    players, teams = draw(st.sampled_from(options.combinations()))
    target = draw(st.sampled_from(options.targets))
    seed = draw(st.integers(min_value=0, max_value=2**64))
    return rules_for(name, players=players, teams=teams, target=target), seed


def _check_tiles_accounted(state: State) -> None:
    hands = [tile for hand in state.hands for tile in hand]
    line = [tile for tile, _ in state.line]
    everything = hands + line + list(state.boneyard) + list(state.undealt)
    assert sorted(everything) == list(TILES)
    assert len(line) == state.table_bits.bit_count()
    # the line is a chain: each tile touches its neighbour with the same number
    pairs = [pair for _, pair in state.line]
    assert all(a[1] == b[0] for a, b in itertools.pairwise(pairs))
    if pairs:
        assert state.ends == (pairs[0][0], pairs[-1][1])


def _check_views(state: State) -> None:
    public = {tile for tile, _ in state.line}
    for seat in (None, *range(state.rules.players)):
        view = view_for(state, seat)
        own = set(state.hands[seat]) if seat is not None else set()
        seen = set(view.hand) | {Tile(a, b) for a, b in view.line}
        seen |= {entry.tile for entry in view.history if entry.tile is not None}
        assert seen <= own | public, (seat, seen - own - public)
        assert set(view.hand) == own
        # the JSON holds no other tile either
        data = json.loads(json.dumps(view.to_dict()))
        json_tiles = {Tile(*pair) for pair in data["hand"]} | {Tile(*pair) for pair in data["line"]}
        json_tiles |= {Tile(*entry["tile"]) for entry in data["history"] if entry["tile"] is not None}
        assert json_tiles <= own | public
        assert view.hand_counts == state.hand_counts
        if seat is not None and seat == state.to_move:
            assert view.legal == legal_actions(state)
        else:
            assert view.legal == ()


def _expected_points(state: State) -> int:
    result = state.round_result
    assert result is not None
    if result.winner is None:
        return 0
    pips = [hand_pips(bits) for bits in state.hand_bits]
    if not result.blocked:
        assert pips[result.winner] == 0
    else:
        assert pips[result.winner] == min(pips)
    if state.rules.teams and state.rules.team_scoring == "opponents":
        return sum(p for seat, p in enumerate(pips) if seat % 2 != result.winner % 2)
    return sum(pips) - pips[result.winner]


def _play_out(rules, seed, *, check_views: bool, check_refusals: bool) -> State:
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    totals = [0] * rules.sides
    for _ in range(20_000):
        _check_tiles_accounted(state)
        if check_views:
            _check_views(state)
        if state.game_over:
            break
        if state.round_over:
            result = state.round_result
            assert result is not None
            assert result.points == _expected_points(state)
            if result.winner is not None:
                totals[result.winner % 2 if rules.teams else result.winner] += result.points
            assert list(state.scores) == totals
            state = next_round(state)
            continue
        legal = legal_actions(state)
        assert legal
        if check_refusals:
            _check_only_legal_accepted(state, legal)
        state = apply_action(state, rng.choice(legal))
    assert state.game_over
    result = state.round_result
    assert result is not None
    assert result.points == _expected_points(state)
    if result.winner is not None:
        totals[result.winner % 2 if rules.teams else result.winner] += result.points
    assert list(state.scores) == totals
    if rules.target:
        assert max(state.scores) >= rules.target
        assert state.winner == state.scores.index(max(state.scores))
    return state


def _check_only_legal_accepted(state: State, legal) -> None:
    seat = state.to_move
    candidates = [Play(s, tile, end) for s in range(state.rules.players) for tile in TILES for end in End]
    candidates += [Draw(s) for s in range(state.rules.players)] + [
        Pass(s) for s in range(state.rules.players)
    ]
    for action in candidates:
        try:
            apply_action(state, action)
        except IllegalAction:
            assert action not in legal, action
        else:
            assert action in legal, action
            assert action.seat == seat


@SETTINGS
@given(tables())
def test_random_games_end_with_all_tiles_accounted_and_scores_adding_up(table):
    rules, seed = table
    _play_out(rules, seed, check_views=False, check_refusals=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_views_never_show_another_seats_tile(table):
    rules, seed = table
    _play_out(
        rules.__class__(**{**rules.to_dict(), "target": 0}), seed, check_views=True, check_refusals=False
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_apply_action_accepts_exactly_the_legal_actions(table):
    rules, seed = table
    _play_out(
        rules.__class__(**{**rules.to_dict(), "target": 0}), seed, check_views=False, check_refusals=True
    )
