"""Search versions (``games.ai.versions``): each level's decisions are pinned to its
version, and a recorded computer move is recomputed as the version recorded with it."""
from __future__ import annotations

from random import Random

import pytest

from games.ai import LEVELS, SEARCH_VERSIONS, choose_action, decision_record, recompute, versions
from games.engine import (
    PlayerView,
    action_from_json,
    action_to_json,
    apply_action,
    new_game,
    rules_for,
    view_for,
)
from games.tests.ai import search_pins

pytestmark = pytest.mark.pure


@pytest.fixture(scope="module")
def pins() -> dict:
    return search_pins.load()


def views(pins: dict) -> list[PlayerView]:
    return [PlayerView.from_dict(position["view"]) for position in pins["positions"]]


# Every version this code runs: (level, version).
RUN = [(level, version) for level in LEVELS for version in versions.IMPLEMENTED[level]]


def test_every_level_has_a_version_and_every_retired_version_says_where_its_code_is(pins: dict) -> None:
    assert set(SEARCH_VERSIONS) == set(LEVELS) == set(versions.UNVERSIONED) == set(versions.IMPLEMENTED)
    for level, version in SEARCH_VERSIONS.items():
        assert versions.IMPLEMENTED[level][-1] == version
        for runs in versions.IMPLEMENTED[level]:
            assert runs in pins["decisions"][level], (
                f"{level} version {runs} has no pinned decisions: python -m games.tests.ai.search_pins"
            )
        for pinned in pins["decisions"][level]:
            if not versions.implements(level, pinned):
                assert (level, pinned) in versions.RETIRED, f"say where {level} version {pinned}'s code is (RETIRED)"
    assert all(not versions.implements(level, version) for level, version in versions.RETIRED)


@pytest.mark.parametrize(("level", "version"), RUN)
def test_the_decisions_pinned_to_every_version_run_have_not_changed(pins: dict, level: str, version: str) -> None:
    """A change of a level's decisions must come with a new version (docs/ai.md, "Search versions");
    an older version this code still runs decides as it always did."""
    positions = pins["positions"]
    expected = pins["decisions"][level][version]
    assert [(c["position"], c["seed"], c["budget_ms"]) for c in expected] == search_pins.cases(level, positions)
    now = search_pins.decisions(level, positions, version)
    changed = [(pins["positions"][e["position"]]["label"], e, n) for e, n in zip(expected, now, strict=True) if e != n]
    assert not changed, (
        f"{len(changed)} of {len(expected)} pinned decisions of {level} version {version} changed "
        f"(first: {changed[0]}): bump SEARCH_VERSIONS[{level!r}] in games/ai/versions.py, say where version "
        f"{version}'s code is (RETIRED), then run python -m games.tests.ai.search_pins"
    )


@pytest.mark.parametrize(("level", "version"), RUN)
def test_the_decisions_on_many_generated_positions_have_not_changed(pins: dict, level: str, version: str) -> None:
    assert search_pins.generated_digest(level, version) == pins["generated"][level][version], (
        f"the decisions of {level} version {version} on {search_pins.GENERATED[level]} positions of random rounds "
        f"changed: bump SEARCH_VERSIONS[{level!r}] (docs/ai.md, \"Search versions\")"
    )


def test_the_search_before_the_compiled_core_decided_otherwise(pins: dict) -> None:
    """hard 1's pinned decisions (games/ai of 5789a79) are not all hard 2's: the reason for the version."""
    old, new = pins["decisions"]["hard"]["1"], pins["decisions"]["hard"]["2"]
    assert [(c["position"], c["seed"], c["budget_ms"]) for c in old] == [
        (c["position"], c["seed"], c["budget_ms"]) for c in new
    ]
    assert sum(a["action"] != b["action"] for a, b in zip(old, new, strict=True)) >= 3


def changed_by_setup(pins: dict, old: str, new: str) -> dict[str, int]:
    """How many of hard's pinned decisions differ between versions ``old`` and ``new``, by setup."""
    changed: dict[str, int] = {}
    for a, b in zip(pins["decisions"]["hard"][old], pins["decisions"]["hard"][new], strict=True):
        setup = pins["positions"][a["position"]]["label"].rsplit("-step", 1)[0]
        changed[setup] = changed.get(setup, 0) + (a != b)
    return changed


