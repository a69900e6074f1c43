"""How fast the machine is while a benchmark runs (``bench/ws_load.py``).

The load average of a virtual machine does not show what its host takes
from it: in runs of 2026-12-02 the same relay code spent 6.0 ms of CPU per
move at night and 2.8 ms in the morning, with the same load average. So a
run records two more facts at its start and its end:

- ``probe_ms``: the best of five timings of a fixed piece of pure Python
  (the same instructions every time: a slower reading is a slower machine);
- ``steal_pct``: the share of CPU time the hypervisor gave to others over
  the run (Linux's ``steal`` in /proc/stat; None elsewhere).
"""

from __future__ import annotations

import time
from pathlib import Path

PROC_STAT = Path("/proc/stat")


def probe_ms(rounds: int = 5) -> float:
    """Milliseconds of the fixed workload, the best of ``rounds``."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        table: dict[int, int] = {}
        for i in range(200_000):
            table[i & 1023] = table.get(i & 1023, 0) + i * i % 7
        best = min(best, time.perf_counter() - started)
    return round(best * 1000, 2)


def cpu_times(text: str | None = None) -> tuple[int, int] | None:
    """(steal, total) jiffies of all CPUs from /proc/stat's first line (or ``text``)."""
    if text is None:
        try:
            text = PROC_STAT.read_text()
        except OSError:
            return None
    lines = text.splitlines()
    fields = lines[0].split() if lines else []
    if len(fields) < 9 or fields[0] != "cpu":
        return None
    # user nice system idle iowait irq softirq steal [guest guest_nice]: guest
    # time is already counted in user and nice.
    values = [int(value) for value in fields[1:9]]
    return values[7], sum(values)


def steal_pct(before: tuple[int, int] | None, after: tuple[int, int] | None) -> float | None:
    """The share of CPU time stolen between two ``cpu_times`` readings."""
    if before is None or after is None or after[1] <= before[1]:
        return None
    return round(100 * (after[0] - before[0]) / (after[1] - before[1]), 2)
