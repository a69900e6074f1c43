"""Log the garbage collector's pauses of a benchmarked process (bench only).

Python imports ``sitecustomize`` at start when it is on the path: run a
server with ``PYTHONPATH=bench/gc_log GC_LOG=FILE`` (for example
``bench/ws_load.py --site-variant gclog:PYTHONPATH=bench/gc_log,GC_LOG=/tmp/gc.log``)
and every full collection, and every younger one over 10 ms, is appended to
FILE as ``<wall clock> gen<n> <ms>ms``: wall time, so a collection of a
process that waited for a core counts what the sockets waited. Compare with
``bench/trace_summary.py`` (docs/performance.md).
"""

from __future__ import annotations

import gc
import os
import time
from typing import Any

LONG_MS = 10.0

_path = os.environ.get("GC_LOG")
if _path:
    _out = open(_path, "a", buffering=1)  # noqa: SIM115 - open for the life of the process
    _started: list[float] = [0.0]

    def _log(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            _started[0] = time.perf_counter()
            return
        ms = (time.perf_counter() - _started[0]) * 1000
        if info["generation"] == 2 or ms > LONG_MS:
            _out.write(f"{time.time():.3f} gen{info['generation']} {ms:.1f}ms\n")

    gc.callbacks.append(_log)
