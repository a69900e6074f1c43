"""The analysis of one decision from one seat's view (hints and the review).

``analyse(view, ...)`` reads the view only, never the real state. One search of
the hard level (``games.ai.HardPlayer``, the compiled core when installed) gives
both its choice and, for each distinct play, the points the seat's side can
expect from the round and how often it wins the round, over the same deals of
the tiles the seat cannot see and the same playouts: the figures shown are the
ones the choice was made from (hard weighs a round won above its points). A
move's *cost* is the expected points of the hard level's choice minus those of
the move played. Plain Python.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from random import Random
from typing import TYPE_CHECKING

from games.engine import Action, Play, PlayerView, Tile

if TYPE_CHECKING:
    from games.ai import HardOptions


@dataclass(frozen=True, slots=True)
class Option:
    """A distinct play, the points its side may expect from the round and the share of
    the deals in which its side wins the round."""

    action: Action
    points: float
    wins: float = 0.0


@dataclass(frozen=True, slots=True)
class Analysis:
    """The hard level's choice from a view, and the expected points of each play."""

    best: Action
    options: tuple[Option, ...]  # best first
    deals: int

    @property
    def forced(self) -> bool:
        """Nothing to choose: one play (or a draw, a pass)."""
        return len(self.options) < 2

    def option_of(self, action: Action) -> Option | None:
        key = play_key(action)
        return next((option for option in self.options if play_key(option.action) == key), None)

    def cost_of(self, action: Action) -> float:
        """Expected points lost by playing ``action`` instead of the hard level's choice (>= 0)."""
        best, played = self.option_of(self.best), self.option_of(action)
        if best is None or played is None or play_key(action) == play_key(self.best):
            return 0.0
        return max(0.0, best.points - played.points)


def play_key(action: Action) -> object:
    # Two plays of one tile that leave the same two ends are the same move.
    if isinstance(action, Play):
        return ("play", action.tile, action.end)
    return (type(action).__name__, action.seat)


def _same_position_key(view: PlayerView, action: Play) -> tuple[Tile, tuple[int, int]]:
    ends = view.ends
    a, b = action.tile.low, action.tile.high
    if ends is None:
        return action.tile, (a, b)
    left, right = ends
    if action.end == "left":
        left = b if a == left else a
    else:
        right = b if a == right else a
    return action.tile, (min(left, right), max(left, right))


def distinct_plays(view: PlayerView) -> list[Play]:
    """The legal plays of the view, one per resulting position."""
    seen: dict[tuple[Tile, tuple[int, int]], Play] = {}
    for action in view.legal:
        if isinstance(action, Play):
            seen.setdefault(_same_position_key(view, action), action)
    return list(seen.values())


def canonical(view: PlayerView, action: Action) -> Action:
    """The representative of ``action`` among ``distinct_plays`` (itself if not a play)."""
    if not isinstance(action, Play):
        return action
    key = _same_position_key(view, action)
    return next((play for play in distinct_plays(view) if _same_position_key(view, play) == key), action)


def analyse(view: PlayerView, *, seed: int, budget_ms: float, deals: int, options: HardOptions | None = None
            ) -> Analysis:
    """The hard level's choice for ``view`` and the expected points (and wins) of each
    distinct play, from one search: the search of ``choose_action(view, "hard",
    seed=seed, budget_ms=budget_ms)``, dealing at least ``deals`` deals. ``options``: hard's
    options to search with (default: the current version's, as the site's hints and reviews;
    ``bench/ai_core.py --versions`` times every version's)."""
    from games.ai import HardOptions, HardPlayer
    from games.ai.base import candidates
    from games.ai.hard import best_of
    from games.ai.knowledge import read_view

    if not view.legal:
        raise ValueError("nothing to analyse: not this seat's turn")
    legal = list(view.legal)
    plays = distinct_plays(view)
    know = read_view(view)
    cands = candidates(legal, know)
    if len(legal) == 1 or len(cands) < 2:
        best = canonical(view, cands[0].action if cands else legal[0])
        return Analysis(best, tuple(Option(play, 0.0) for play in plays), 0)
    base = options if options is not None else HardOptions()
    player = HardPlayer(options=replace(base, budget_ms=budget_ms, min_deals=max(8, deals)))
    values = player.evaluate(know, cands, Random(seed))
    best = canonical(view, cands[best_of(know, cands, values)].action)
    stats = player.stats
    found = {play_key(canonical(view, c.action)): k for k, c in enumerate(cands)}
    valued = []
    for play in plays:
        k = found[play_key(play)]
        valued.append(Option(play, round(stats.points[k], 2), round(stats.wins[k], 3)))
    # The choice first, then the others as hard ranks them.
    rank = {play_key(canonical(view, c.action)): values[k] for k, c in enumerate(cands)}
    valued.sort(key=lambda option: (play_key(option.action) != play_key(best), -rank[play_key(option.action)]))
    return Analysis(best, tuple(valued), stats.deals)
