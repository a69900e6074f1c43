"""The verifier of published games: plain Python, above the rules engine and
the computer players (docs/fair-play.md, docs/architecture.md).

``verify_replay(data)`` checks a ``replay.json`` (games.verifier.replay),
``verify_tournament(data)`` a tournament's results file (games.verifier.tournament,
with the arena's scoring rules of games.verifier.arena, which the site's
tournaments app scores with too);
``main`` is the command ``python -m games.engine.verify`` (games.verifier.cli),
the name the site publishes, kept by ``games/engine/verify.py``, which only
re-exports this package. It imports the standard library, ``games.engine``,
``games.ai`` and ``cryptography``; nothing of Django or the site.
"""

from games.engine.deal import computer_seed, salted_seed

from .cli import main
from .replay import (
    FORMAT,
    SIGNATURE_ALGORITHM,
    Disagreement,
    Report,
    sign_replay,
    signed_bytes,
    verify_replay,
)
from .tournament import TournamentReport, verify_tournament

__all__ = [
    "FORMAT",
    "SIGNATURE_ALGORITHM",
    "Disagreement",
    "Report",
    "TournamentReport",
    "computer_seed",
    "main",
    "salted_seed",
    "sign_replay",
    "signed_bytes",
    "verify_replay",
    "verify_tournament",
]
