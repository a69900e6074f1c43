"""Inference from a view: what each hidden hand may hold, and deals that agree with it."""
from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from games.ai.knowledge import BONE, Dealer, _match, read_view, shuffle, tile_index
from games.ai.sim import NUM, bits
from games.engine import PRESETS, apply_action, new_game, rules_for, view_for

from .helpers import HistoryEntry, every_setup, make_view, passed, played, t

SETUPS = list(every_setup(target=0))


def _fits_tiers(know, seat, real_hand_mask):
    """The real hand can be spread over the seat's tiers without breaking a constraint."""
    slots = [know.forbidden(seat, tier) for tier in know.tiers[seat] for _ in range(tier.count)]
    tiles = bits(real_hand_mask)
    if len(slots) != len(tiles):
        return False
    return _match(tiles, slots, Random(0)) is not None


@pytest.mark.parametrize(("label", "rules"), SETUPS, ids=[label for label, _ in SETUPS])
def test_the_real_deal_always_agrees_with_the_inference(label, rules):
    """Soundness: whatever a seat infers, the real hidden hands satisfy it."""
    rng = Random(label)
    for game in range(3):
        state = new_game(rules, seed=f"know-{label}-{game}")
        while not state.round_over:
            for seat in range(rules.players):
                know = read_view(view_for(state, seat))
                for other in range(rules.players):
                    if other == seat:
                        continue
                    real = sum(1 << tile.index for tile in state.hands[other])
                    assert real & ~know.unseen == 0
                    assert real & ~know.possible(other) == 0, (label, seat, other)
                    assert _fits_tiers(know, other, real), (label, seat, other)
            legal = view_for(state, state.to_move).legal
            state = apply_action(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("label", "rules"), SETUPS[::2], ids=[label for label, _ in SETUPS[::2]])
def test_deals_respect_counts_and_constraints(label, rules):
    rng = Random(1)
    state = new_game(rules, seed=f"deal-{label}")
    while not state.round_over:
        seat = state.to_move
        know = read_view(view_for(state, seat))
        dealer = Dealer(know, Random(2))
        for _ in range(5):
            hands, bone = dealer.deal()
            assert hands[seat] == know.hand
            assert len(bone) == know.boneyard
            dealt = know.hand
            for other in range(rules.players):
                assert hands[other].bit_count() == know.counts[other]
                assert dealt & hands[other] == 0 or other == seat
                dealt |= hands[other]
                if other != seat:
                    assert _fits_tiers(know, other, hands[other])
            for tile in bone:
                assert know.unseen >> tile & 1
                assert not dealt >> tile & 1
        legal = view_for(state, seat).legal
        state = apply_action(state, legal[rng.randrange(len(legal))])


def test_a_pass_shows_both_numbers_are_missing():
    rules = replace(PRESETS["classic-block"], target=0)
    view = make_view(
        rules, seat=0, hand="2-3 1-5 0-0", line=[(5, 5), (5, 2)], hand_counts=(3, 6),
        history=[played(0, "5-5", None, None), passed(1, (5, 5)), played(0, "5-2", "right", (5, 5))],
    )
    know = read_view(view)
    assert know.lacks(1, 5)
    assert not know.lacks(1, 2)
    assert know.possible(1) & NUM[5] == 0


def test_a_kept_draw_may_hold_numbers_the_seat_lacked_before():
    rules = replace(PRESETS["classic-draw"], target=0)
    history = [
        played(0, "4-4", None, None),
        HistoryEntry(1, "draw", None, None, (4, 4)),  # kept: no 4
        HistoryEntry(1, "draw", None, None, (4, 4)),  # the one played next
        played(1, "4-1", "right", (4, 4)),
        played(0, "1-3", "right", (4, 1)),
        HistoryEntry(1, "draw", None, None, (4, 3)),  # kept: no 4, no 3 ... but may hold a 5
        HistoryEntry(1, "draw", None, None, (4, 3)),
        played(1, "3-6", "right", (4, 3)),
    ]
    view = make_view(rules, seat=0, hand="5-5 2-2 0-1 0-2 0-3", line=[(4, 4), (4, 1), (1, 3), (3, 6)],
                     hand_counts=(5, 9), history=history, boneyard=10)
    know = read_view(view)
    assert know.lacks(1, 4)
    assert know.lacks(1, 3)
    tiers = [(tier.forbid, tier.count) for tier in know.tiers[1]]
    assert sum(count for _, count in tiers) == 9
    # the dealt tiles and the first kept tile lack 4 and 3; the last kept tile only 4 and 3 too,
    # but a number seen missing only before it was drawn (none here) would not bind it:
    assert all(forbid & NUM[4] == NUM[4] for forbid, _ in tiers)


