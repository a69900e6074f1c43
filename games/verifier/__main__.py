"""``python -m games.verifier replay.json``: the same command as ``python -m games.engine.verify``."""

import sys

from .cli import main

sys.exit(main())
