"""One named test per rule and per option value, on hand-built positions."""

from __future__ import annotations

import itertools

import pytest

from games.engine import (
    PRESET_OPTIONS,
    PRESETS,
    Draw,
    End,
    IllegalAction,
    Pass,
    Play,
    RoundResult,
    Rules,
    agree_draw,
    apply_action,
    commit_seed,
    legal_actions,
    new_game,
    next_round,
    resign,
    rules_for,
    view_for,
)
from games.engine.deal import deal_hands, shuffled_order
from games.engine.tiles import DOUBLES_MASK

from .helpers import play_all, t, ts

L, R = End.LEFT, End.RIGHT


# -- opening ----------------------------------------------------------------


def _two_player_deal(first: str, second: str, boneyard: str | None = None, *, draw: bool = True):
    """A two-player game dealt ``first`` and ``second`` by hand; the opening tile is already laid."""
    return new_game(
        Rules(players=2, draw=draw),
        hands=[ts(first), ts(second)],
        boneyard=None if boneyard is None else ts(boneyard),
        seed=0,
    )


def test_five_five_opens_when_six_six_in_boneyard():
    state = _two_player_deal("1-2 5-5 0-3", "4-4 2-6", boneyard="6-6 0-0")
    assert state.line[0][0] == t("5-5")
    assert state.opener == 0
    assert state.to_move == 1


def test_five_five_opens_when_six_six_set_aside_in_block_game():
    state = _two_player_deal("4-4 0-3", "5-5 2-6", draw=False)
    assert t("6-6") in state.undealt
    assert state.line[0][0] == t("5-5")
    assert state.opener == 1


def test_heaviest_tile_opens_without_doubles():
    state = _two_player_deal("0-1 2-3 4-6", "5-6 0-2 1-3", boneyard="6-6")
    assert state.line[0][0] == t("5-6")
    assert state.opener == 1
    assert state.to_move == 0


def test_six_three_opens_before_five_four_at_equal_weight():
    state = _two_player_deal("4-5 0-1", "3-6 0-2", boneyard="6-6")
    assert state.line[0][0] == t("3-6")
    assert state.opener == 1


def test_later_round_opener_lays_any_tile_on_the_left():
    state = _seat2_dominoes(Rules(players=3, draw=False))
    state = next_round(state)
    assert state.line == ()
    assert state.to_move == state.opener
    hand = state.hands[state.opener]
    assert legal_actions(state) == tuple(Play(state.opener, tile, L) for tile in hand)
    with pytest.raises(IllegalAction, match="left"):
        apply_action(state, Play(state.opener, hand[0], R))
    with pytest.raises(IllegalAction):
        apply_action(state, Pass(state.opener))
    after = apply_action(state, Play(state.opener, hand[-1], L))
    assert after.ends == (hand[-1].low, hand[-1].high)


def test_later_rounds_are_dealt_from_the_seed():
    rules = Rules(players=3, draw=False)
    state = next_round(_seat2_dominoes(rules, seed=77))
    hand_bits, _ = deal_hands(rules, 77, 2)
    assert state.hand_bits == hand_bits
    assert state.round == 2


# -- next_opener ----------------------------------------------------------


def _seat2_dominoes(rules: Rules, seed: int = 0):
    """Round 1 at 3 players: seat 0 opens 6-6, seat 1 passes, seat 2 dominoes with 6-5."""
    state = new_game(rules, hands=[ts("6-6 0-0"), ts("1-1 1-2"), ts("6-5")], boneyard=[], seed=seed)
    state = play_all(state, [Pass(1), Play(2, t("6-5"), L)])
    assert state.round_result == RoundResult(winner=2, team=None, points=5, blocked=False)
    return state


def test_next_opener_next_is_the_seat_after_the_previous_opener():
    state = next_round(_seat2_dominoes(Rules(players=3, draw=False, next_opener="next")))
    assert state.opener == 1
    assert state.to_move == 1


def test_next_opener_winner_is_the_previous_round_winner():
    state = next_round(_seat2_dominoes(Rules(players=3, draw=False, next_opener="winner")))
    assert state.opener == 2
    assert state.to_move == 2


