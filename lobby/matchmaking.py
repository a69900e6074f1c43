"""Matchmaking: who plays whom, as pure functions (no database).

``pair_tickets`` forms, from the players waiting in one mode's queue, groups
of close ratings, the accepted spread widening with waiting time;
``seat_order`` seats a group. ``lobby.services.run_matcher`` wraps them
around the queue in the database.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

# The accepted rating spread (display points) of a group: WINDOW_START for a
# player who just joined, growing by WINDOW_GROWTH per second of waiting, so
# that after a minute almost anyone is paired rather than left waiting.
WINDOW_START = 100.0
WINDOW_GROWTH = 15.0


@dataclass(frozen=True, slots=True)
class Ticket:
    """One player waiting in a queue: ``rating`` on the display scale,
    ``waited`` in seconds."""

    user_id: int
    rating: float
    waited: float


def rating_window(waited: float) -> float:
    """The spread of ratings a player accepts after ``waited`` seconds."""
    return WINDOW_START + WINDOW_GROWTH * max(waited, 0.0)


def _spread(group: Sequence[Ticket]) -> float:
    ratings = [ticket.rating for ticket in group]
    return max(ratings) - min(ratings)


def _acceptable(group: Sequence[Ticket]) -> bool:
    # Every member must accept the spread: the newest sets the tightest window.
    return _spread(group) <= min(rating_window(ticket.waited) for ticket in group)


def _apart(group: Sequence[Ticket], avoid: Collection[frozenset[int]]) -> bool:
    """No two members of the group are a pair to keep apart."""
    ids = [ticket.user_id for ticket in group]
    return not any(frozenset((a, b)) in avoid for i, a in enumerate(ids) for b in ids[i + 1 :])


def pair_tickets(
    tickets: Iterable[Ticket], size: int, *, avoid: Collection[frozenset[int]] = ()
) -> list[tuple[Ticket, ...]]:
    """Groups of ``size`` players of close ratings; each player in one group at most.

    ``avoid``: pairs of players kept apart (one blocked the other:
    community.selectors.block_pairs) unless nobody else is waiting.

    The longest-waiting players are served first: each picks, among the
    unmatched players, the run of ``size`` neighbours in rating order around
    them with the smallest spread, kept if every member's window accepts it.
    A player with several tickets counts once (never paired with themself).
    """
    if size < 2:
        raise ValueError("a game needs at least two players")
    unique: dict[int, Ticket] = {}
    for ticket in tickets:
        kept = unique.get(ticket.user_id)
        if kept is None or ticket.waited > kept.waited:
            unique[ticket.user_id] = ticket
    by_rating = sorted(unique.values(), key=lambda t: (t.rating, -t.waited, t.user_id))
    by_wait = sorted(unique.values(), key=lambda t: (-t.waited, t.user_id))
    matched: set[int] = set()
    groups: list[tuple[Ticket, ...]] = []
    for anchor in by_wait:
        if anchor.user_id in matched:
            continue
        free = [t for t in by_rating if t.user_id not in matched]
        if len(free) < size:
            break
        index = free.index(anchor)
        # Kept apart while anyone else waits: the neighbours in rating order
        # skip those the anchor must avoid.
        if avoid and len(free) > size:
            free = [t for t in free if t is anchor or frozenset((anchor.user_id, t.user_id)) not in avoid]
            index = free.index(anchor)
        best: tuple[Ticket, ...] | None = None
        for start in range(max(0, index - size + 1), min(index, len(free) - size) + 1):
            group = tuple(free[start : start + size])
            if len(unique) > size and not _apart(group, avoid):
                continue
            if best is None or _spread(group) < _spread(best):
                best = group
        if best is not None and _acceptable(best):
            groups.append(best)
            matched.update(ticket.user_id for ticket in best)
    return groups


def seat_order(group: Sequence[Ticket], *, teams: bool, rng: random.Random) -> list[Ticket]:
    """The group in seat order. With pairs (seats 0+2 against 1+3) the teams
    are balanced: the strongest and the weakest against the two middle ones.
    Otherwise the seats are drawn at random."""
    if teams:
        if len(group) != 4:
            raise ValueError("pairs need four players")
        strong, second, third, weak = sorted(group, key=lambda t: -t.rating)
        pair_a, pair_b = [strong, weak], [second, third]
        if rng.random() < 0.5:
            pair_a, pair_b = pair_b, pair_a
        return [pair_a[0], pair_b[0], pair_a[1], pair_b[1]]
    seats = list(group)
    rng.shuffle(seats)
    return seats
