"""Who plays whom in an arena wave: pure (docs/tournaments.md, "Pairing").

Duels (``pair_wave``): the free players of a wave, in the order of the
standings, are matched by a maximum-weight matching (networkx's, on a graph
whose edges are the pairs that may play): every player is paired if their
number allows it (the matching has the most pairs), a pair's weight falls
with the distance between the two in the standings, and a rematch with one's
last opponent weighs less than any other pair, so that it is chosen only when
nobody else is free to avoid it. A large wave is matched in windows of
``WINDOW`` neighbours in the standings (the one left over of a window moves on
to the next; a remainder too short for two pairs joins the last window),
each player linked to the ``NEAR`` nearest on either side; a window whose
neighbours in the standings (1-2, 3-4, ...) include no rematch is that
pairing, the best one, without running the matching. A rematch a window
could not avoid (its players had nobody else in it) is then matched again
with the nearest players of the whole wave who may meet them (``_repair``),
so that the wave has the fewest rematches possible.

Four-player tables (``group_wave``, in windows of ``TABLE_WINDOW``): the
same matching pairs the window's players, then a second matching pairs those
pairs into tables (a table's weight falls with its spread in the standings
and, far more, with each two of its players who sat at the same last table);
then any swap of two players between two tables of the window (or with one
left out) that removes a rematch is made, until none does, and the same
across the windows of the wave when one left a rematch. All but at most
three players are seated; a remainder too short for two tables joins the
last window. Grouping into tables of four is a hard problem in
general (a three-dimensional matching): these two matchings and the swaps are
a heuristic (a larger window ends with no swap that would remove a rematch,
not always with the fewest), and a window of at most ``EXACT_TABLES``
players (two tables) tries every grouping.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx
# networkx is imported where a matching is made, not here: this module is loaded by
# every web process as it starts (through tournaments.services), and networkx's
# import costs 0.2 s of its CPU (docs/performance.md, "A web process's start").

WINDOW = 24
"""Players matched together at most (neighbours in the standings)."""
NEAR = 4
"""In a window of more than ``EXACT`` players, a player may be paired with the
``NEAR`` nearest on either side only (a sparse graph: a wave of 500 is matched
in a few tens of milliseconds); a smaller window is matched whole."""
EXACT = 12
REPAIR = 4
"""A rematch left by a window is matched again with this many players nearest
in the standings that each of the two may meet (and their partners)."""
TABLE = 4
TABLE_WINDOW = 16
"""Players grouped together at most into tables of four (four tables)."""
EXACT_TABLES = 9
"""A window of at most this many players is grouped by trying every grouping."""


@dataclass(frozen=True, slots=True)
class Free:
    """A free player: their id, rank in the standings (1 = first), last
    opponent's id (a duel) and the others of their last table (four players)."""

    player: int
    rank: int
    last_opponent: int | None = None
    last_table: frozenset[int] = field(default_factory=frozenset)


def rematch(a: Free, b: Free) -> bool:
    """The two played each other in the last game of either."""
    return (
        a.last_opponent == b.player
        or b.last_opponent == a.player
        or b.player in a.last_table
        or a.player in b.last_table
    )


Matcher = Callable[[Sequence[Free]], tuple[list[list[Free]], list[Free]]]


def _windows(free: Sequence[Free], window: int, size: int, match: Matcher) -> list[list[Free]]:
    """Run ``match`` over windows of neighbours in the standings; the ones a
    window leaves out move on to the next. The last window takes all that
    remain, and a remainder too short for two groups (a last window of a
    single pair or table could only seat its players together, even when
    they just played each other) is folded into the window before it."""
    if window < size:
        raise ValueError(f"a window holds at least {size} players")
    players = [item.player for item in free]
    if len(set(players)) != len(players):
        raise ValueError("a player is free once in a wave")
    ordered = sorted(free, key=lambda item: (item.rank, item.player))
    groups: list[list[Free]] = []
    carried: list[Free] = []
    start = 0
    while start < len(ordered):
        take = max(window - len(carried), 1)
        chunk = carried + ordered[start : start + take]
        start += take
        if len(ordered) - start < 2 * size:
            chunk += ordered[start:]
            start = len(ordered)
        found, carried = match(chunk)
        groups.extend(found)
    return groups


