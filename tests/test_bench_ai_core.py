"""``bench/ai_core.py``: both paths measured side by side on the same positions, with the
same work, and ``make bench`` runs it."""
from __future__ import annotations

import pytest

from bench import ai_core, run_all

pytest.importorskip("numba")


def test_both_paths_are_printed_side_by_side_with_the_same_search(capsys: pytest.CaptureFixture[str]) -> None:
    assert ai_core.main(["--positions", "2", "--budget-ms", "3", "--no-startup", "--hints", "2"]) == 0
    out = capsys.readouterr().out
    for label, *_ in ai_core.SETUPS:
        rows = [line.split() for line in out.splitlines() if line.startswith(label)]
        paths = [row[len(label.split())] for row in rows]
        assert paths == ["python", "compiled"]
        # Same deals and playouts on both paths (the work is counted, not timed).
        first = len(label.split()) + 1
        assert rows[0][first : first + 2] == rows[1][first : first + 2]
    assert "a hint's analysis" in out


def test_make_bench_runs_it() -> None:
    assert "ai_core.py" in run_all.ORDER


def test_the_versions_of_hard_are_measured_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    from games.ai.hard import VERSION_OPTIONS

    for setup in ai_core.VERSION_SETUPS:
        assert ai_core.main(["--versions", "--setup", setup, "--positions", "2", "--hints", "2",
                             "--fixed-deals", "40"]) == 0
        out = capsys.readouterr().out
        assert f"hard's versions in {setup}" in out
        rows = [line.split() for line in out.splitlines() if line.split() and line.split()[0] in VERSION_OPTIONS]
        assert [row[0] for row in rows] == sorted(VERSION_OPTIONS)
        assert all(float(row[1]) > 0 for row in rows)  # the CPU of a deal
