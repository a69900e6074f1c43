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


def test_the_load_generators_own_collections_are_listed_after_the_slow_slices(tmp_path: Path) -> None:
    start = 1000.0
    samples = [[start + i * 0.05, 10.0, 0] for i in range(100)]
    # (one before the first move is left out, as are those under 10 ms)
    client_gc = [[start - 1.0, 30.0, 2], [start + 1.5, 4.0, 0], [start + 2.0, 12.5, 1], [start + 3.25, 48.0, 2]]
    path = tmp_path / "relay-paced-uvicorn-x1-150.json"
    path.write_text(json.dumps({"window": [start, start + 5.0], "samples": samples, "client_gc": client_gc}))
    lines = trace_summary.summary(path, over_ms=50).splitlines()
    assert lines[2].split(": ", 1) == ["  load generator's collections", "+2.0:12/1 +3.2:48/2"]


def test_the_load_generator_reports_its_collections_and_those_of_the_window() -> None:
    import gc
    import time

    from bench.load_client import CollectorWatch

    watch = CollectorWatch()
    try:
        gc.collect()
        begin = time.time()
        gc.collect()
        gc.collect(0)
        end = time.time()
    finally:
        watch.stop()
    report = watch.report((begin, end))
    assert report["collections"][2] >= 2
    assert report["collections"][0] >= 1
    assert report["in_window"] >= 2  # the second full one and the young one (others may run too)
    gc.collect()
    assert len(watch.collections) == sum(report["collections"])  # stopped: nothing more recorded


def test_the_machine_facts_of_a_run() -> None:
    from bench import machine

    assert machine.probe_ms(rounds=1) > 0
    before = machine.cpu_times("cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 1 2 3\n")
    after = machine.cpu_times("cpu  200 0 100 1500 10 0 5 135 7 0\n")
    assert before == (35, 1000)
    assert after == (135, 1950)
    # 100 stolen out of 950 jiffies (guest time is inside user already)
    assert machine.steal_pct(before, after) == 10.53
    assert machine.steal_pct(before, None) is None
    assert machine.cpu_times("intr 1 2 3\n") is None
    assert machine.cpu_times("") is None
