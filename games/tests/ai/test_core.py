"""The compiled core (``games.ai.core``, numba) against the pure-Python reference: the same
random numbers, the same deals, the same playouts and exact values, the same decisions on
a few thousand positions of every setup, and replays verified with either path."""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from random import Random

import pytest

from games.ai import HardOptions, HardPlayer, choose_action, core, decision_record
from games.ai.base import candidates
from games.ai.knowledge import Dealer, read_view
from games.ai.medium import MediumPlayer
from games.ai.sim import make_policy, playout
from games.ai.solver import Solver, SolverBudget
from games.engine import PlayerView, apply_action, new_game, rules_for, view_for
from games.engine.verify import computer_seed, verify_replay
from games.tests.ai.helpers import every_setup
from games.tests.engine.test_verify import seal

pytest.importorskip("numba")
pytestmark = pytest.mark.pure


def _kernels():
    from games.ai import _kernels

    return _kernels


def positions(per_setup: int, salt: str) -> list[tuple[str, PlayerView]]:
    """Views with a choice between plays, from whole rounds of every setup (at least
    ``per_setup`` each) played by a mix of medium and random moves (so that odd positions
    come up too)."""
    out: list[tuple[str, PlayerView]] = []
    medium = MediumPlayer()
    for label, rules in every_setup():
        game = 0
        got = 0
        while got < per_setup:
            state = new_game(rules, seed=f"{salt}-{label}-{game}")
            rng = Random(game)
            game += 1
            while not state.round_over:
                view = view_for(state, state.to_move)
                if len(view.legal) > 1 and len(candidates(list(view.legal), read_view(view))) > 1:
                    out.append((label, view))
                    got += 1
                action = medium.choose(view, rng) if rng.random() < 0.7 else rng.choice(list(view.legal))
                state = apply_action(state, action)
    return out


def test_the_core_is_on_by_default_and_the_environment_switches_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(core.ENV, raising=False)
    assert core.enabled()
    for off in ("python", "0", "off"):
        monkeypatch.setenv(core.ENV, off)
        assert not core.enabled()


def test_the_twister_is_cpythons() -> None:
    k = _kernels()
    import numpy as np

    for seed in (0, 1, 5, 2**32 - 1, 2**32, 2**47 + 12345, 2**48 - 1):
        ref = Random(seed)
        st = np.zeros(625, np.int64)
        k.mt_seed(st, seed)
        assert tuple(int(x) for x in st) == ref.getstate()[1]
        for _ in range(700):  # across a regeneration of the 624 words
            assert k.mt_random(st) == ref.random()
        for bits in (1, 3, 5, 32):
            assert k.mt_bits(st, bits) == ref.getrandbits(bits)
        assert k.mt_bits48(st) == ref.getrandbits(48)