def _pairs(window: Sequence[Free], *, whole: bool = False) -> tuple[list[tuple[int, int]], list[int]]:
    """The pairs (indices into ``window``, sorted by rank) and who is left
    out (at most one); ``whole``: every pair of the window is an edge."""
    size = len(window)
    if size < 2:
        return [], list(range(size))
    neighbours = [(i, i + 1) for i in range(0, size - 1, 2)]
    if not any(rematch(window[i], window[j]) for i, j in neighbours):
        # Neighbours in the standings, none of whom just met: the heaviest matching.
        return neighbours, [size - 1] if size % 2 else []
    spread = window[-1].rank - window[0].rank + 1
    near = size if whole or size <= EXACT else NEAR
    import networkx as nx

    graph: nx.Graph[int] = nx.Graph()
    for i in range(size):
        for j in range(i + 1, min(size, i + near + 1)):
            a, b = window[i], window[j]
            # Near ranks weigh more; a rematch weighs less than any other pair
            # (all weights stay positive: the matching keeps the most pairs).
            graph.add_edge(i, j, weight=1 if rematch(a, b) else 2 * spread - abs(a.rank - b.rank))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted(tuple(sorted(edge)) for edge in matching)
    paired = {index for pair in pairs for index in pair}
    return [(i, j) for i, j in pairs], [i for i in range(size) if i not in paired]


def _match_pairs(window: Sequence[Free]) -> tuple[list[list[Free]], list[Free]]:
    pairs, left = _pairs(window)
    return [[window[i], window[j]] for i, j in pairs], [window[i] for i in left]


def _others(free: Sequence[Free]) -> dict[int, set[int]]:
    """Player -> the players of the wave they may not meet without a rematch."""
    present = {item.player for item in free}
    others: dict[int, set[int]] = {item.player: set() for item in free}
    for item in free:
        if item.last_opponent in present and item.last_opponent != item.player:
            others[item.player].add(item.last_opponent)
            others[item.last_opponent].add(item.player)
    return others


def _repair(free: Sequence[Free], pairs: list[tuple[Free, Free]]) -> list[tuple[Free, Free]]:
    """Across the windows: each rematch a window left (its players had nobody
    else in it) is matched again with the one left out of the wave and, for
    each of the two, the ``REPAIR`` nearest players in the standings they may
    meet, with those players' partners (the matching of ``_pairs``, every
    pair an edge: a few tens of players)."""
    if not any(rematch(a, b) for a, b in pairs):
        return pairs
    ordered = sorted(free, key=lambda item: (item.rank, item.player))
    position = {item.player: index for index, item in enumerate(ordered)}
    others = _others(free)
    partner: dict[int, Free] = {}
    for a, b in pairs:
        partner[a.player], partner[b.player] = b, a
    for a, b in list(pairs):
        if partner.get(a.player) != b or not rematch(a, b):
            continue  # re-paired already by an earlier repair
        pool = {item.player: item for item in ordered if item.player not in partner}
        for item in (a, b):
            pool[item.player] = item
            found, step = 0, 1
            start = position[item.player]
            while found < REPAIR and (start - step >= 0 or start + step < len(ordered)):
                for index in (start - step, start + step):
                    if 0 <= index < len(ordered) and found < REPAIR:
                        other = ordered[index]
                        if other.player not in others[item.player] and other.player not in (a.player, b.player):
                            found += 1
                            pool[other.player] = other
                            if other.player in partner:
                                mate = partner[other.player]
                                pool[mate.player] = mate
                step += 1
        window = sorted(pool.values(), key=lambda item: (item.rank, item.player))
        for item in window:
            partner.pop(item.player, None)
        found_pairs, _left = _pairs(window, whole=True)
        for i, j in found_pairs:
            partner[window[i].player], partner[window[j].player] = window[j], window[i]
    repaired = [(item, partner[item.player]) for item in ordered if item.player in partner]
    return [(x, y) for x, y in repaired if position[x.player] < position[y.player]]


def pair_wave(free: Sequence[Free], *, window: int = WINDOW) -> list[tuple[Free, Free]]:
    """The pairs of a wave: no player twice, all but at most one paired, and
    the fewest rematches (``_repair`` after the windows)."""
    pairs = [(a, b) for a, b in _windows(free, window, 2, _match_pairs)]
    return _repair(free, pairs)


def rematches(table: Sequence[Free]) -> int:
    """How many two of the table played each other in their last game."""
    return sum(1 for a, b in combinations(table, 2) if rematch(a, b))


def _improve(tables: list[list[Free]], *, spare: bool) -> None:
    """Swap two players of two tables while a swap removes a rematch (with
    ``spare``, the last group is the ones left out: its rematches count for nothing)."""
    last = len(tables) - 1 if spare else -1

    def cost(index: int, table: list[Free]) -> int:
        return 0 if index == last else rematches(table)

    costs = [cost(index, table) for index, table in enumerate(tables)]
    improved = True
    while improved:
        improved = False
        for t1, t2 in combinations(range(len(tables)), 2):
            before = costs[t1] + costs[t2]
            if before == 0:
                continue
            first, second = tables[t1], tables[t2]
            for i in range(len(first)):
                for j in range(len(second)):
                    a = [*first[:i], second[j], *first[i + 1 :]]
                    b = [*second[:j], first[i], *second[j + 1 :]]
                    after_a, after_b = cost(t1, a), cost(t2, b)
                    if after_a + after_b < before:
                        tables[t1], tables[t2] = first, second = a, b
                        costs[t1], costs[t2] = after_a, after_b
                        before = after_a + after_b
                        improved = True


