"""The analysis of one decision from one seat's view (hints and the review).

``analyse(view, ...)`` reads the view only, never the real state: the hard
level's choice (``games.ai.choose_action``) and, for each distinct play, the
points the seat's side can expect from the round, estimated over many deals
of the tiles the seat cannot see (Monte Carlo playouts of the AI's simulator,
every play on the same deals). A move's *cost* is the expected points of the
hard level's choice minus those of the move played. Plain Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from games.engine import Action, Play, PlayerView, Tile


@dataclass(frozen=True, slots=True)
class Option:
    """A distinct play and the points its side may expect from the round."""

    action: Action
    points: float


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


def estimate_points(view: PlayerView, plays: Sequence[Play], *, deals: int, seed: int) -> list[float]:
    """Expected round points for the view's side (won minus lost) after each
    play, over ``deals`` deals of the unseen tiles consistent with the view."""
    from games.ai.knowledge import Dealer, read_view, tile_index
    from games.ai.sim import NO_END, NO_WINNER, play_tile, playout, round_result

    know = read_view(view)
    table = know.table
    me = know.me
    mine = table.side(me)
    nxt = (me + 1) % table.players
    moves = []
    for play in plays:
        index = tile_index(play.tile)
        on_left = know.left == NO_END or str(play.end) == "left"
        moves.append((index, *play_tile(know.left, know.right, index, on_left)))
    rng = Random(seed)
    dealer = Dealer(know, rng)
    dice = Random()
    totals = [0.0] * len(plays)
    for _deal in range(max(1, deals)):
        hands, bone = dealer.deal()
        dice_seed = rng.getrandbits(48)
        for k, (index, left, right) in enumerate(moves):
            after = hands[:]
            after[me] ^= 1 << index
            if not after[me]:
                side, points = round_result(table, after, me)
            else:
                dice.seed(dice_seed)
                outcome = playout(table, after, bone[:], left, right, know.board | 1 << index, nxt, dice)
                side, points = outcome[0], outcome[1]
            if side != NO_WINNER:
                totals[k] += points if side == mine else -points
    return [total / max(1, deals) for total in totals]


def analyse(view: PlayerView, *, seed: int, budget_ms: float, deals: int) -> Analysis:
    """The hard level's choice for ``view`` and the expected points of each distinct play."""
    from games.ai import choose_action

    if not view.legal:
        raise ValueError("nothing to analyse: not this seat's turn")
    best = canonical(view, choose_action(view, "hard", seed=seed, budget_ms=budget_ms))
    plays = distinct_plays(view)
    if len(plays) < 2:
        return Analysis(best, tuple(Option(play, 0.0) for play in plays), 0)
    points = estimate_points(view, plays, deals=deals, seed=seed ^ 0x5EED)
    options = sorted(
        (Option(play, round(value, 2)) for play, value in zip(plays, points, strict=True)),
        key=lambda option: (play_key(option.action) != play_key(best), -option.points),
    )
    return Analysis(best, tuple(options), deals)
