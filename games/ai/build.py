"""Compile the computer players' core into numba's cache, once, at installation.

    python -m games.ai.build           # compile what the cache lacks (make install runs it)
    python -m games.ai.build --check   # compile nothing: exit 1 if the cache lacks something

Every process that decides computer moves or hints then loads the compiled code from the
cache (about half a second) instead of compiling it (tens of seconds of CPU), and the web
processes never compile it at all (docs/ai.md, "The compiled core"). The cache is where
numba puts it: ``__pycache__`` next to ``games/ai/_kernels.py``, or under
``NUMBA_CACHE_DIR`` when that is set (the same value must then be set for the processes
that load it). It stays valid until ``_kernels.py``'s content, numba's version, Python's
version or the machine's CPU changes; running the build again is cheap when nothing did.
"""
from __future__ import annotations

import argparse
import sys
import time

from . import core, warm


def cache_directory() -> str:
    """Where numba keeps the compiled core for this process (its environment included)."""
    from . import _kernels

    cache = getattr(_kernels.evaluate_duel, "_cache", None)
    return str(getattr(cache, "cache_path", "") or "(no cache: numba found no writable directory)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compile nothing; exit 1 if the cache lacks something")
    args = parser.parse_args(argv)
    if not core.switched_on():
        reason = "numba is not installed" if not core.installed() else f"{core.ENV} switches it off"
        print(f"compiled core not in use ({reason}): the pure-Python reference decides")
        return 0
    if args.check:
        core.forbid_compiling()
    start = time.perf_counter()
    cpu = time.process_time()
    status = warm.load()
    took = f"{time.perf_counter() - start:.1f} s ({time.process_time() - cpu:.1f} s of CPU)"
    where = cache_directory()
    if status == "unbuilt":
        print(f"compiled core: not built in {where} (run: python -m games.ai.build)", file=sys.stderr)
        return 1
    if status == "compiled":
        print(f"compiled core: built {core.compilations()} functions in {took} into {where}")
    else:
        print(f"compiled core: already built, loaded from {where} in {took}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
