"""Loading the compiled core (``games.ai.core``) ahead of a first decision.

Apart from the core because it plays a decision of the hard level, which uses
the core: the core does not import the players."""

from __future__ import annotations

from random import Random

from games.engine import new_game, rules_for, view_for

from . import core
from .hard import HardOptions, HardPlayer


def warm_up() -> bool:
    """Load (or compile, the first time on a machine) the compiled functions now rather
    than at a first decision: one tiny decision of each kind. Returns whether the core is
    in use. The server and the workers call it as they start (``games.apps``)."""
    if not core.enabled():
        return False
    player = HardPlayer(options=HardOptions(budget_ms=0.5))
    for preset, players, teams in (("duel-block", 2, False), ("arena", 4, True)):
        state = new_game(rules_for(preset, players=players, teams=teams), seed="warm-up")
        player.choose(view_for(state, state.to_move), Random(0))
    return True
