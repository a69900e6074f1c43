"""Computer players: ``choose_action(view, level, seed=..., budget_ms=...)``.

Three levels (seed 003, docs/ai.md), one interface
(``choose(view, rng) -> Action``): ``easy`` plays at random, ``medium`` by a
heuristic, ``hard`` by determinized Monte Carlo search with exact endgames.
Each reads only the view of its seat; the same view, level and seed give the
same action. Plain Python: no Django, no global random.
"""
from __future__ import annotations

import zlib
from random import Random
from typing import Any

from games.engine import Action, PlayerView

from .base import Player
from .easy import EasyPlayer
from .hard import DEFAULT_BUDGET_MS, HardOptions, HardPlayer
from .medium import MediumPlayer

LEVELS = ("easy", "medium", "hard")


def make_player(level: str, *, budget_ms: float | None = None, options: HardOptions | None = None) -> Player:
    """The player of a level (``budget_ms`` and ``options`` only matter to ``hard``)."""
    if level == "easy":
        return EasyPlayer()
    if level == "medium":
        return MediumPlayer()
    if level == "hard":
        return HardPlayer(budget_ms, options=options or HardOptions())
    raise ValueError(f"unknown level {level!r}; expected one of {LEVELS}")


def view_seed(view: Any) -> int:
    """A stable number drawn from the view's public content (used when no seed is given)."""
    parts = [
        getattr(view, "seat", None),
        getattr(view, "round", None),
        tuple(getattr(view, "hand", ())),
        tuple(getattr(view, "line", ())),
        tuple(getattr(view, "history", ())),
    ]
    return zlib.crc32(repr(parts).encode())


def choose_action(
    view: PlayerView,
    level: str,
    *,
    seed: int | None = None,
    budget_ms: float | None = None,
    options: HardOptions | None = None,
) -> Action:
    """The action the computer player of ``level`` takes for the seat of ``view``.

    ``view`` is a ``PlayerView`` of the seat to move; the result is one of
    ``view.legal``. Deterministic: the same view, level, seed and budget give
    the same action. ``budget_ms`` (hard only) is the thinking budget in
    milliseconds of this machine's single-core speed, counted as simulated
    work so that it never depends on the load (default ``DEFAULT_BUDGET_MS``);
    ``options`` (hard only) its other knobs (``HardOptions``; the defaults when None).
    """
    legal = tuple(view.legal)
    if not legal:
        raise ValueError("no legal action in this view (not this seat's turn?)")
    player = make_player(level, budget_ms=budget_ms, options=options)
    if len(legal) == 1:
        return legal[0]
    rng = Random(view_seed(view) if seed is None else seed)
    return player.choose(view, rng)


__all__ = ["DEFAULT_BUDGET_MS", "LEVELS", "EasyPlayer", "HardOptions", "HardPlayer", "MediumPlayer", "Player",
           "choose_action", "make_player"]