def test_numbers_learnt_before_a_draw_do_not_bind_the_drawn_tile():
    rules = replace(PRESETS["classic-draw"], target=0)
    history = [
        played(0, "6-6", None, None),
        HistoryEntry(1, "draw", None, None, (6, 6)),  # kept: lacks 6
        HistoryEntry(1, "draw", None, None, (6, 6)),
        played(1, "6-2", "right", (6, 6)),
        played(0, "2-0", "right", (6, 2)),
        HistoryEntry(1, "draw", None, None, (6, 0)),  # kept: lacks 6 and 0
        HistoryEntry(1, "draw", None, None, (6, 0)),
        played(1, "0-3", "right", (6, 0)),
        played(0, "3-1", "right", (6, 3)),
        HistoryEntry(1, "draw", None, None, (6, 1)),  # kept: lacks 6, 1 — may hold a 0
        HistoryEntry(1, "draw", None, None, (6, 1)),
        played(1, "1-4", "right", (6, 1)),
    ]
    view = make_view(rules, seat=0, hand="5-5 2-2 5-1", line=[(6, 6), (6, 2), (2, 0), (0, 3), (3, 1), (1, 4)],
                     hand_counts=(3, 10), history=history, boneyard=8)
    know = read_view(view)
    assert know.lacks(1, 6)
    assert not know.lacks(1, 0)  # the last kept tile may show a 0
    newest = know.tiers[1][-1]
    assert newest.count == 1
    assert not newest.forbid >> tile_index(t("0-5")) & 1
    assert know.tiers[1][0].forbid & NUM[0] == NUM[0]  # the dealt tiles still lack 0


def test_the_forced_opening_shows_nobody_was_dealt_a_higher_double():
    rules = replace(rules_for("classic-block", players=2), target=0)
    for seed in range(40):
        state = new_game(rules, seed=seed)
        first = state.history[0].tile
        if first.is_double and first.low < 6:
            break
    else:
        pytest.fail("no deal opened below 6-6")
    seat = state.to_move
    know = read_view(view_for(state, seat))
    other = 1 - seat
    higher = [tile_index(t(f"{d}-{d}")) for d in range(first.low + 1, 7)]
    for index in higher:
        assert not know.possible(other) >> index & 1
    # those doubles are set aside, so every deal puts them out of the hands
    dealer = Dealer(know, Random(0))
    for _ in range(10):
        hands, _ = dealer.deal()
        for index in higher:
            assert not hands[other] >> index & 1


def test_dealer_falls_back_when_the_view_is_inconsistent():
    rules = replace(PRESETS["classic-block"], target=0)
    # seat 1 "passed" on 5 yet only 5s are unseen: no consistent deal, still a deal
    view = make_view(rules, seat=0, hand="0-0", line=[(5, 5)], hand_counts=(1, 1),
                     history=[played(0, "5-5", None, None), passed(1, (5, 5))])
    know = read_view(view)
    hands, _ = Dealer(know, Random(0)).deal()
    assert hands[1].bit_count() == 1
    assert BONE == -1


def test_shuffle_gives_the_order_of_random_shuffle_and_leaves_the_same_state():
    """The dealer's own shuffle is Python 3.11's ``Random.shuffle`` without its per-element
    call: the same order and the same generator state afterwards, so decisions do not move."""
    for n in range(30):
        for seed in range(40):
            ours, theirs = list(range(n)), list(range(n))
            a, b = Random(seed), Random(seed)
            shuffle(ours, a)
            b.shuffle(theirs)
            assert ours == theirs
            assert a.random() == b.random()
