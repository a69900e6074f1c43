"""The engine's basic API: tiles, actions, dealing, opening, moves, replay, serialisation."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from games.engine import (
    PRESETS,
    TILES,
    Draw,
    End,
    IllegalAction,
    Pass,
    Play,
    PlayerView,
    Rules,
    Tile,
    apply_action,
    dump_state,
    legal_actions,
    load_state,
    new_game,
    next_round,
    replay,
    view_for,
)

from .helpers import t, ts


def test_tile_is_normalised_and_interned():
    assert Tile(5, 3) == Tile(3, 5)
    assert Tile(5, 3) is Tile(3, 5)
    assert (Tile(5, 3).low, Tile(5, 3).high) == (3, 5)
    assert Tile(3, 5).pips == 8
    assert Tile(4, 4).is_double
    assert not Tile(3, 4).is_double
    assert hash(Tile(1, 2)) == hash(Tile(2, 1))
    assert pickle.loads(pickle.dumps(Tile(2, 6))) is Tile(2, 6)


def test_tiles_are_ordered_by_low_then_high():
    assert Tile(0, 6) < Tile(1, 1) < Tile(1, 2)
    assert sorted([Tile(6, 6), Tile(0, 0), Tile(2, 3)]) == [Tile(0, 0), Tile(2, 3), Tile(6, 6)]
    assert len(TILES) == 28
    assert len(set(TILES)) == 28
    assert list(TILES) == sorted(TILES)


def test_tile_refuses_numbers_outside_the_set():
    with pytest.raises(ValueError):
        Tile(3, 7)
    with pytest.raises(TypeError):
        Tile("3", 4)  # type: ignore[arg-type]


def test_play_accepts_end_as_string():
    assert Play(0, Tile(1, 2), "left") == Play(0, Tile(1, 2), End.LEFT)  # type: ignore[arg-type]
    assert hash(Play(0, Tile(1, 2), "left")) == hash(Play(0, Tile(1, 2), End.LEFT))  # type: ignore[arg-type]
    assert Play(0, Tile(1, 2), "right") != Play(0, Tile(1, 2), End.LEFT)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Play(0, Tile(1, 2), "middle")  # type: ignore[arg-type]


def test_rules_defaults_are_the_reference_rules():
    rules = Rules()
    assert rules == PRESETS["classic-draw"]
    assert (rules.draw, rules.players, rules.teams, rules.hand_size, rules.target) == (True, 2, False, 7, 100)
    assert (rules.redeal_five_doubles, rules.next_opener, rules.blocked_tie) == (True, "next", "opener")
    assert (rules.closed_board, rules.team_scoring) == (True, "all_others")


@pytest.mark.parametrize(
    "bad",
    [
        {"players": 5},
        {"players": 3, "teams": True},
        {"hand_size": 0},
        {"players": 4, "hand_size": 8},
        {"target": -1},
        {"next_opener": "loser"},
        {"blocked_tie": "coin"},
        {"team_scoring": "mine"},
        {"draw": 1},
    ],
)
def test_rules_refuse_invalid_values(bad):
    with pytest.raises(ValueError):
        Rules(**bad)


def test_seeded_deal_gives_each_seat_its_hand_and_keeps_the_rest():
    state = new_game(Rules(players=3), seed=7)
    assert [len(h) for h in state.hands] in ([6, 7, 7], [7, 6, 7], [7, 7, 6])  # opener has laid one
    assert len(state.boneyard) == 7
    everything = [tile for hand in state.hands for tile in hand] + list(state.boneyard)
    everything += [tile for tile, _ in state.line]
    assert sorted(everything) == list(TILES)


def test_same_seed_same_deal_and_string_seed_equals_int_seed():
    assert new_game(Rules(), seed=99).hands == new_game(Rules(), seed=99).hands
    assert new_game(Rules(), seed=99).hands == new_game(Rules(), seed="99").hands
    assert new_game(Rules(), seed=99).hands != new_game(Rules(), seed=100).hands


def test_highest_double_opens_automatically():
    rules = Rules(players=2)
    state = new_game(rules, hands=[ts("1-2 3-3 0-6"), ts("5-5 4-6 0-1")], boneyard=ts("2-2"), seed=0)
    assert state.line == ((Tile(5, 5), (5, 5)),)
    assert state.opener == 1
    assert state.to_move == 0
    assert state.history[0].seat == 1
    assert state.history[0].tile == Tile(5, 5)
    assert state.history[0].ends is None
    assert state.history[0].end == "left"


def test_legal_actions_offer_a_tile_on_both_ends_left_first():
    rules = Rules(players=2, draw=False)
    # opener lays 6-6; then 3-6 on 6|6 fits both ends, even though they show the same number
    state = new_game(rules, hands=[ts("6-6 0-0"), ts("3-6 1-2")], seed=0)
    assert state.ends == (6, 6)
    assert legal_actions(state) == (Play(1, t("3-6"), End.LEFT), Play(1, t("3-6"), End.RIGHT))


def test_legal_actions_are_sorted_by_tile_then_end():
    rules = Rules(players=2, draw=False)
    state = new_game(rules, hands=[ts("4-4 0-0"), ts("0-4 4-5 1-4 2-3")], seed=0)
    assert [(a.tile, a.end) for a in legal_actions(state)] == [  # type: ignore[union-attr]
        (t("0-4"), "left"),
        (t("0-4"), "right"),
        (t("1-4"), "left"),
        (t("1-4"), "right"),
        (t("4-5"), "left"),
        (t("4-5"), "right"),
    ]


def test_play_orients_tiles_on_the_line():
    rules = Rules(players=2, draw=False)
    state = new_game(rules, hands=[ts("4-4 0-0 1-1"), ts("4-2 5-4 3-3")], seed=0)
    state = apply_action(state, Play(1, t("2-4"), End.LEFT))
    state = apply_action(state, Pass(0))
    state = apply_action(state, Play(1, t("4-5"), End.RIGHT))
    assert [pair for _, pair in state.line] == [(2, 4), (4, 4), (4, 5)]
    assert state.ends == (2, 5)


def test_apply_action_leaves_the_old_state_unchanged():
    state = new_game(Rules(), seed=3)
    before = dump_state(state)
    apply_action(state, legal_actions(state)[0])
    assert dump_state(state) == before


def test_out_of_turn_play_is_refused():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 1-2"), ts("6-1 0-0")], seed=0)
    with pytest.raises(IllegalAction) as error:
        apply_action(state, Play(0, t("1-2"), End.LEFT))
    assert error.value.code == "not_your_turn"


def test_tile_not_in_hand_is_refused():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 1-2"), ts("6-1 0-0")], seed=0)
    with pytest.raises(IllegalAction, match="not in seat 1's hand"):
        apply_action(state, Play(1, t("6-5"), End.LEFT))


def test_tile_on_the_wrong_end_is_refused():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 1-2"), ts("6-1 0-0")], seed=0)
    with pytest.raises(IllegalAction, match="does not match"):
        apply_action(state, Play(1, t("0-0"), End.RIGHT))


def test_pass_refused_while_a_tile_fits():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 1-2"), ts("6-1 0-0")], seed=0)
    with pytest.raises(IllegalAction, match="must be played"):
        apply_action(state, Pass(1))


def test_draw_refused_while_a_tile_fits():
    state = new_game(Rules(players=2), hands=[ts("6-6 1-2"), ts("6-1 0-0")], boneyard=ts("3-3 4-4"), seed=0)
    assert Draw(1) not in legal_actions(state)
    with pytest.raises(IllegalAction, match="must be played"):
        apply_action(state, Draw(1))


def _random_game(rules: Rules, seed: int) -> tuple[list, object]:
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    actions = []
    while not state.game_over:
        if state.round_over:
            state = next_round(state)
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = apply_action(state, action)
    return actions, state


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_replay_equals_the_live_game(preset):
    rules = PRESETS[preset]
    actions, final = _random_game(rules, 11)
    assert replay(rules, 11, actions) == final


def test_replay_reports_the_index_of_the_first_bad_action():
    rules = PRESETS["duel-block"]
    actions, _ = _random_game(rules, 5)
    bad = list(actions)
    bad[2] = Pass(bad[2].seat)
    if bad[2] == actions[2]:
        bad[2] = Play(actions[2].seat, Tile(6, 6), End.RIGHT)
    with pytest.raises(IllegalAction) as error:
        replay(rules, 5, bad)
    assert error.value.index == 2


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_dump_load_round_trip(preset):
    rules = PRESETS[preset]
    rng = random.Random(2)
    state = new_game(rules, seed=4)
    for _ in range(200):
        data = json.loads(json.dumps(dump_state(state)))
        assert load_state(data) == state
        assert dump_state(load_state(data)) == dump_state(state)
        if state.game_over:
            break
        state = (
            next_round(state) if state.round_over else apply_action(state, rng.choice(legal_actions(state)))
        )


def test_view_json_round_trip():
    rules = Rules(players=3)
    rng = random.Random(8)
    state = new_game(rules, seed=8)
    for _ in range(40):
        for seat in (None, 0, 1, 2):
            view = view_for(state, seat)
            data = json.loads(json.dumps(view.to_dict()))
            assert data == view.to_dict()
            assert PlayerView.from_dict(data) == view
        if state.round_over:
            break
        state = apply_action(state, rng.choice(legal_actions(state)))


def test_view_legal_uses_client_frame_shapes():
    rules = Rules(players=2)
    state = new_game(rules, hands=[ts("6-6 1-2"), ts("6-1 0-0")], boneyard=ts("3-3"), seed=0)
    assert view_for(state, 1).to_dict()["legal"] == [
        {"type": "play", "tile": [1, 6], "end": "left"},
        {"type": "play", "tile": [1, 6], "end": "right"},
    ]
    assert view_for(state, 0).legal == ()
    assert view_for(state, None).legal == ()
    assert view_for(state, None).hand == ()


def _reference_order(seed, round_no, attempt):
    """The deal exactly as docs/rules-engine.md and games/engine/deal.py describe it."""
    import hashlib

    stream = hashlib.shake_256(f"dominoes-deal:{seed}:{round_no}:{attempt}".encode()).digest(224)
    keys = [
        (stream[8 * i + 1] & 15) << 40 | int.from_bytes(stream[8 * i + 2 : 8 * i + 7], "big")
        for i in range(28)
    ]
    return sorted(range(28), key=lambda i: (keys[i], i))


@pytest.mark.parametrize("seed", [0, 1, 42, "abc", 2**70])
def test_deal_follows_the_documented_algorithm(seed):
    rules = Rules(players=3, draw=True, redeal_five_doubles=False)
    order = _reference_order(seed, 1, 0)
    state = new_game(rules, seed=seed)
    dealt = [sorted(TILES[i] for i in order[s * 7 : s * 7 + 7]) for s in range(3)]
    opener_tile = state.line[0][0]
    hands = [list(hand) for hand in state.hands]
    hands[state.opener] = sorted([*hands[state.opener], opener_tile])
    assert hands == dealt
    assert list(state.boneyard) == [TILES[i] for i in order[21:]]
    later = next_round(_finish_round_quickly(rules, seed))
    order2 = _reference_order(seed, 2, 0)
    assert [list(hand) for hand in later.hands] == [
        sorted(TILES[i] for i in order2[s * 7 : s * 7 + 7]) for s in range(3)
    ]


def _finish_round_quickly(rules, seed):
    state = new_game(rules, seed=seed)
    while not state.round_over:
        state = apply_action(state, legal_actions(state)[0])
    return state


def test_state_survives_pickle():
    state = new_game(Rules(players=4, teams=True), seed=9)
    state = apply_action(state, legal_actions(state)[-1])
    assert pickle.loads(pickle.dumps(state)) == state
    with pytest.raises(AttributeError):
        state.to_move = 3  # type: ignore[misc]