def test_next_opener_winner_falls_back_to_next_seat_without_a_winner():
    rules = Rules(players=2, draw=False, next_opener="winner", blocked_tie="nobody")
    state = _tied_block(rules)
    assert state.round_result is not None
    assert state.round_result.winner is None
    assert next_round(state).opener == 1


# -- turns, drawing, passing --------------------------------------------------


def test_turn_order_goes_up_by_seat_number():
    state = new_game(Rules(players=4, draw=False), seed=5)
    seats = [state.opener]
    for _ in range(5):
        seats.append(state.to_move)
        state = apply_action(state, legal_actions(state)[0])
        if state.round_over:
            break
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(seats))


def test_draw_takes_the_first_boneyard_tile_and_keeps_the_turn():
    state = new_game(
        Rules(players=2), hands=[ts("6-6 0-1"), ts("6-5 2-3 5-2")], boneyard=ts("4-4 0-5 1-1"), seed=0
    )
    state = apply_action(state, Play(1, t("6-5"), L))
    assert legal_actions(state) == (Draw(0),)
    state = apply_action(state, Draw(0))
    assert t("4-4") in state.hands[0]
    assert state.to_move == 0
    assert state.boneyard == (t("0-5"), t("1-1"))


def test_drawn_tile_that_fits_must_be_played():
    state = new_game(
        Rules(players=2), hands=[ts("6-6 0-1"), ts("6-5 2-3 5-2")], boneyard=ts("4-4 0-5 1-1"), seed=0
    )
    state = play_all(state, [Play(1, t("6-5"), L), Draw(0), Draw(0)])
    assert legal_actions(state) == (Play(0, t("0-5"), L),)
    with pytest.raises(IllegalAction):
        apply_action(state, Draw(0))
    with pytest.raises(IllegalAction):
        apply_action(state, Pass(0))


def test_pass_only_when_the_boneyard_is_empty():
    state = new_game(
        Rules(players=2), hands=[ts("6-6 0-1 1-1"), ts("6-5 2-3 5-2")], boneyard=ts("4-4"), seed=0
    )
    state = apply_action(state, Play(1, t("6-5"), L))
    with pytest.raises(IllegalAction, match="draw instead"):
        apply_action(state, Pass(0))
    state = apply_action(state, Draw(0))
    assert legal_actions(state) == (Pass(0),)
    state = apply_action(state, Pass(0))
    assert state.to_move == 1


def test_block_game_passes_when_nothing_fits():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 0-1"), ts("6-5 5-2 3-3")], seed=0)
    state = apply_action(state, Play(1, t("6-5"), L))
    assert legal_actions(state) == (Pass(0),)
    assert apply_action(state, Pass(0)).to_move == 1


def test_draw_refused_in_the_block_game():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 0-1"), ts("6-5 5-2 3-3")], seed=0)
    state = apply_action(state, Play(1, t("6-5"), L))
    with pytest.raises(IllegalAction, match="block game"):
        apply_action(state, Draw(0))


def test_block_game_never_uses_the_undealt_tiles():
    state = new_game(PRESETS["duel-block"], seed=3)
    assert state.boneyard == ()
    assert state.boneyard_count == 0
    assert state.undealt_count == 14
    view = view_for(state, 0)
    assert (view.boneyard_count, view.undealt_count) == (0, 14)


def test_draw_game_with_four_players_of_seven_has_no_boneyard():
    state = new_game(Rules(players=4), seed=1)
    assert state.boneyard_count == 0
    assert state.undealt_count == 0
    assert sum(state.hand_counts) == 27


# -- hand size ----------------------------------------------------------------


def test_hand_size_seven_by_default():
    assert Rules(players=4).deal_size == 7
    assert sorted(new_game(Rules(players=3), seed=2).hand_counts) == [6, 7, 7]


def test_hand_size_none_deals_five_in_the_draw_game_at_three_and_four():
    assert Rules(players=3, hand_size=None).deal_size == 5
    assert Rules(players=4, hand_size=None).deal_size == 5
    state = new_game(Rules(players=4, hand_size=None), seed=2)
    assert sorted(state.hand_counts) == [4, 5, 5, 5]
    assert state.boneyard_count == 8