def test_deals_playouts_and_exact_values_agree_step_by_step() -> None:
    import numpy as np

    k = _kernels()
    tb = core._tables()
    checked_solves = 0
    for n, (_label, view) in enumerate(positions(6, "core-steps")):
        know = read_view(view)
        rng_py, rng_c = Random(n), Random(n)
        dealer_py, dealer_c = Dealer(know, rng_py), Dealer(know, rng_c)
        tile, place, forbid, tier_of, held = core._dealer_arrays(dealer_c)
        st = core._state(rng_c)
        hands = np.zeros(know.table.players, np.int64)
        bone = np.zeros(32, np.int64)
        tab = core._table_row(know)
        policy = make_policy(1, 6, 2)
        for d in range(5):
            hs, bn = dealer_py.deal()
            nb = k.deal(st, tile, place, forbid, dealer_c.constrained, dealer_c.swaps, know.me, know.hand, hands, bone)
            assert [int(x) for x in hands] == hs
            assert [int(x) for x in bone[:nb]] == bn
            k.held_before(tile, place, tier_of, held)
            for seat, row in enumerate(dealer_py.held_before()):
                assert [int(x) for x in held[seat, : len(row)]] == row
            # A playout from the position, the computer's side to move.
            dice = Random(d)
            dice_c = np.array(dice.getstate()[1], np.int64)
            stream: list[float] = []
            left, right = know.left, know.right
            py = playout(know.table, hs[:], bn[:], left, right, know.board, know.me, dice, 0.3, policy, stream)
            out = k.playout(tab, hands.copy(), bone.copy(), nb, left, right, know.board, know.me, dice_c, 0.3,
                            np.array(policy[0], np.int64), policy[1], np.zeros(256), 0,
                            tb["lib"], tb["debruijn"], tb["pipc"])
            assert (int(out[0]), int(out[1]), int(out[2])) == py
            # Exact values of the candidates, with a budget that sometimes runs out.
            if sum(know.counts) + know.boneyard <= 12 and d < 2:
                from games.ai.hard import make_utility

                cands = candidates(list(view.legal), know)
                utility = make_utility(know)
                ut, scores = core._utility_row(know, 1000.0 if know.target <= 0 else 15.0, 150.0)
                for max_nodes in (60, 20_000):
                    solver = Solver(know.table, know.table.side(know.me), utility, max_nodes)
                    try:
                        expected: list[float] | None = solver.values(hs, tuple(reversed(bn)), know, cands)
                    except SolverBudget:
                        expected = None
                    memo = k.new_memo(max_nodes)
                    counter = np.array([0, max_nodes, 0], np.int64)
                    got = []
                    for c in cands:
                        got.append(k.solve(tab, hands, bone[:nb][::-1].copy(), nb, know.left, know.right, know.board,
                                           know.me, c.tile, int(c.on_left), memo, counter, know.table.side(know.me),
                                           ut, scores, tb["lib"], tb["debruijn"], tb["pipc"],
                                           k.new_frames(know.table.players)))
                        if counter[2]:
                            break
                    assert (None if counter[2] else got) == expected
                    assert int(counter[0]) == solver.nodes
                    checked_solves += 1
        core._restore(rng_c, st)
        assert rng_py.getstate() == rng_c.getstate()
    assert checked_solves > 50


def _decide(view: PlayerView, options: HardOptions, seed: int) -> tuple[list[float], object, object]:
    know = read_view(view)
    cands = candidates(list(view.legal), know)
    player = HardPlayer(options=options)
    rng = Random(seed)
    values = player.evaluate(know, cands, rng)
    return values, rng.getstate(), player.stats


def test_both_paths_value_every_play_alike_on_thousands_of_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    views = positions(150, "core-agree")
    assert len(views) >= 2000
    cheap = HardOptions(budget_ms=0.02)  # the least search (8 deals), every path of the code
    compared = 0
    for n, (label, view) in enumerate(views):
        options = HardOptions(budget_ms=2) if n % 40 == 0 else cheap
        monkeypatch.setenv(core.ENV, "python")
        reference = _decide(view, options, n)
        monkeypatch.setenv(core.ENV, "1")
        compiled = _decide(view, options, n)
        assert compiled == reference, (label, n)
        compared += 1
    assert compared == len(views)


