"""Each level on hand-built positions: medium's obvious good moves, hard's exact endgames."""
from __future__ import annotations

from dataclasses import replace
from random import Random

from games.ai import choose_action
from games.ai.easy import EasyPlayer
from games.engine import PRESETS, TILES, End, Play, rules_for

from .helpers import make_view, passed, played, t

DUEL = replace(PRESETS["duel-block"], target=0)


def test_easy_plays_every_legal_action_sometimes():
    view = make_view(DUEL, seat=0, hand="6-1 2-4 3-3", line=[(1, 2)], hand_counts=(3, 6), history=[])
    seen = {EasyPlayer().choose(view, Random(seed)) for seed in range(60)}
    assert seen == set(view.legal)


def test_medium_dumps_the_double_six():
    view = make_view(DUEL, seat=0, hand="6-6 6-1 2-0 3-4", line=[(6, 2)], hand_counts=(4, 6), history=[])
    assert choose_action(view, "medium", seed=0) == Play(0, t("6-6"), End.LEFT)


def test_medium_dumps_a_heavy_tile_rather_than_a_light_one():
    view = make_view(DUEL, seat=0, hand="5-6 0-1 1-3 3-6", line=[(1, 6)], hand_counts=(4, 6), history=[])
    assert choose_action(view, "medium", seed=0).tile == t("5-6")


def test_medium_leaves_open_the_numbers_the_next_opponent_lacks():
    # seat 1 passed on 5|5: it has no 5. Laying 2-5 shows 5|5 again; 2-1 would show 1.
    history = [played(0, "5-5", None, None), passed(1, (5, 5)), played(0, "5-2", "right", (5, 5)),
               played(1, "2-3", "right", (5, 2))]
    view = make_view(DUEL, seat=0, hand="3-5 3-1 0-0 4-4", line=[(5, 5), (5, 2), (2, 3)], hand_counts=(4, 5),
                     history=history)
    assert choose_action(view, "medium", seed=0) == Play(0, t("3-5"), End.RIGHT)


def _partner_view(teams: bool):
    rules = replace(rules_for("arena", players=4, teams=teams), target=0)
    # seat 2 passed on 4|5: it has no 4 and no 5. Laying 3-4 on the right shows 4|4.
    history = [played(3, "4-4", None, None), played(0, "4-2", "right", (4, 4)), played(1, "2-5", "right", (4, 2)),
               passed(2, (4, 5)), played(3, "5-3", "right", (4, 5))]
    return make_view(rules, seat=0, hand="3-4 3-0 1-1 6-6 0-1 1-6", line=[(4, 4), (4, 2), (2, 5), (5, 3)],
                     hand_counts=(6, 6, 7, 5), history=history, opener=3)


def test_medium_does_not_shut_out_its_partner():
    shut_out = Play(0, t("3-4"), End.RIGHT)
    assert choose_action(_partner_view(teams=True), "medium", seed=0) != shut_out
    # alone at the table, shutting out seat 2 (then an opponent) is the move
    assert choose_action(_partner_view(teams=False), "medium", seed=0) == shut_out


def test_hard_solves_a_known_endgame():
    """Draw game, boneyard empty: the opponent's last tile (6-5) is known. Laying 6-1 lets it
    finish; 2-4 shuts it out and wins."""
    rules = replace(PRESETS["classic-draw"], target=0)
    out = {t("6-1"), t("2-4"), t("6-5"), t("1-1"), t("0-2")}
    middle = [(tile.low, tile.high) for tile in TILES if tile not in out]
    view = make_view(rules, seat=0, hand="6-1 2-4", line=[(1, 1), *middle, (0, 2)], hand_counts=(2, 1),
                     history=[])
    assert view.ends == (1, 2)
    for seed in range(3):
        assert choose_action(view, "hard", seed=seed, budget_ms=20) == Play(0, t("2-4"), End.RIGHT)


def test_hard_takes_the_domino_when_it_can():
    view = make_view(DUEL, seat=0, hand="3-4", line=[(4, 1), (1, 3)], hand_counts=(1, 5), history=[])
    assert choose_action(view, "hard", seed=0, budget_ms=5).tile == t("3-4")


def test_hard_reads_a_light_play_as_a_sign_of_no_heavy_tile():
    """Seat 1 answered 1|1 with 1-0: a deal where it also held 1-6 explains that play
    less well than one where 1-0 was its only 1."""
    from games.ai.hard import DEFAULTS, _choice_table, choice_weight
    from games.ai.knowledge import read_view, tile_index

    history = [played(0, "1-1", None, None), played(1, "1-0", "right", (1, 1))]
    view = make_view(DUEL, seat=0, hand="2-3 4-5 6-6 2-2 3-3 5-5", line=[(1, 1), (1, 0)], hand_counts=(6, 6),
                     history=history)
    know = read_view(view)
    (choice,) = know.choices
    assert choice.seat == 1
    table = _choice_table(DEFAULTS.beta, DEFAULTS.double_weight)

    def weight(hand: str) -> float:
        mask = sum(1 << tile_index(t(s)) for s in hand.split())
        return choice_weight(know.choices, [[0, 0], [0, mask]], table)

    with_heavy = weight("1-6 0-2 0-3 0-4 2-4 3-4")
    without = weight("0-6 0-2 0-3 0-4 2-4 3-4")
    assert without == 1.0
    assert with_heavy < 0.2
