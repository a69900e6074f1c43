"""``python -m games.engine.verify replay.json``: the command the site publishes
to check a finished game (docs/fair-play.md).

The verifier is the package ``games.verifier``, above the engine and the
computer players (it imports both, and ``cryptography`` for the signature).
This module only keeps the published name: it re-exports that package and
runs its command. It is the one module of the engine that imports anything
outside the engine and the standard library, the one listed exception of the
engine's contracts (pyproject.toml, games/tests/engine/test_imports.py):
nothing in the engine imports it.
"""

import sys

from games.verifier import (
    FORMAT,
    Disagreement,
    Report,
    computer_seed,
    main,
    salted_seed,
    sign_replay,
    signed_bytes,
    verify_replay,
)

__all__ = [
    "FORMAT",
    "Disagreement",
    "Report",
    "computer_seed",
    "main",
    "salted_seed",
    "sign_replay",
    "signed_bytes",
    "verify_replay",
]

if __name__ == "__main__":
    sys.exit(main())