def test_hand_size_none_deals_seven_at_two_players_or_in_the_block_game():
    assert Rules(players=2, hand_size=None).deal_size == 7
    assert Rules(players=4, hand_size=None, draw=False).deal_size == 7


def test_explicit_hand_size_is_dealt():
    state = new_game(Rules(players=2, hand_size=3), seed=2)
    assert sorted(state.hand_counts) == [2, 3]
    assert state.boneyard_count == 22


# -- domino -------------------------------------------------------------------


def test_domino_ends_the_round_at_once_and_scores_the_other_hands():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 6-1"), ts("6-3 2-2 4-5")], seed=0)
    state = play_all(state, [Play(1, t("6-3"), L), Play(0, t("6-1"), R)])
    assert state.round_over
    assert state.to_move is None
    assert state.round_result == RoundResult(winner=0, team=None, points=13, blocked=False)
    assert state.scores == (13, 0)
    assert not state.game_over


def test_domino_in_the_draw_game_with_tiles_left_in_the_boneyard():
    state = new_game(
        Rules(players=2), hands=[ts("6-6 6-1"), ts("6-3 2-2 4-5")], boneyard=ts("0-0 1-2"), seed=0
    )
    state = play_all(state, [Play(1, t("6-3"), L), Play(0, t("6-1"), R)])
    assert state.round_result == RoundResult(winner=0, team=None, points=13, blocked=False)
    assert state.boneyard_count == 2


def test_action_after_the_round_is_refused():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 6-1"), ts("6-3 2-2 4-5")], seed=0)
    state = play_all(state, [Play(1, t("6-3"), L), Play(0, t("6-1"), R)])
    with pytest.raises(IllegalAction) as error:
        apply_action(state, Pass(1))
    assert error.value.code == "round_over"
    assert legal_actions(state) == ()


# -- blocked rounds -----------------------------------------------------------


def test_blocked_round_ends_without_waiting_for_passes():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 0-0 1-2"), ts("6-5 3-3 0-1")], seed=0)
    state = apply_action(state, Play(1, t("6-5"), L))
    assert state.round_over
    assert state.history[-1].action == "play"


def test_blocked_lightest_hand_wins_and_scores_the_other_hands():
    state = new_game(Rules(players=2, draw=False), hands=[ts("6-6 0-0 1-2"), ts("6-5 3-3 0-1")], seed=0)
    state = apply_action(state, Play(1, t("6-5"), L))
    assert state.round_result == RoundResult(winner=0, team=None, points=7, blocked=True)
    assert state.scores == (7, 0)


def _tied_block(rules: Rules):
    state = new_game(rules, hands=[ts("6-6 0-3"), ts("6-5 1-2")], seed=0)
    return apply_action(state, Play(1, t("6-5"), L))


def test_blocked_tie_opener_gives_the_round_to_the_opener():
    state = _tied_block(Rules(players=2, draw=False, blocked_tie="opener"))
    assert state.round_result == RoundResult(winner=0, team=None, points=3, blocked=True)


def test_blocked_tie_opener_goes_to_the_tied_seat_nearest_after_the_opener():
    rules = Rules(players=3, draw=False, blocked_tie="opener")
    state = new_game(rules, hands=[ts("0-3"), ts("6-6 5-5"), ts("6-4 1-2")], seed=0)
    assert state.opener == 1
    state = apply_action(state, Play(2, t("6-4"), L))
    assert state.round_result == RoundResult(winner=2, team=None, points=13, blocked=True)


def test_blocked_tie_nobody_scores_nothing():
    state = _tied_block(Rules(players=2, draw=False, blocked_tie="nobody", target=100))
    assert state.round_result == RoundResult(winner=None, team=None, points=0, blocked=True)
    assert state.scores == (0, 0)
    assert not state.game_over


def test_blocked_tie_draw_makes_a_single_round_game_a_draw():
    state = _tied_block(Rules(players=2, draw=False, blocked_tie="draw", target=0))
    assert state.round_result == RoundResult(winner=None, team=None, points=0, blocked=True)
    assert state.game_over
    assert state.winner is None


