"""The live games this process has played lately, kept between moves.

A move needs the game's state, its seats and its table; reading and
rebuilding them from the database at every move cost two queries and a
``load_state``. This process keeps them after each move it stores, and the
next move uses them only if they are still the game's truth: the move's
write is conditional on the game row still being at the entry's ``seq``
(and not finished), so an entry made stale by another process (a move
there, an abort) is found out by the write itself, which then changes
nothing, and the entry is dropped. Seats do not change once a game has
started (a guest who signs up keeps their seat and stays a person).

An entry is taken out while a move uses it (two threads never share one)
and put back only after the move's transaction commits. A table socket that
reads a live game to send its state offers it too (``remember``): after a
restart, every player's socket reconnects and reads its game anyway, and the
first moves then find it here instead of reading it a second time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from games.engine import State
from games.models import Game, Table
from games.play import selectors

# Enough for every table a process serves at once; the oldest go first.
MAX_GAMES = 2000


@dataclass
class LiveGame:
    """A game as of move ``game.seq``: the rows (as last written) and the state."""

    game: Game
    table: Table
    state: State
    seats: selectors.SeatInfo

    @property
    def seq(self) -> int:
        return self.game.seq


_games: OrderedDict[int, LiveGame] = OrderedDict()
_lock = threading.Lock()


def take(game_id: int) -> LiveGame | None:
    """The entry of ``game_id``, removed until ``keep`` puts it back."""
    with _lock:
        return _games.pop(game_id, None)


def keep(entry: LiveGame) -> None:
    """Keep ``entry`` (after its move committed), unless a newer one is there."""
    with _lock:
        current = _games.get(entry.game.pk)
        if current is not None and current.seq > entry.seq:
            return
        _games[entry.game.pk] = entry
        _games.move_to_end(entry.game.pk)
        while len(_games) > MAX_GAMES:
            _games.popitem(last=False)


def remember(game: Game, seats: selectors.SeatInfo, state: State | None = None) -> None:
    """Keep ``game`` (just read, with its table) if it is being played and
    newer than what this process has; the write of the next move still
    checks it against the stored ``seq``. ``state``: the game's state if the
    caller has already decoded it."""
    table = game.table
    if game.state is None or game.finished or table.status != Table.Status.PLAYING:
        return
    with _lock:
        current = _games.get(game.pk)
        if current is not None and current.seq >= game.seq:
            return
    if state is None:
        state = selectors.game_state(game)
    if state is not None:
        keep(LiveGame(game, table, state, seats))


def forget(game_id: int) -> None:
    with _lock:
        _games.pop(game_id, None)


def clear() -> None:
    """Forget every game (tests: a rolled-back database may reuse ids)."""
    with _lock:
        _games.clear()
