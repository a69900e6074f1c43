"""When the slow moves of a benchmark run happened (``bench/ws_load.py --trace DIR``).

For each run's file: the measured window, then every 200 ms slice of send
times (from the first move, warm-up included) whose slowest move took over
``--over`` ms, as ``+seconds: ms``; then the load generator's own garbage collections of
10 ms or more (``load generator's collections: +seconds: ms/generation``),
which delay the frames it timestamps. A stall of the whole process shows as a
run of slices whose latency falls by 200 ms from one to the next (the moves
waiting behind it); a slow table alone, as one slice.

    .venv/bin/python bench/trace_summary.py DIR [--over 50]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

SLICE_S = 0.2
CLIENT_GC_MS = 10


def summary(path: Path, over_ms: float) -> str:
    data = json.loads(path.read_text())
    samples = data["samples"]
    if not samples:
        return f"{path.name}: no sample"
    first = min(sample[0] for sample in samples)
    slowest: dict[int, float] = {}
    for sent, ms, _table in samples:
        index = int((sent - first) / SLICE_S)
        slowest[index] = max(slowest.get(index, 0.0), ms)
    start, end = (moment - first for moment in data["window"])
    slow = " ".join(
        f"+{index * SLICE_S:.1f}:{ms:.0f}" for index, ms in sorted(slowest.items()) if ms > over_ms
    )
    text = f"{path.name}: window +{start:.1f}..+{end:.1f} s, {len(samples)} samples\n  {slow or 'none over the bound'}"
    pauses = " ".join(
        f"+{wall - first:.1f}:{ms:.0f}/{gen}"
        for wall, ms, gen in data.get("client_gc", [])
        if ms >= CLIENT_GC_MS and wall >= first
    )
    return text + (f"\n  load generator's collections: {pauses}" if pauses else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument(
        "--over", type=float, default=50, help="show slices whose slowest move took over this (ms)"
    )
    args = parser.parse_args()
    for path in sorted(args.directory.glob("*.json")):
        print(summary(path, args.over))


if __name__ == "__main__":
    main()
