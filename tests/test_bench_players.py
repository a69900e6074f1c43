"""The reference players of ``bench/ai_ceiling.py`` that stand for programs outside the
project (``frequent``, ``mcts``): they play legal rounds, are reproducible, and the naive
search finds a won line when there is one."""
from __future__ import annotations

from dataclasses import replace

import pytest

from bench import ai_ceiling
from games.ai.knowledge import tile_index
from games.ai.sim import Table, play_tile
from games.engine import new_game, rules_for


@pytest.fixture
def quick_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_ceiling, "MCTS_DEALS", 3)
    monkeypatch.setattr(ai_ceiling, "MCTS_ITERATIONS", 60)


@pytest.mark.parametrize("setup", [("duel-block", 2, False), ("arena", 4, True)])
@pytest.mark.parametrize("player", ["frequent", "mcts"])
def test_reference_players_play_whole_rounds(quick_search: None, setup: tuple[str, int, bool], player: str) -> None:
    preset, players, teams = setup
    rules = replace(rules_for(preset, players=players, teams=teams), target=0)
    # apply_action raises on anything illegal; one result per seating.
    games = ai_ceiling.play_deal((rules, player, "medium", 3, None))
    assert len(games) == 2
    assert all(won in (-1, 0, 1) for won, _, _ in games)


def test_the_naive_search_is_reproducible(quick_search: None) -> None:
    rules = replace(rules_for("duel-block", players=2, teams=False), target=0)
    state = new_game(rules, seed="bench-5")
    seat = state.to_move
    assert seat is not None
    first = ai_ceiling.mcts(state, seat, 11)
    assert ai_ceiling.mcts(state, seat, 11) == first


def test_uct_finds_the_only_winning_play() -> None:
    # Ends 5 and 3. Laying 5-2 lets the other seat domino with 2-2; laying 3-4
    # leaves it nothing to play, and the computer dominoes with 5-2 next.
    table = Table(2, False, True, "opener", False, "all_others", 0)
    x, y, z = tile_index((2, 5)), tile_index((3, 4)), tile_index((2, 2))
    board = sum(1 << tile_index(t) for t in ((5, 5), (5, 3)))
    start = ((1 << x | 1 << y, 1 << z), 5, 3, board, 0, 0)
    rates = ai_ceiling._uct(table, start, ai_ceiling.Random(1), 200)
    assert rates[(y, *play_tile(5, 3, y, False))] == 1.0
    assert rates[(x, *play_tile(5, 3, x, True))] == 0.0


@pytest.mark.parametrize("setup", ["classic-draw", "classic-draw-3"])
def test_the_draw_game_setups_play_whole_rows(setup: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--setup classic-draw`` (two players) and ``classic-draw-3`` (three alone): every seating
    of a deal is played, hard+ with an option beside hard, and the paired change is printed."""
    assert ai_ceiling.main(["--setup", setup, "--players", "hard", "hard+", "--set", "draw_tree=False",
                            "--deals", "1", "--budget-ms", "2"]) == 0
    out = capsys.readouterr().out
    players = 3 if setup.endswith("-3") else 2
    assert f"{players} rounds per row" in out
    assert "hard+ vs medium" in out
    assert "paired change vs hard" in out
