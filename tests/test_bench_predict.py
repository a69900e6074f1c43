"""``bench/ai_predict.py``: the tips model predicts medium (whose heuristic it is) at every
choice, so the sharpest reading fits medium best."""
from __future__ import annotations

import pytest

from bench import ai_predict


def test_the_tips_model_predicts_every_choice_of_medium() -> None:
    choices = [c for g in range(4) for c in ai_predict.play_game(("pairs", g, "medium", None, [], (0.0, 0.5, 2.0), ((0.5, 0.0), (0.5, 0.3))))]
    assert len(choices) > 10
    assert all(c["tips"] for c in choices)
    # A deterministic tips player: the sharper the reading, the likelier its plays.
    means = [sum(c["log"][k] for c in choices) / len(choices) for k in range(3)]
    assert means[0] < means[1] < means[2] < 0
    # And a tremble (a tile at random now and then) only makes its plays less likely.
    assert [c["mixed"][0] for c in choices] == pytest.approx([c["log"][1] for c in choices])
    assert sum(c["mixed"][1] for c in choices) < sum(c["mixed"][0] for c in choices)


def test_a_whole_run_prints_the_accuracies_and_the_best_temper(capsys: pytest.CaptureFixture[str]) -> None:
    ai_predict.main(["--player", "medium", "--games", "2", "--tempers", "0", "2"])
    out = capsys.readouterr().out
    assert "tips   favourite is the tile played: 1.000" in out
    assert "best fitting temper of those: 2.0" in out
    assert "λ 0.0" in out