def test_blocked_tie_draw_in_a_long_game_scores_nothing_and_goes_on():
    state = _tied_block(Rules(players=2, draw=False, blocked_tie="draw", target=50))
    assert state.scores == (0, 0)
    assert not state.game_over
    assert next_round(state).round == 2


CLOSING = [
    Play(1, t("1-6"), L),
    Play(0, t("2-6"), R),
    Play(1, t("0-1"), L),
    Play(0, t("2-3"), R),
    Play(1, t("0-6"), L),
    Play(0, t("3-6"), R),
    Play(1, t("4-6"), R),
    Play(0, t("4-5"), R),
    Play(1, t("5-6"), R),
]


def _closing_game(rules: Rules):
    hands = [ts("6-6 2-6 2-3 3-6 4-5 1-1 0-0"), ts("1-6 0-1 0-6 4-6 5-6 2-2 3-3")]
    boneyard = ts("0-2 0-3 0-4 0-5 1-2 1-3 1-4 1-5 2-4 2-5 3-4 3-5 4-4 5-5")
    return play_all(new_game(rules, hands=hands, boneyard=boneyard, seed=0), CLOSING)


def test_closed_board_ends_draw_game_before_boneyard_is_empty():
    state = _closing_game(Rules(players=2, closed_board=True))
    assert state.ends == (6, 6)
    assert state.boneyard_count == 14
    assert state.round_result == RoundResult(winner=0, team=None, points=10, blocked=True)


def test_closed_board_off_makes_players_draw_on():
    state = _closing_game(Rules(players=2, closed_board=False))
    assert not state.round_over
    assert legal_actions(state) == (Draw(0),)


def test_draw_game_blocks_when_the_last_tile_drawn_fits_nobody():
    state = new_game(Rules(players=2), hands=[ts("6-6 0-1"), ts("6-5 2-3")], boneyard=ts("4-4"), seed=0)
    state = play_all(state, [Play(1, t("6-5"), L), Draw(0)])
    assert state.round_result == RoundResult(winner=1, team=None, points=9, blocked=True)


# -- pairs ----------------------------------------------------------------------

PAIRS = Rules(players=4, teams=True, draw=False, target=100)


def _pairs_block(rules: Rules, hands: str):
    state = new_game(rules, hands=[ts(h) for h in hands.split(",")], seed=0)
    assert state.opener == 0
    return apply_action(state, Play(1, t("6-5"), L))


def test_pairs_all_others_scores_every_other_hand_partner_included():
    state = _pairs_block(PAIRS, "6-6 0-0 0-1, 6-5 2-3, 1-3, 2-4")
    assert state.round_result == RoundResult(winner=0, team=0, points=15, blocked=True)
    assert state.scores == (15, 0)


def test_pairs_opponents_scores_only_the_opposing_pair():
    rules = Rules(players=4, teams=True, draw=False, team_scoring="opponents")
    state = _pairs_block(rules, "6-6 0-0 0-1, 6-5 2-3, 1-3, 2-4")
    assert state.round_result == RoundResult(winner=0, team=0, points=11, blocked=True)
    assert state.scores == (11, 0)


def test_pairs_domino_scores_with_team_scoring():
    hands = [ts("6-6 0-0"), ts("1-1 1-2"), ts("6-4"), ts("2-3 3-3")]
    for scoring, points in (("all_others", 16), ("opponents", 16)):
        rules = Rules(players=4, teams=True, draw=False, team_scoring=scoring)
        state = play_all(new_game(rules, hands=hands, seed=0), [Pass(1), Play(2, t("6-4"), L)])
        assert state.round_result == RoundResult(winner=2, team=0, points=points, blocked=False)
    hands = [ts("6-6 0-1"), ts("1-1 1-2"), ts("6-4"), ts("2-3 3-3")]
    expected = {"all_others": 17, "opponents": 16}
    for scoring, points in expected.items():
        rules = Rules(players=4, teams=True, draw=False, team_scoring=scoring)
        state = play_all(new_game(rules, hands=hands, seed=0), [Pass(1), Play(2, t("6-4"), L)])
        assert state.round_result.points == points
        assert state.scores == (points, 0)