@pytest.mark.parametrize(("preset", "players", "teams"), [("duel-block", 2, False), ("arena", 4, True)])
def test_same_action_compiled_or_not_at_a_real_budget(preset: str, players: int, teams: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(rules_for(preset, players=players, teams=teams), seed=f"core-real-{preset}")
    views = []
    while not state.round_over:
        view = view_for(state, state.to_move)
        if len(candidates(list(view.legal), read_view(view))) > 1:
            views.append(view)
        state = apply_action(state, MediumPlayer().choose(view, Random(0)))
    assert len(views) >= 3
    for n, view in enumerate(views[:4]):
        monkeypatch.setenv(core.ENV, "python")
        reference = choose_action(view, "hard", seed=n, budget_ms=8)
        monkeypatch.setenv(core.ENV, "1")
        assert choose_action(view, "hard", seed=n, budget_ms=8) == reference


@pytest.mark.parametrize("preset", ["duel-block", "classic-draw"])
@pytest.mark.parametrize(("record_with", "verify_with"), [("1", "python"), ("python", "1")])
def test_a_replay_of_hard_verifies_with_either_path(preset: str, record_with: str, verify_with: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify --computer`` recomputes hard's moves the same with the core or without it."""
    from games.engine import PRESETS, actions_to_json, commit_seed, next_round

    rules = PRESETS[preset]
    seed = f"core-replay-{preset}-{record_with}"
    state = new_game(rules, seed)
    frames: list[dict[str, object]] = []
    seq = 0
    monkeypatch.setenv(core.ENV, record_with)
    while not state.game_over:
        if state.round_over:
            state = next_round(state)
            seq += 1
            frames.append({"type": "next_round", "seq": seq})
            continue
        action = choose_action(view_for(state, state.to_move), "hard", seed=computer_seed(seed, seq), budget_ms=0.2)
        seq += 1
        frames.append({**actions_to_json([action])[0], "seq": seq, "computer": decision_record("hard", 0.2)})
        state = apply_action(state, action)
    data = {"format": 1, "rules": rules.to_dict(), "commitment": commit_seed(seed), "seed": seed,
            "actions": frames, "final_scores": list(state.scores)}
    monkeypatch.setenv(core.ENV, verify_with)
    report = verify_replay(json.loads(json.dumps(seal(data))), computer=True)
    assert report.computer_checked == sum(1 for frame in frames if "computer" in frame) > 5


def _crowded(view: PlayerView) -> bool:
    """Three or four seats and nothing left to draw: where ``block_tree`` searches."""
    know = read_view(view)
    return know.table.players > 2 and (not know.table.draw or know.boneyard == 0)


@pytest.mark.parametrize("tree_playout", [False, True])
def test_both_paths_value_every_play_alike_with_the_tree_for_three_and_four_seats(
        tree_playout: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``HardOptions.block_tree``: the own-move tree with every other seat (partner included)
    replying by the model, on both paths: the same values, statistics and random state; and
    with ``tree_playout``, the round finished beyond the tree by the playouts."""
    views = [v for v in positions(60, "core-crowd") if _crowded(v[1])]
    labels = {label for label, _view in views}
    assert {"classic-block-3", "classic-block-4", "arena-4-pairs", "arena-4"} <= labels
    assert len(views) >= 300
    trees = 0
    finished = 0
    for n, (label, view) in enumerate(views):
        options = HardOptions(budget_ms=2 if n % 25 == 0 else 0.05, block_tree=True, tree_playout=tree_playout)
        monkeypatch.setenv(core.ENV, "python")
        reference = _decide(view, options, n)
        monkeypatch.setenv(core.ENV, "1")
        compiled = _decide(view, options, n)
        assert compiled == reference, (label, n)
        know = read_view(view)
        if sum(know.counts) + know.boneyard > options.endgame_tiles:
            trees += 1
            # The tree's search, not the playouts (version 2's): its values differ from theirs.
            assert _decide(view, replace(options, block_tree=False), n)[2] != reference[2], (label, n)
            if tree_playout:
                # Finished by the playouts, not by the model's rollout.
                finished += _decide(view, replace(options, tree_playout=False), n)[2] != reference[2]
    assert trees >= 200
    if tree_playout:
        assert finished >= trees * 9 // 10


@pytest.mark.parametrize(("read_partner", "partner_temper"), [(True, 1.5), (True, 0.0), (False, None)])
def test_both_paths_read_the_partner_alike(read_partner: bool, partner_temper: float | None,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """``HardOptions.read_partner`` and ``partner_temper`` (issue 32's experiment): the
    partner's plays read with a sharpness of their own, or not at all, on both paths alike;
    and the values differ from the reading with the opponents' sharpness."""
    views = [v for v in positions(60, "core-crowd") if v[0] == "arena-4-pairs" and _crowded(v[1])]
    read = 0
    for n, (label, view) in enumerate(views):
        know = read_view(view)
        if sum(know.counts) + know.boneyard <= HardOptions().endgame_tiles:
            continue
        options = HardOptions(budget_ms=0.05, read_partner=read_partner, partner_temper=partner_temper)
        monkeypatch.setenv(core.ENV, "python")
        reference = _decide(view, options, n)
        monkeypatch.setenv(core.ENV, "1")
        assert _decide(view, options, n) == reference, (label, n)
        partner = (know.me + 2) % 4
        if any(c.seat == partner for c in know.choices):
            read += _decide(view, HardOptions(budget_ms=0.05, partner_temper=None), n)[2] != reference[2]
    assert read >= 10


@pytest.mark.parametrize("setup", ["arena-4-pairs", "classic-block-3"])
def test_both_paths_read_a_tremble_alike(setup: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``HardOptions.tremble`` (issue 32): with three or four seats the other seats' plays
    read as the tips' or a tile at random, on both paths alike; and the values move with it."""
    views = [v for v in positions(60, "core-crowd") if v[0] == setup and _crowded(v[1])]
    read = 0
    for n, (label, view) in enumerate(views):
        know = read_view(view)
        if sum(know.counts) + know.boneyard <= HardOptions().endgame_tiles or not know.choices:
            continue
        options = HardOptions(budget_ms=0.05, tremble=0.3)
        monkeypatch.setenv(core.ENV, "python")
        reference = _decide(view, options, n)
        monkeypatch.setenv(core.ENV, "1")
        assert _decide(view, options, n) == reference, (label, n)
        read += _decide(view, HardOptions(budget_ms=0.05, tremble=0.0), n)[0] != reference[0]
    assert read >= 10


def test_a_tremble_leaves_block_duels_alone() -> None:
    views = [v for v in positions(30, "core-agree") if v[0] == "duel-block-2"][:40]
    assert len(views) >= 20
    for n, (_label, view) in enumerate(views):
        assert _decide(view, HardOptions(budget_ms=0.05, tremble=0.5), n) == _decide(view, HardOptions(budget_ms=0.05, tremble=0.0), n)


def test_same_action_compiled_or_not_at_a_real_budget_with_the_tree_in_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(rules_for("arena", players=4, teams=True), seed="core-real-crowd")
    views = []
    while not state.round_over:
        view = view_for(state, state.to_move)
        if len(candidates(list(view.legal), read_view(view))) > 1:
            views.append(view)
        state = apply_action(state, MediumPlayer().choose(view, Random(0)))
    assert len(views) >= 3
    options = HardOptions(budget_ms=8, block_tree=True)
    for n, view in enumerate(views[:4]):
        monkeypatch.setenv(core.ENV, "python")
        reference = HardPlayer(options=options).choose(view, Random(n))
        monkeypatch.setenv(core.ENV, "1")
        assert HardPlayer(options=options).choose(view, Random(n)) == reference


def test_the_tree_for_three_and_four_seats_leaves_the_other_positions_alone() -> None:
    """Two seats, a boneyard to draw from, or an endgame: ``block_tree`` changes nothing."""
    untouched = 0
    for n, (label, view) in enumerate(positions(8, "core-crowd-not")):
        know = read_view(view)
        if _crowded(view) and sum(know.counts) + know.boneyard > HardOptions().endgame_tiles:
            continue
        options = HardOptions(budget_ms=0.05, tree_endgames=False)  # the endgames solved, as before version 6
        assert _decide(view, replace(options, block_tree=True), n) == \
            _decide(view, replace(options, block_tree=False), n), (label, n)
        untouched += 1
    assert untouched >= 60


def _drawing(view: PlayerView) -> bool:
    """A draw game with tiles left to draw, beyond the exact endgames: where ``draw_tree`` searches."""
    know = read_view(view)
    return know.table.draw and know.boneyard > 0 and sum(know.counts) + know.boneyard > HardOptions().endgame_tiles


def test_both_paths_value_every_play_alike_with_the_tree_in_the_draw_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """``HardOptions.draw_tree`` (issue 32): the own-move tree while tiles can be drawn, the
    draws keyed as ``games.ai.tree`` says, on both paths alike (values, statistics, random
    state); its values are not those of the playouts it replaces."""
    views = [v for v in positions(40, "core-draw") if _drawing(v[1])]
    labels = {label for label, _view in views}
    assert {"classic-draw-2", "classic-draw-3"} <= labels, labels
    assert len(views) >= 150
    changed = _alike_and_changed(monkeypatch, views, lambda n: HardOptions(
        budget_ms=2 if n % 25 == 0 else 0.05, draw_tree=True, draw_tree_seats=4), draw_tree=False)
    assert changed >= len(views) * 9 // 10


def test_the_tree_in_the_draw_game_leaves_the_other_positions_alone() -> None:
    """Block games, a draw game whose boneyard is empty, the endgames: ``draw_tree`` changes
    nothing; and by default (``draw_tree_seats`` 2) nor does it with three or four seats."""
    untouched = crowded = 0
    for n, (label, view) in enumerate(positions(8, "core-draw-not")):
        options = HardOptions(budget_ms=0.05, draw_tree=False)
        if not _drawing(view):
            assert _decide(view, replace(options, draw_tree=True, draw_tree_seats=4), n) == _decide(view, options, n), \
                (label, n)
            untouched += 1
        elif read_view(view).table.players > 2:
            assert _decide(view, replace(options, draw_tree=True), n) == _decide(view, options, n), (label, n)
            crowded += 1
    assert untouched >= 60
    assert crowded >= 10


def test_both_paths_search_the_endgames_alike_with_the_trees(monkeypatch: pytest.MonkeyPatch) -> None:
    """``HardOptions.tree_endgames`` (issue 32's experiment): the tree of three and four seats
    searches the endgames too, on both paths alike, instead of solving each deal exactly;
    the draw duel's endgames are left alone."""
    views = []
    draw_duels = 0
    for n, (label, view) in enumerate(positions(40, "core-endgame")):
        know = read_view(view)
        if sum(know.counts) + know.boneyard > HardOptions().endgame_tiles:
            continue
        if _crowded(view):
            views.append((label, view))
        elif know.table.draw and know.boneyard > 0 and know.table.players == 2:
            options = HardOptions(budget_ms=0.05)
            assert _decide(view, replace(options, tree_endgames=True), n) == _decide(view, options, n), (label, n)
            draw_duels += 1
    assert len(views) >= 40
    assert draw_duels >= 5
    changed = _alike_and_changed(monkeypatch, views, lambda n: HardOptions(budget_ms=0.05, tree_endgames=True),
                                 tree_endgames=False)
    assert changed >= len(views) * 9 // 10


def _alike_and_changed(monkeypatch: pytest.MonkeyPatch, views: list[tuple[str, PlayerView]],
                       options_of: Callable[[int], HardOptions], **without: object) -> int:
    """Check that both paths decide each of ``views`` alike with ``options_of(n)``; return on
    how many the search statistics differ from those of the same options changed by ``without``."""
    changed = 0
    for n, (label, view) in enumerate(views):
        options = options_of(n)
        monkeypatch.setenv(core.ENV, "python")
        reference = _decide(view, options, n)
        monkeypatch.setenv(core.ENV, "1")
        assert _decide(view, options, n) == reference, (label, n)
        changed += _decide(view, replace(options, **without), n)[2] != reference[2]
    return changed