def test_hard_3_decides_otherwise_only_where_three_or_four_seats_draw_nothing(pins: dict) -> None:
    """Version 3 searches the tree with three and four seats (pairs, three and four alone, a
    draw game whose boneyard is empty): block duels and the draw game for two decide as in 2."""
    changed = changed_by_setup(pins, "2", "3")
    assert changed["duel-block-2"] == changed["classic-draw-2"] == 0
    assert changed["arena-4-pairs"] >= 3, changed
    assert changed["classic-block-3"] >= 3, changed


def test_hard_4_decides_otherwise_only_where_the_tree_reads_a_partner(pins: dict) -> None:
    """Version 4 reads the partner's plays with a flatter model: only pairs decide otherwise."""
    changed = changed_by_setup(pins, "3", "4")
    assert changed["arena-4-pairs"] >= 1, changed
    assert sum(changed.values()) == changed["arena-4-pairs"], changed


def test_hard_5_decides_otherwise_only_in_the_draw_game_with_tiles_to_draw(pins: dict) -> None:
    """Version 5 searches the draw duel's tree while tiles can be drawn: block games, pairs
    (nothing to draw) and the draw game with three or four seats decide as in 4."""
    changed = changed_by_setup(pins, "4", "5")
    assert changed["classic-draw-2"] >= 1, changed
    assert changed["duel-block-2"] == changed["arena-4-pairs"] == changed["classic-block-3"] == changed["quick-4"] == 0, \
        changed


def test_hard_6_decides_otherwise_only_in_the_endgames_of_three_and_four_seats(pins: dict) -> None:
    """Version 6 searches the endgames of three and four seats with the tree: duels decide as in 5."""
    changed = changed_by_setup(pins, "5", "6")
    assert changed["arena-4-pairs"] + changed["classic-block-3"] + changed["quick-4"] >= 3, changed
    assert changed["duel-block-2"] == changed["classic-draw-2"] == 0, changed


def test_a_move_of_hard_2_is_recomputed_as_hard_2(pins: dict) -> None:
    """A game played before version 3 still verifies: its moves are recomputed as the version
    recorded with them, where version 3 would play otherwise."""
    two, three = pins["decisions"]["hard"]["2"], pins["decisions"]["hard"]["3"]
    differing = [i for i, (a, b) in enumerate(zip(two, three, strict=True)) if a["action"] != b["action"]]
    assert differing
    for index in differing:
        view, seed, budget, by_v2 = _choice(pins, "hard", "2", index)
        _, _, _, by_v3 = _choice(pins, "hard", "3", index)
        as_two = recompute(view, by_v2, decision_record("hard", budget) | {"version": "2"}, seed=seed)
        assert (as_two.status, as_two.ran) == ("same", "2")
        wrong = recompute(view, by_v3, decision_record("hard", budget) | {"version": "2"}, seed=seed)
        assert (wrong.status, wrong.chosen) == ("differs", by_v2)
        assert recompute(view, by_v3, decision_record("hard", budget) | {"version": "3"}, seed=seed).same
        assert choose_action(view, "hard", seed=seed, budget_ms=budget, version="2") == by_v2
        assert choose_action(view, "hard", seed=seed, budget_ms=budget, version="3") == by_v3


def test_a_version_this_code_does_not_run_cannot_be_asked_for() -> None:
    view = PlayerView.from_dict(search_pins.load()["positions"][0]["view"])
    with pytest.raises(ValueError, match="hard version '1' is not run by this code"):
        choose_action(view, "hard", seed=0, version="1")


def test_hard_has_options_for_every_version_it_runs() -> None:
    from games.ai.hard import DEFAULTS, VERSION_OPTIONS, options_for

    assert tuple(VERSION_OPTIONS) == versions.IMPLEMENTED["hard"]
    assert options_for(SEARCH_VERSIONS["hard"]) == options_for(None) == DEFAULTS


def test_every_computer_move_records_its_version() -> None:
    assert decision_record("hard", 250) == {"level": "hard", "budget_ms": 250, "version": SEARCH_VERSIONS["hard"]}
    assert decision_record("medium", None)["version"] == "1"
    with pytest.raises(ValueError, match="unknown level"):
        decision_record("expert", None)


