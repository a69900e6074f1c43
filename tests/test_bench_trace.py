"""bench/trace_summary.py: when the slow moves of a benchmark run happened."""

from __future__ import annotations

import json
from pathlib import Path

from bench import trace_summary


def test_a_stall_shows_as_the_slices_whose_slowest_move_was_over_the_bound(tmp_path: Path) -> None:
    start = 1000.0
    samples = [[start + i * 0.05, 10.0, i % 3] for i in range(100)]  # 5 s of quick moves
    samples += [[start + 2.0, 300.0, 1], [start + 2.25, 120.0, 2], [start + 4.1, 60.0, 0]]
    path = tmp_path / "site-paced-uvicorn-x1-3.json"
    path.write_text(json.dumps({"window": [start + 1.0, start + 4.0], "samples": samples}))
    text = trace_summary.summary(path, over_ms=100)
    assert text.splitlines()[0] == f"{path.name}: window +1.0..+4.0 s, 103 samples"
    assert text.splitlines()[1].split() == ["+2.0:300", "+2.2:120"]
    assert "none over the bound" in trace_summary.summary(path, over_ms=400)


def test_the_collector_log_records_full_collections(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    log = tmp_path / "gc.log"
    env = {
        **os.environ,
        "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "bench" / "gc_log"),
        "GC_LOG": str(log),
    }
    subprocess.run([sys.executable, "-c", "import gc; gc.collect(); gc.collect()"], env=env, check=True)
    lines = log.read_text().splitlines()
    assert len([line for line in lines if line.split()[1] == "gen2"]) >= 2
    assert all(line.split()[2].endswith("ms") for line in lines)
