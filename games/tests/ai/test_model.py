"""The opponent model (``games.ai.model``) and hard's block-duel search built on it."""
from __future__ import annotations

from dataclasses import replace
from random import Random

from games.ai import choose_action
from games.ai.base import candidates
from games.ai.hard import DEFAULTS, HardPlayer
from games.ai.knowledge import public_voids, read_view, tile_index
from games.ai.model import TEMPER, choices_likelihood, model_play, rollout
from games.ai.sim import ENDS_MASK
from games.engine import PRESETS, End, Play, apply_action, new_game, view_for

from .helpers import make_view, passed, played, t

DUEL = replace(PRESETS["duel-block"], target=0)


def _mask(specs: str) -> int:
    return sum(1 << tile_index(t(s)) for s in specs.split())


def test_the_model_chooses_like_the_tips_medium_follows():
    """Over real duel-block games played by medium, the model picks medium's tile nearly always
    (medium also weighs a blocking play and the first-round opening; the model does not)."""
    agree = total = 0
    for deal in range(30):
        state = new_game(DUEL, seed=f"model-{deal}")
        while not state.round_over:
            view = view_for(state, state.to_move)
            know = read_view(view)
            action = choose_action(view, "medium", seed=0)
            if len(candidates(list(view.legal), know)) > 1:
                options = know.hand & ENDS_MASK[know.left * 8 + know.right]
                tile, _ = model_play(know.table, know.me, know.hand, options, know.left, know.right, know.board,
                                     public_voids(know))
                agree += tile == tile_index(action.tile)
                total += 1
            state = apply_action(state, action)
    assert total > 100
    assert agree / total >= 0.95


def test_a_rollout_plays_the_round_as_the_engine_does():
    """Both seats laying the model's tile: the rollout ends the round as the engine would, its
    model reading at each play what the engine's view then shows of the passes."""
    for deal in range(40):
        state = new_game(DUEL, seed=f"rollout-{deal}")
        hands = [sum(1 << tile_index(x) for x in h) for h in state.hands]
        know = read_view(view_for(state, state.to_move))
        expected = rollout(know.table, hands[:], [], know.left, know.right, know.board, state.to_move,
                           public_voids(know))
        while not state.round_over:
            view = view_for(state, state.to_move)
            know = read_view(view)
            options = know.hand & ENDS_MASK[know.left * 8 + know.right]
            if not options:
                state = apply_action(state, view.legal[0])
                continue
            tile, on_left = model_play(know.table, know.me, know.hand, options, know.left, know.right, know.board,
                                       public_voids(know))
            end = End.LEFT if on_left else End.RIGHT
            action = next(a for a in view.legal if tile_index(a.tile) == tile and (len(view.legal) == 1 or
                          a.end == end or not any(b.tile == a.tile and b.end == end for b in view.legal)))
            state = apply_action(state, action)
        result = state.round_result
        side = -1 if result.winner is None else result.winner
        assert expected[:2] == (side, result.points), deal


def test_a_play_that_exposes_what_the_seat_holds_is_read_as_such():
    """Seat 1 answered 1|1 with 1-4 while it could also lay 1-3: a deal where it holds more
    4s explains that choice better than one where it holds more 3s."""
    history = [played(0, "1-1", None, None), played(1, "1-4", "right", (1, 1))]
    view = make_view(DUEL, seat=0, hand="2-3 5-6 6-6 2-2 0-0 5-5", line=[(1, 1), (1, 4)], hand_counts=(6, 6),
                     history=history)
    know = read_view(view)
    assert [c.seat for c in know.choices] == [1]

    def likelihood(hand: str) -> float:
        return choices_likelihood(know.table, know.choices, [[0, 0], [0, _mask(hand)]], TEMPER)

    fours = likelihood("1-3 4-4 4-6 4-0 0-2 2-5")
    threes = likelihood("1-3 3-3 3-6 3-0 0-2 2-5")
    assert fours > 2 * threes
    alone = likelihood("0-2 0-3 0-4 2-4 3-4 0-5")  # 1-4 was its only 1: no choice made
    assert alone == 1.0


def test_hard_duel_keeps_the_double_that_the_void_opponent_cannot_answer():
    """Seat 1 passed on 6|5: it has no 6 and no 5. Laying 6-6 keeps 6|5 (it passes again)
    and 6-4 then wins by domino; laying 6-4 first leaves 6-6 stuck and loses the block."""
    history = [played(0, "5-5", None, None), played(1, "5-3", "left", (5, 5)), played(0, "3-6", "left", (3, 5)),
               passed(1, (6, 5))]
    view = make_view(DUEL, seat=0, hand="6-6 6-4", line=[(6, 3), (3, 5), (5, 5)], hand_counts=(2, 6),
                     history=history)
    know = read_view(view)
    cands = candidates(list(view.legal), know)
    values = HardPlayer(20).evaluate_duel(know, cands, Random(0), 20_000.0)
    by_tile = {c.tile: v for c, v in zip(cands, values, strict=True)}
    assert by_tile[tile_index(t("6-6"))] > DEFAULTS.single_round_win  # a sure win (the bonus + points)
    assert by_tile[tile_index(t("6-4"))] < 0
    assert choose_action(view, "hard", seed=3, budget_ms=20) == Play(0, t("6-6"), End.LEFT)
