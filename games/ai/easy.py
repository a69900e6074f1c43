"""Easy: any legal action, chosen uniformly at random (seed 003: "plays any tile that fits")."""
from __future__ import annotations

from random import Random

from games.engine import Action, PlayerView


class EasyPlayer:
    """Picks uniformly among the legal actions of the view."""

    name = "easy"

    def choose(self, view: PlayerView, rng: Random) -> Action:
        """Return one of ``view.legal``, uniformly at random from ``rng``."""
        legal = list(view.legal)
        return legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]
