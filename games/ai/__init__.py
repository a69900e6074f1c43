"""Computer players: ``choose_action(view, level, seed=..., budget_ms=...)``.

Three levels (seed 003, docs/ai.md), one interface
(``choose(view, rng) -> Action``): ``easy`` plays at random, ``medium`` by a
heuristic, ``hard`` by determinized Monte Carlo search with exact endgames.
Each reads only the view of its seat; the same view, level and seed give the
same action. Plain Python: no Django, no global random.

``SEARCH_VERSIONS`` (``versions.py``) names each level's decision procedure;
``recompute`` checks a recorded computer move against it (docs/fair-play.md).
"""
from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from games.engine import Action, PlayerView

from .base import Player
from .easy import EasyPlayer
from .hard import DEFAULT_BUDGET_MS, HardOptions, HardPlayer, options_for
from .medium import MediumPlayer
from .versions import SEARCH_VERSIONS, decision_record, implements, possible_versions, search_version, where

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
    version: str | None = None,
) -> Action:
    """The action the computer player of ``level`` takes for the seat of ``view``.

    ``view`` is a ``PlayerView`` of the seat to move; the result is one of
    ``view.legal``. Deterministic: the same view, level, seed and budget give
    the same action. ``budget_ms`` (hard only) is the thinking budget in
    milliseconds of this machine's single-core speed, counted as simulated
    work so that it never depends on the load (default ``DEFAULT_BUDGET_MS``);
    ``options`` (hard only) its other knobs (``HardOptions``; the defaults when None), or
    ``version`` the search version to decide as (one this code runs: ``versions.IMPLEMENTED``;
    None: the current one).
    """
    legal = tuple(view.legal)
    if not legal:
        raise ValueError("no legal action in this view (not this seat's turn?)")
    if version is not None:
        if not implements(level, version):
            raise ValueError(f"{level} version {version!r} is not run by this code")
        if level == "hard" and options is None:
            options = options_for(version)
    player = make_player(level, budget_ms=budget_ms, options=options)
    if len(legal) == 1:
        return legal[0]
    rng = Random(view_seed(view) if seed is None else seed)
    return player.choose(view, rng)


@dataclass(frozen=True, slots=True)
class Recomputation:
    """A recorded computer move checked against this code (``recompute``).

    ``status``: "same" (this code, run as the recorded version, gives the move
    played), "differs" (it gives ``chosen`` instead: the record does not hold), or
    "needs" (the move's version is not this code's: ``needed`` names the versions
    that can recompute it, ``chosen`` is this code's own choice when it was
    computed). ``version`` is the version recorded (None: recorded before versions)."""

    status: str
    level: str
    version: str | None
    chosen: Action | None
    needed: tuple[str, ...] = ()
    # The version this code ran to give ``chosen``.
    ran: str | None = None

    @property
    def same(self) -> bool:
        return self.status == "same"

    def explain(self) -> str:
        """Why a move was not recomputed (status "needs"), in words."""
        if self.status != "needs":
            return ""
        recorded = (
            f"recorded as {self.level} version {self.version}" if self.version is not None
            else f"recorded without a version (before versions were recorded: {self.level} "
            f"version {' or '.join(possible_versions(self.level, None))})"
        )
        tried = f"; this code's {self.level} version {self.ran} gives another move" if (
            self.chosen is not None) else ""
        needed = "; ".join(f"{self.level} version {v}: {where(self.level, v)}" for v in self.needed)
        return f"{recorded}{tried}; it needs {needed}"


def recompute(
    view: PlayerView,
    played: Action,
    computer: Mapping[str, Any],
    *,
    seed: int,
) -> Recomputation:
    """Check a computer move recorded with ``computer`` = {"level", "budget_ms",
    "version"} against this code, from its seat's ``view`` and decision ``seed``.

    A forced move (one legal action) is the same for every level and version. A move
    of a version this code runs (the current one or an older one it still runs,
    ``versions.IMPLEMENTED``) is recomputed as that version. A move recorded without a
    version is recomputed as the newest version this code runs among those it may
    have been chosen by (``versions.UNVERSIONED``): the same move proves it; another
    move proves nothing when a version this code does not run may have chosen it,
    which is then named. A move of a version this code does not run is not
    recomputed: its version is named. Raises ``ValueError`` for an unknown level."""
    level = str(computer.get("level"))
    recorded = computer.get("version")
    version = None if recorded is None else str(recorded)
    candidates = possible_versions(level, version)
    legal = tuple(view.legal)
    if len(legal) == 1:
        chosen: Action | None = legal[0]
        return Recomputation("same" if chosen == played else "differs", level, version, chosen)
    runs = [v for v in candidates if implements(level, v)]
    if not runs:
        return Recomputation("needs", level, version, None, candidates)
    ran = runs[-1]
    chosen = choose_action(view, level, seed=seed, budget_ms=computer.get("budget_ms"), version=ran)
    if chosen == played:
        return Recomputation("same", level, version, chosen, ran=ran)
    others = tuple(v for v in candidates if not implements(level, v))
    if others:
        return Recomputation("needs", level, version, chosen, others, ran=ran)
    return Recomputation("differs", level, version, chosen, ran=ran)


__all__ = ["DEFAULT_BUDGET_MS", "LEVELS", "SEARCH_VERSIONS", "EasyPlayer", "HardOptions", "HardPlayer", "MediumPlayer",
           "Player", "Recomputation", "choose_action", "decision_record", "make_player", "recompute", "search_version"]
