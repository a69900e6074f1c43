"""Run every benchmark under bench/ in turn (``make bench``), each printing its numbers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The benchmarks, cheap pure-Python ones first, the load test last.
ORDER = ["engine.py", "ai.py", "ai_core.py", "puzzles.py", "fair_play.py", "tournaments.py", "table_services.py", "api_load.py", "ws_load.py"]


def main() -> int:
    scripts = [HERE / name for name in ORDER if (HERE / name).exists()]
    failed = 0
    for script in scripts:
        print(f"\n=== {script.relative_to(HERE.parent)} ===", flush=True)
        failed |= subprocess.call([sys.executable, str(script)], cwd=HERE.parent) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