def _spread(table: Sequence[Free]) -> int:
    return max(item.rank for item in table) - min(item.rank for item in table)


def _exact_tables(window: Sequence[Free]) -> tuple[list[list[Free]], list[Free]]:
    """Every grouping of a small window (at most ``EXACT_TABLES`` players: a
    few hundred groupings): the fewest rematches, then the smallest spreads."""
    wanted = len(window) // TABLE

    def best(rest: list[Free], tables: int) -> tuple[tuple[int, int], list[list[Free]], list[Free]]:
        if tables == 0:
            return (0, 0), [], rest
        first, others = rest[0], rest[1:]
        found: tuple[tuple[int, int], list[list[Free]], list[Free]] | None = None
        for chosen in combinations(range(len(others)), TABLE - 1):
            table = [first, *(others[i] for i in chosen)]
            remaining = [item for i, item in enumerate(others) if i not in chosen]
            (cost, spread), grouped, left = best(remaining, tables - 1)
            candidate = ((cost + rematches(table), spread + _spread(table)), [table, *grouped], left)
            if found is None or candidate[0] < found[0]:
                found = candidate
        if len(others) >= TABLE * tables:  # the first may be the one left out
            (cost, spread), grouped, left = best(others, tables)
            if found is None or (cost, spread) < found[0]:
                found = ((cost, spread), grouped, [first, *left])
        assert found is not None
        return found

    _cost, tables, left = best(list(window), wanted)
    return tables, left


def _match_tables(window: Sequence[Free]) -> tuple[list[list[Free]], list[Free]]:
    if len(window) <= EXACT_TABLES:
        exact, spare_players = _exact_tables(window)
        return sorted(exact, key=lambda table: table[0].rank), spare_players
    pair_index, left_index = _pairs(window)
    pairs = [[window[i], window[j]] for i, j in pair_index]
    left = [window[i] for i in left_index]
    tables: list[list[Free]]
    neighbours = [(k, k + 1) for k in range(0, len(pairs) - 1, 2)]
    if not any(rematches(pairs[k] + pairs[m]) for k, m in neighbours):
        tables = [pairs[k] + pairs[m] for k, m in neighbours]
        spare = [pairs[-1]] if len(pairs) % 2 else []
    else:
        spread = window[-1].rank - window[0].rank + 1
        # A rematch costs more than any spread in the standings.
        penalty = spread + 1
        near = len(pairs) if len(pairs) <= EXACT else NEAR
        import networkx as nx

        graph: nx.Graph[int] = nx.Graph()
        for k, m in combinations(range(len(pairs)), 2):
            if m - k > near:
                continue
            four = pairs[k] + pairs[m]
            ranks = [item.rank for item in four]
            cost = penalty * rematches(four) + max(ranks) - min(ranks)
            graph.add_edge(k, m, weight=6 * penalty + spread - cost)
        matching = sorted(tuple(sorted(edge)) for edge in nx.max_weight_matching(graph, maxcardinality=True))
        grouped = {index for edge in matching for index in edge}
        tables = [pairs[k] + pairs[m] for k, m in matching]
        spare = [pairs[k] for k in range(len(pairs)) if k not in grouped]
    left = sorted(
        [*left, *(item for pair in spare for item in pair)], key=lambda item: (item.rank, item.player)
    )
    # The ones left over may take a seat that removes a rematch (a table of its own).
    if left and tables:
        tables.append(left)
        _improve(tables, spare=True)
        left = tables.pop()
    else:
        _improve(tables, spare=False)
    for table in tables:
        table.sort(key=lambda item: (item.rank, item.player))
    tables.sort(key=lambda table: table[0].rank)
    return tables, sorted(left, key=lambda item: (item.rank, item.player))


def group_wave(free: Sequence[Free], *, window: int = TABLE_WINDOW) -> list[tuple[Free, Free, Free, Free]]:
    """The tables of four of a wave: no player twice, all but at most three
    seated; a rematch a window left is then swapped across the windows
    (``_improve`` over the whole wave: any swap of two players between two
    tables, or with one left out, that removes a rematch)."""
    tables = _windows(free, window, TABLE, _match_tables)
    if any(rematches(table) for table in tables):
        seated = {item.player for table in tables for item in table}
        left = [item for item in free if item.player not in seated]
        tables.append(left)
        _improve(tables, spare=True)
        tables.pop()
        for table in tables:
            table.sort(key=lambda item: (item.rank, item.player))
    return [(a, b, c, d) for a, b, c, d in tables]


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
    import networkx as nx

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
