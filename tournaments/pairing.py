"""Who plays whom in an arena wave: pure (docs/tournaments.md, "Pairing").

The free players of a wave, in the order of the standings, are matched by a
maximum-weight matching (networkx's, on a graph whose edges are the pairs
that may play): every player is paired if their number allows it (the
matching has the most pairs), a pair's weight falls with the distance between
the two in the standings, and a rematch with one's last opponent weighs less
than any other pair, so that it is chosen only when nobody else is free to
avoid it. A large wave is matched in windows of ``WINDOW`` neighbours in the
standings (the one left over of a window moves on to the next), which keeps a
wave of hundreds of players fast and pairs players with near ranks anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

WINDOW = 24
"""Players matched together at most (neighbours in the standings)."""


@dataclass(frozen=True, slots=True)
class Free:
    """A free player: their id, rank in the standings (1 = first) and last opponent's id."""

    player: int
    rank: int
    last_opponent: int | None = None


def _rematch(a: Free, b: Free) -> bool:
    return a.last_opponent == b.player or b.last_opponent == a.player


def _match(window: Sequence[Free]) -> tuple[list[tuple[Free, Free]], list[Free]]:
    """The pairs of one window and who is left out (at most one)."""
    size = len(window)
    if size < 2:
        return [], list(window)
    spread = max(item.rank for item in window) - min(item.rank for item in window) + 1
    graph: nx.Graph[int] = nx.Graph()
    for i in range(size):
        for j in range(i + 1, size):
            a, b = window[i], window[j]
            # Near ranks weigh more; a rematch weighs less than any other pair
            # (all weights stay positive: the matching keeps the most pairs).
            weight = 2 * spread - abs(a.rank - b.rank)
            if _rematch(a, b):
                weight = 1
            graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    paired: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for i, j in matching:
        low, high = sorted((i, j))
        pairs.append((low, high))
        paired.update((low, high))
    pairs.sort()
    left = [window[i] for i in range(size) if i not in paired]
    return [(window[i], window[j]) for i, j in pairs], left


def pair_wave(free: Sequence[Free], *, window: int = WINDOW) -> list[tuple[Free, Free]]:
    """The pairs of a wave: no player twice, all but at most one paired."""
    if window < 2:
        raise ValueError("a window holds at least two players")
    players = [item.player for item in free]
    if len(set(players)) != len(players):
        raise ValueError("a player is free once in a wave")
    ordered = sorted(free, key=lambda item: (item.rank, item.player))
    pairs: list[tuple[Free, Free]] = []
    carried: list[Free] = []
    start = 0
    while start < len(ordered):
        take = window - len(carried)
        chunk = carried + ordered[start : start + take]
        start += take
        # The last window takes what remains, so that nobody waits for lack of a neighbour.
        if len(ordered) - start < 2:
            chunk += ordered[start:]
            start = len(ordered)
        found, carried = _match(chunk)
        pairs.extend(found)
    return pairs


COMPUTER = -1
"""The computer's place in ``pair_round``'s answer (an odd player's opponent)."""


def pair_round(
    players: Sequence[int], met: set[frozenset[int]], computer_games: dict[int, int] | None = None
) -> list[tuple[int, int]]:
    """A duplicate round's pairs, avoiding repeats: ``players`` in the order
    of the standings, ``met`` the pairs that already played each other. With
    an odd number, one player is paired with ``COMPUTER`` (preferably one who
    has had the computer the fewest times). A maximum-weight matching with
    the most pairs on the complete graph (plus the computer when odd): a
    pair that has not met weighs more than every repeat, so that repeats are
    the fewest possible, and among those, neighbours in the standings meet."""
    people = list(players)
    had = computer_games or {}
    most = max((had.get(player, 0) for player in people), default=0)
    # Three tiers of weight, each larger than all the lower tiers of a whole
    # matching together: no repeat, then the computer to one who had it
    # least, then neighbours in the standings (and the computer to the lowest).
    spread = len(people) + 1
    fairness = spread * spread
    fresh = (most + 2) * fairness
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(people)
    for i, first in enumerate(people):
        for j in range(i + 1, len(people)):
            second = people[j]
            repeat = frozenset((first, second)) in met
            graph.add_edge(first, second, weight=(1 if repeat else fresh) + spread - (j - i))
    if len(people) % 2:
        for rank, player in enumerate(people):
            graph.add_edge(player, COMPUTER, weight=fresh + (most - had.get(player, 0)) * fairness + rank)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    order = {player: index for index, player in enumerate(people)}
    order[COMPUTER] = len(people)
    pairs = [tuple(sorted(pair, key=order.__getitem__)) for pair in matching]
    return sorted(((a, b) for a, b in pairs), key=lambda pair: order[pair[0]])