def _choice(pins: dict, level: str, version: str, index: int) -> tuple[PlayerView, int, float | None, object]:
    case = pins["decisions"][level][version][index]
    view = views(pins)[case["position"]]
    return view, case["seed"], case["budget_ms"], action_from_json({**case["action"], "seat": view.seat})


def _other(view: PlayerView, action: object) -> object:
    return next(a for a in view.legal if a != action)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_easy_and_medium_moves_without_a_version_are_recomputed(pins: dict, level: str) -> None:
    view, seed, budget, played = _choice(pins, level, "1", 0)
    record = {"level": level, "budget_ms": budget}
    assert recompute(view, played, record, seed=seed).status == "same"
    wrong = recompute(view, _other(view, played), record, seed=seed)
    assert (wrong.status, wrong.chosen, wrong.version) == ("differs", played, None)


def test_a_move_of_the_current_version_is_recomputed_and_a_wrong_one_differs(pins: dict) -> None:
    for index in range(3):
        view, seed, budget, played = _choice(pins, "hard", SEARCH_VERSIONS["hard"], index)
        record = decision_record("hard", budget)
        assert recompute(view, played, record, seed=seed).same
        wrong = recompute(view, _other(view, played), record, seed=seed)
        assert (wrong.status, wrong.chosen, wrong.version) == ("differs", played, SEARCH_VERSIONS["hard"])


def test_a_move_of_a_version_this_code_does_not_run_names_the_version_it_needs(pins: dict) -> None:
    view, seed, budget, played = _choice(pins, "hard", SEARCH_VERSIONS["hard"], 0)
    for version in ("1", "99"):
        for action in (played, _other(view, played)):
            result = recompute(view, action, {"level": "hard", "budget_ms": budget, "version": version}, seed=seed)
            assert (result.status, result.needed, result.chosen) == ("needs", (version,), None)
            assert f"hard version {version}" in result.explain()
    assert "5789a79" in recompute(view, played, {"level": "hard", "version": "1"}, seed=seed).explain()
    assert "does not know" in recompute(view, played, {"level": "hard", "version": "99"}, seed=seed).explain()


def test_an_unversioned_hard_move_is_recomputed_or_names_the_search_before_the_core(pins: dict) -> None:
    """Unversioned hard moves were chosen by version 1 (before the core) or 2: this code's
    version 2 (run still, beside the current 3) proves the ones it gives, and names version 1
    for the others."""
    old, new = pins["decisions"]["hard"]["1"], pins["decisions"]["hard"]["2"]
    differing = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a["action"] != b["action"]]
    assert differing
    for index in differing:
        view, seed, budget, by_v1 = _choice(pins, "hard", "1", index)
        result = recompute(view, by_v1, {"level": "hard", "budget_ms": budget}, seed=seed)
        assert (result.status, result.needed, result.version, result.ran) == ("needs", ("1",), None, "2")
        assert action_to_json(result.chosen) == new[index]["action"]
        assert "recorded without a version" in result.explain()
        assert "this code's hard version 2 gives another move" in result.explain()
        assert "5789a79" in result.explain()
        _, _, _, by_v2 = _choice(pins, "hard", "2", index)
        assert recompute(view, by_v2, {"level": "hard", "budget_ms": budget}, seed=seed).same


def test_a_forced_move_is_the_same_for_every_version() -> None:
    state = new_game(rules_for("classic-draw", players=2, teams=False), seed="forced")
    rng = Random(0)
    while len(view_for(state, state.to_move).legal) != 1:
        state = apply_action(state, rng.choice(list(view_for(state, state.to_move).legal)))
    view = view_for(state, state.to_move)
    only = view.legal[0]
    for version in (None, "1", "2", "99"):
        assert recompute(view, only, {"level": "hard", "version": version}, seed=1).same


def test_an_unknown_level_is_refused(pins: dict) -> None:
    view, seed, _, played = _choice(pins, "medium", "1", 0)
    with pytest.raises(ValueError, match="unknown level"):
        recompute(view, played, {"level": "expert"}, seed=seed)
    assert choose_action(view, "medium", seed=seed) == played
