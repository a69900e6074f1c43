"""Fair conduct: when a member who leaves games may not queue (plain rules
over the times of their abandoned games; docs/moderation.md).

- An abandonment is a game the member left (accounts.models.Abandonment).
  Resigning is not leaving.
- When an abandonment makes ``THRESHOLD`` or more within ``WINDOW`` (it
  included), the member may not queue from that moment for a while: the
  first such abandonment bans for ``BANS[0]``, each further one within the
  window for the next duration, up to the last (the cap).
- A ban ends on its own; a later ban never shortens an earlier one.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

WINDOW = timedelta(hours=24)
THRESHOLD = 3
BANS = (
    timedelta(minutes=10),
    timedelta(hours=1),
    timedelta(hours=6),
    timedelta(hours=24),
    timedelta(hours=48),
)

# The server playing this many of a member's turns in a row (their clock ran
# out each time) in one game counts as leaving it.
TIMEOUTS_IN_A_ROW = 3


def ban_for(count_in_window: int) -> timedelta | None:
    """The ban an abandonment brings when it is the ``count_in_window``-th
    within the window (None below the threshold)."""
    if count_in_window < THRESHOLD:
        return None
    return BANS[min(count_in_window - THRESHOLD, len(BANS) - 1)]


def banned_until(times: Iterable[datetime]) -> datetime | None:
    """When the latest ban brought by these abandonments ends (None if none
    did); compare with the current time to know whether it still holds."""
    ordered = sorted(times)
    until: datetime | None = None
    for index, at in enumerate(ordered):
        in_window = sum(1 for earlier in ordered[: index + 1] if at - earlier < WINDOW)
        ban = ban_for(in_window)
        if ban is not None and (until is None or at + ban > until):
            until = at + ban
    return until


def longest_server_streak(turns: Iterable[tuple[int | None, str]], seat: int) -> int:
    """The most turns of ``seat`` in a row that the server played because its
    clock ran out. ``turns`` are the game's moves in order as (seat, by) with
    ``by`` the payload's "by" ("" for the person); a turn is a run of moves of
    one seat, played by the server when all its moves were."""
    best = streak = 0
    current: list[str] | None = None
    previous: int | None = None

    def close(run: list[str] | None) -> None:
        nonlocal best, streak
        if run is None:
            return
        if all(by == "server" for by in run):
            streak += 1
            best = max(best, streak)
        else:
            streak = 0

    for mover, by in turns:
        if mover is None:
            if previous == seat:
                close(current)
            previous, current = None, None
            continue
        if mover != previous:
            if previous == seat:
                close(current)
            current = [] if mover == seat else None
            previous = mover
        if current is not None:
            current.append(by)
    if previous == seat:
        close(current)
    return best