def test_pairs_lightest_single_hand_decides_the_pair():
    state = _pairs_block(PAIRS, "6-6 2-2, 6-5 4-4, 0-1, 0-0")
    # team 0 holds 5 pips in all, team 1 holds 8, but seat 3 holds the lightest hand
    assert state.round_result == RoundResult(winner=3, team=1, points=13, blocked=True)
    assert state.scores == (0, 13)


def test_pairs_tie_between_partners_is_no_tie():
    rules = Rules(players=4, teams=True, draw=False, blocked_tie="nobody")
    state = _pairs_block(rules, "6-6 1-1, 6-5 4-4, 0-2, 3-3")
    assert state.round_result == RoundResult(winner=0, team=0, points=16, blocked=True)


def test_pairs_tie_between_opponents_follows_blocked_tie():
    hands = "6-6 1-1, 6-5 0-2, 3-3, 4-4"
    nobody = _pairs_block(Rules(players=4, teams=True, draw=False, blocked_tie="nobody"), hands)
    assert nobody.round_result == RoundResult(winner=None, team=None, points=0, blocked=True)
    opener = _pairs_block(Rules(players=4, teams=True, draw=False, blocked_tie="opener"), hands)
    assert opener.round_result == RoundResult(winner=0, team=0, points=16, blocked=True)


def test_pairs_keep_two_scores():
    state = new_game(PAIRS, seed=1)
    assert state.scores == (0, 0)
    assert view_for(state, 3).scores == (0, 0)


# -- target -----------------------------------------------------------------------

BIG_HAND = [ts("6-6 6-1"), ts("6-3 5-5 4-4 4-5 3-3 2-6 5-6")]


def _big_round(target: int):
    state = new_game(Rules(players=2, draw=False, target=target), hands=BIG_HAND, seed=0)
    return play_all(state, [Play(1, t("6-3"), L), Play(0, t("6-1"), R)])


def test_target_zero_is_a_single_round():
    state = _big_round(0)
    assert state.game_over
    assert state.winner == 0
    assert state.end_reason == "single_round"
    with pytest.raises(IllegalAction):
        next_round(state)


def test_target_fifty_ends_the_game_when_reached():
    state = _big_round(50)
    assert state.scores == (52, 0)
    assert state.game_over
    assert state.winner == 0
    assert state.end_reason == "target"


def test_target_hundred_plays_on_below_the_target():
    state = _big_round(100)
    assert state.scores == (52, 0)
    assert not state.game_over
    assert state.winner is None
    following = next_round(state)
    assert following.scores == (52, 0)
    assert following.round == 2


def test_next_round_refused_while_the_round_is_on():
    with pytest.raises(IllegalAction):
        next_round(new_game(Rules(), seed=1))


# -- redeal -------------------------------------------------------------------


def _seed_with_five_doubles(players: int, size: int) -> int:
    for seed in range(100_000):
        order = shuffled_order(seed, 1, 0)
        for seat in range(players):
            bits = sum(1 << i for i in order[seat * size : seat * size + size])
            if (bits & DOUBLES_MASK).bit_count() > 4:
                return seed
    raise AssertionError("no seed found")


def _dealt(state):
    bits = list(state.hand_bits)
    bits[state.opener] |= state.table_bits
    return bits


def test_redeal_when_a_hand_has_more_than_four_doubles():
    seed = _seed_with_five_doubles(2, 7)
    with_redeal = new_game(Rules(players=2, redeal_five_doubles=True), seed=seed)
    without = new_game(Rules(players=2, redeal_five_doubles=False), seed=seed)
    assert max((b & DOUBLES_MASK).bit_count() for b in _dealt(without)) > 4
    assert max((b & DOUBLES_MASK).bit_count() for b in _dealt(with_redeal)) <= 4
    assert _dealt(with_redeal) != _dealt(without)
    # deterministic: the same seed redeals the same way
    assert new_game(Rules(players=2), seed=seed) == with_redeal


# -- agreed draw, resignation --------------------------------------------------------


