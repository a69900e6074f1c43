"""Loading the compiled core (``games.ai.core``) ahead of a first decision.

Apart from the core because it plays a decision of the hard level, which uses
the core: the core does not import the players. ``load()`` is what the
processes that decide call as they start (the web processes from
``config/asgi.py``, the workers on ``worker_init``, the build step
``python -m games.ai.build``, the tests' session fixture); docs/ai.md."""

from __future__ import annotations

from dataclasses import replace
from random import Random

from games.engine import apply_action, new_game, rules_for, view_for

from . import core
from .base import candidates
from .hard import HardOptions, HardPlayer
from .knowledge import read_view
from .medium import MediumPlayer


def load() -> str:
    """``games.ai.core.load`` with the decisions of ``_exercise``: load the compiled
    functions now (compiling those missing unless compiling is forbidden). Returns
    ``core.status()``."""
    return core.load(_exercise)


def _exercise() -> bool:
    """A small decision that goes through each entry point (a block duel and the draw game's
    tree: ``evaluate_duel``; a draw game of two searched by the playouts, as with
    ``draw_tree`` off: ``evaluate_general``), each at its first position with a choice between
    plays. False if one was missing from the cache where compiling is forbidden."""

    options = HardOptions(budget_ms=0.5)
    medium = MediumPlayer()
    k = core._kernels()
    for preset, players, teams, draw_tree in (("duel-block", 2, False, True), ("classic-draw", 2, False, False)):
        player = HardPlayer(options=replace(options, draw_tree=draw_tree))
        state = new_game(rules_for(preset, players=players, teams=teams), seed="core-build")
        rng = Random(0)
        while not state.round_over:
            view = view_for(state, state.to_move)
            if len(candidates(list(view.legal), read_view(view))) > 1:
                player.choose(view, rng)
                break
            state = apply_action(state, medium.choose(view, rng))
        if core.status() == "unbuilt":
            return False
    missing = [name for name in core.ENTRY_POINTS if not getattr(k, name).signatures]
    if missing:
        raise RuntimeError(f"the build's decisions never reached {', '.join(missing)}")
    return True
