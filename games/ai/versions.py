"""Which decision procedure each computer level runs: its search version.

A computer move is recomputable when one knows the view of its seat, the seed
of its decision, its budget and *the procedure that chose it*. The first three
are published with every game (docs/fair-play.md); the procedure is this
version, recorded with every computer move since it exists
(``Move.payload["computer"]["version"]``, see ``decision_record``).

``SEARCH_VERSIONS[level]`` names the procedure this code runs for ``level``.
It is bumped by hand, in the same commit, by every change that makes some view,
seed and budget give another action (a weight, a cost of the budget, the
order in which random numbers are drawn, an engine change that reorders
``view.legal``...); a change that keeps every decision (a faster path, the
compiled core, a refactor) keeps it. ``games/tests/ai/test_versions.py`` pins
the decisions of fixed positions for each level's current version, so a
change of decisions without a bump fails there (docs/ai.md, "Search
versions", says how to bump).

Versions are strings, one sequence per level:

- easy "1": a uniformly random legal action (since the first computer
  players, 90d3058).
- medium "1": the tips heuristic with the weights tuned on 2026-11-29
  (8829d7b, 17:24) and unchanged since.
- hard "1": the pure-Python search as the site ran it from a8d3870
  (2026-11-29 22:49: block-duel tree, single rounds played for the win) to
  the last commit before the compiled core, 5789a79 (the later commits of that
  span kept every decision). Not implemented any more.
- hard "2": the search with the compiled core (merged in 3707a84,
  2026-12-01 23:34): thirty times the work per unit of budget
  (``HardOptions.speed``), at most 40,000 deals, playouts drawing from the
  decision's own random numbers, exact solves capped at 200,000 nodes. Still
  run by this code (``hard.VERSION_OPTIONS["2"]``), to recompute its moves.
- hard "3": version 2 with the own-move tree wherever three or four seats
  can draw nothing (pairs, three and four alone): the other seats reply by
  the tips model inside the tree, the playouts finish the round beyond it
  (``HardOptions.block_tree``, ``tree_playout``, ``crowd_cost`` 4). Block
  duels, the draw game with a boneyard and the endgames decide as in "2".
- hard "4": version 3 reading the partner's plays in pairs with a flatter
  tips model than the opponents' (``HardOptions.partner_temper`` 0.2
  against ``temper`` 0.5: the partner is hard, not a tips player). Only
  pairs positions where the tree searches decide otherwise.
- hard "5": version 4 with the own-move tree in the draw duel while tiles
  can be drawn (``HardOptions.draw_tree``, ``draw_tree_seats`` 2): the other
  seat's draws and replies in the keys of the computer's decision points,
  its own draws as chance nodes. Only draw duels with a boneyard, beyond the
  exact endgames, decide otherwise.
- hard "6": version 5 with the tree of three and four seats searching the
  endgames too (``HardOptions.tree_endgames``) instead of solving each deal
  exactly. Only the endgames of three and four seats where nothing can be
  drawn (pairs included) decide otherwise.

Moves recorded before versions were (``UNVERSIONED``): easy and medium moves
are version "1"; a hard move is version "1" when its game was played before
the compiled core reached the site, and version "2" when it was played after
(from 2026-12-01 23:34 until versions were recorded). The file does not say
which, so a recomputation tries the one of them this code still runs ("2") and,
when it gives another move, names the other one (``recompute``).
"""
from __future__ import annotations

from collections.abc import Mapping

SEARCH_VERSIONS: Mapping[str, str] = {"easy": "1", "medium": "1", "hard": "6"}

# Every version this code runs, the current one last: an older one stays while recomputing
# its moves costs no more than its options (``hard.VERSION_OPTIONS``).
IMPLEMENTED: Mapping[str, tuple[str, ...]] = {"easy": ("1",), "medium": ("1",), "hard": ("2", "3", "4", "5", "6")}

# The versions a move recorded without one may have been chosen by, oldest first.
UNVERSIONED: Mapping[str, tuple[str, ...]] = {"easy": ("1",), "medium": ("1",), "hard": ("1", "2")}

# Every version that was but is no longer implemented: where its code is (recompute with
# that commit's ``python -m games.engine.verify --computer``).
RETIRED: Mapping[tuple[str, str], str] = {
    ("hard", "1"): "the pure-Python search before the compiled core: games/ai at commit 5789a79",
}


def search_version(level: str) -> str:
    """The version of ``level``'s decision procedure in this code."""
    try:
        return SEARCH_VERSIONS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; expected one of {tuple(SEARCH_VERSIONS)}") from None


def implements(level: str, version: str) -> bool:
    """Whether this code decides as ``level`` version ``version`` did (its current version or
    an older one it still runs)."""
    return version in IMPLEMENTED.get(level, ())


def possible_versions(level: str, version: object) -> tuple[str, ...]:
    """The versions that may have chosen a move recorded with ``version`` (None: recorded
    before versions were, ``UNVERSIONED``)."""
    search_version(level)  # an unknown level is refused
    if version is None:
        return UNVERSIONED[level]
    return (str(version),)


def where(level: str, version: str) -> str:
    """Where the code of ``level`` version ``version`` is, in words."""
    if implements(level, version):
        return "this code"
    return RETIRED.get((level, version), "a version this code does not know (a newer games.ai?)")


def decision_record(level: str, budget_ms: float | None) -> dict[str, object]:
    """What is stored and published with a computer move (``Move.payload["computer"]``):
    its level, its budget and the version of the procedure that chose it."""
    return {"level": level, "budget_ms": budget_ms, "version": search_version(level)}
