"""``bench/ai_regret.py``: positions where hard has a choice, a regret of zero for the
reference's own choice, overrides applied to one run only, and a whole run end to end."""
from __future__ import annotations

import pytest

from bench import ai_regret
from games.ai import hard


def test_positions_are_hard_choices_between_plays() -> None:
    views = ai_regret.positions("duel-block", 3)
    assert len(views) == 3
    assert all(len(v["legal"]) > 1 for v in views)


def test_the_reference_has_no_regret_and_options_change_one_run_only() -> None:
    view = ai_regret.positions("pairs", 1)[0]
    reference = ai_regret.values((view, 1e6, 5, 40, []))
    again = ai_regret.values((view, 1e6, 5, 40, []))
    assert ai_regret.regrets([reference], [again[1]]) == [0.0]
    changed = ai_regret.values((view, 1e6, 5, 40, ["playout_eps=0.9"]))
    assert changed[0] != reference[0]  # the option reached the search
    assert ai_regret.values((view, 1e6, 5, 40, [])) == reference  # and nothing leaked
    assert ai_regret.options_with(["playout_eps=0.9"]).playout_eps == 0.9
    assert hard.DEFAULTS.playout_eps == 0.1
    with pytest.raises(SystemExit):
        ai_regret.options_with(["no_such_option=1"])


def test_a_regret_is_what_the_choice_loses_under_the_reference() -> None:
    reference = [([10.0, 4.0, 7.5], 0), ([1.0, 3.0], 1)]
    assert ai_regret.regrets(reference, [2, 1]) == [2.5, 0.0]


def test_a_whole_run_prints_both_rows_and_the_paired_change(capsys: pytest.CaptureFixture[str]) -> None:
    ai_regret.main(["--setup", "duel-block", "--positions", "2", "--budgets", "5", "--seeds", "1",
                    "--reference-deals", "30", "--set", "temper=1.0"])
    out = capsys.readouterr().out
    assert "2 positions" in out
    assert "with temper=1.0" in out
    assert "paired change" in out