def test_agreed_draw_ends_the_game_without_a_winner():
    state = agree_draw(new_game(Rules(players=3), seed=1))
    assert state.game_over
    assert state.winner is None
    assert state.to_move is None
    assert state.end_reason == "agreed_draw"
    assert legal_actions(state) == ()
    with pytest.raises(IllegalAction):
        agree_draw(state)


def test_resign_in_a_duel_gives_the_game_to_the_other_seat():
    state = resign(new_game(Rules(players=2), seed=1), 0)
    assert (state.game_over, state.winner, state.resigned, state.end_reason) == (True, 1, 0, "resigned")


def test_resign_in_pairs_gives_the_game_to_the_other_pair():
    assert resign(new_game(PAIRS, seed=1), 2).winner == 1
    assert resign(new_game(PAIRS, seed=1), 1).winner == 0


def test_resign_at_three_players_gives_the_game_to_the_best_score():
    rules = Rules(players=3, draw=False, target=100)
    state = _seat2_dominoes(rules)  # seat 2 leads 5-0-0
    assert resign(state, 0).winner == 2
    assert resign(state, 2).winner in (0, 1)
    # equal scores: the lighter hand held now wins (seat 1 holds 1-1 1-2, seat 0 holds 0-0)
    assert resign(state, 2).winner == 0


def test_resign_refused_after_the_game():
    state = resign(new_game(Rules(players=2), seed=1), 0)
    with pytest.raises(IllegalAction):
        resign(state, 1)


# -- presets ------------------------------------------------------------------------


def test_presets_reproduce_the_reference_sites():
    assert PRESETS["classic-draw"] == Rules()
    assert PRESETS["classic-block"] == Rules(draw=False)
    arena = PRESETS["arena"]
    assert (arena.draw, arena.blocked_tie, arena.team_scoring) == (True, "opener", "all_others")
    quick = PRESETS["quick"]
    assert (quick.hand_size, quick.next_opener, quick.blocked_tie) == (None, "winner", "nobody")
    duel = PRESETS["duel-block"]
    assert (duel.draw, duel.players, duel.blocked_tie, duel.target) == (False, 2, "draw", 0)
    assert set(PRESETS) == set(PRESET_OPTIONS)


def test_preset_options_say_what_a_table_may_choose():
    assert PRESET_OPTIONS["arena"].combinations() == ((2, False), (3, False), (4, False), (4, True))
    assert PRESET_OPTIONS["duel-block"].players == (2,)
    assert PRESET_OPTIONS["quick"].targets == (100, 0)
    assert not PRESET_OPTIONS["classic-draw"].allows(players=4, teams=True, target=100)


def test_rules_for_applies_and_validates_choices():
    assert rules_for("arena", teams=True) == Rules(players=4, teams=True)
    assert rules_for("quick", players=3, target=0) == Rules(
        players=3, hand_size=None, next_opener="winner", blocked_tie="nobody", target=0
    )
    with pytest.raises(ValueError):
        rules_for("classic-draw", teams=True)
    with pytest.raises(ValueError):
        rules_for("duel-block", players=3)
    with pytest.raises(ValueError):
        rules_for("quick", target=50)
    with pytest.raises(ValueError):
        rules_for("nope")


# -- views and commitment ------------------------------------------------------------


def test_view_hides_other_seats_drawn_tiles():
    state = new_game(
        Rules(players=2), hands=[ts("6-6 0-1"), ts("6-5 2-3 5-2")], boneyard=ts("4-4 0-5"), seed=0
    )
    state = play_all(state, [Play(1, t("6-5"), L), Draw(0)])
    assert view_for(state, 0).history[-1].tile == t("4-4")
    assert view_for(state, 1).history[-1].tile is None
    assert view_for(state, None).history[-1].tile is None
    assert view_for(state, 1).history[-1].action == "draw"
    assert view_for(state, 1).history[-1].ends == (5, 6)


def test_commit_seed_is_sha256_of_the_seed_as_text():
    import hashlib

    assert commit_seed(123) == hashlib.sha256(b"123").hexdigest()
    assert commit_seed("abc") == hashlib.sha256(b"abc").hexdigest()
