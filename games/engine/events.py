"""An event of a game's move log: the one type for the six kinds of move.

Plain Python. A game is its seed and its log of events, numbered from 1
(``seq``). An ``Event`` is one of them, whatever its kind (``EventKind``):

- ``play``: ``seat`` lays ``tile`` on ``end`` of the line;
- ``draw``: ``seat`` draws ``tile`` from the boneyard (the drawer's secret
  while the game is live; None when not known);
- ``pass``: ``seat`` passes;
- ``next_round``: the next round is dealt (``seat``: who asked, or None);
- ``agree_draw``: the game ends drawn (``seats``: who offered it; no ``seat``);
- ``resign``: ``seat`` gives up.

A play, a draw and a pass are the seat's turn (``EventKind.is_turn``): their
engine action is ``action()``. Any event may carry ``by``, who acted for the
seat when it was not its person ("computer", or "server" for a timeout), and a
turn ``computer``, how a computer chose it (``{"level", "budget_ms",
"version"}``, ``games.ai.decision_record``).

Its three encodings, which are the formats of the site's stored games and
published files and must not change (stored games and replay files verify
with them):

- the stored row (``from_row`` / ``to_row``): ``kind``, ``seat`` and a
  ``payload`` of ``tile`` and ``end`` (a play), ``tile`` (a draw), ``by``,
  ``computer`` and ``seats`` (an agreed draw), each only when it has one;
- the replay action (``from_json`` / ``to_json``): the engine's action frame
  with its ``seat`` (``games.engine.action_to_json(..., with_seat=True)``)
  for every kind, ``type`` being the kind, plus ``seq``, ``by`` and
  ``computer`` (a replay file lists no ``seats``);
- the public part (``public()``): what every viewer may see, the part that
  the chained move log covers (games.engine.chain): the kind, the seat, a
  play's tile and end and ``by``; never a drawn tile. ``seen_by(viewer)``
  adds the drawn tile for the drawer alone.

A tile is kept as the pair written (``Tile`` orders its numbers; the chain
covers the pair as recorded). ``apply(state)`` is the event's effect on a
state, through the engine's actions (which check it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from .actions import DRAWS, PASSES, PLAYS, Action, Draw, End, Pass, Play
from .game import next_round
from .moves import apply_action
from .state import State, agree_draw, resign
from .tiles import Tile

__all__ = ["TURN_KINDS", "Event", "EventKind"]


class EventKind(StrEnum):
    """The kind of an event; equal to its name in the log ("play", "next_round", ...)."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    NEXT_ROUND = "next_round"
    AGREE_DRAW = "agree_draw"
    RESIGN = "resign"

    @property
    def is_turn(self) -> bool:
        """A play, a draw or a pass: a seat's turn, an engine action."""
        return self in TURN_KINDS


TURN_KINDS = frozenset({EventKind.PLAY, EventKind.DRAW, EventKind.PASS})
_KINDS: dict[str, EventKind] = {str(kind): kind for kind in EventKind}
# The kinds that are always some seat's doing.
_SEATED = TURN_KINDS | {EventKind.RESIGN}


def _kind(value: object) -> EventKind:
    if isinstance(value, str) and value in _KINDS:
        return _KINDS[value]
    raise ValueError(f"unknown action type {value!r}")


def _seat(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ValueError("an action needs a seat from 0 to 3")
    return value


def _pair(value: object, what: str) -> tuple[int, int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 6 for n in value)
    ):
        raise ValueError(f"{what} needs a tile [a, b] with numbers 0 to 6")
    return (value[0], value[1])


@dataclass(frozen=True, slots=True)
class Event:
    """One event of the move log (see the module's docstring). The constructor
    checks and normalises its fields; a bad one raises ValueError."""

    kind: EventKind
    seat: int | None = None
    tile: tuple[int, int] | None = None
    end: End | None = None
    by: str = ""
    computer: Mapping[str, Any] | None = field(default=None, hash=False)
    seats: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        kind = _kind(self.kind)
        object.__setattr__(self, "kind", kind)
        seat = _seat(self.seat)
        if seat is None and kind in _SEATED:
            raise ValueError("an action needs a seat from 0 to 3")
        if kind is EventKind.PLAY:
            object.__setattr__(self, "tile", _pair(self.tile, "a play"))
            if self.end not in ("left", "right"):
                raise ValueError('a play needs an end, "left" or "right"')
            if self.end.__class__ is not End:
                object.__setattr__(self, "end", End(self.end))
        else:
            if self.end is not None:
                raise ValueError(f"a {kind} has no end")
            if self.tile is not None:
                if kind is not EventKind.DRAW:
                    raise ValueError(f"a {kind} has no tile")
                object.__setattr__(self, "tile", _pair(self.tile, "a draw"))
        if self.by is None:
            object.__setattr__(self, "by", "")
        elif not isinstance(self.by, str):
            raise ValueError('"by" names who acted for the seat: a string')
        if self.computer is not None:
            if not isinstance(self.computer, Mapping) or not kind.is_turn:
                raise ValueError("a computer record is an object, on a play, a draw or a pass")
            object.__setattr__(self, "computer", MappingProxyType(dict(self.computer)))
        if self.seats is not None:
            if kind is not EventKind.AGREE_DRAW:
                raise ValueError("only an agreed draw lists the seats that offered it")
            if not isinstance(self.seats, list | tuple):
                raise ValueError("the seats of an agreed draw are a list")
            seats = tuple(self.seats)
            for number in seats:
                if _seat(number) is None:
                    raise ValueError("an action needs a seat from 0 to 3")
            object.__setattr__(self, "seats", seats)

    # -- from and to an engine action ---------------------------------------------------

    @classmethod
    def from_action(
        cls,
        action: Action,
        *,
        drawn: Tile | None = None,
        by: str = "",
        computer: Mapping[str, Any] | None = None,
    ) -> Event:
        """The event of an engine action; ``drawn``: the tile a draw takes (the
        boneyard's first, ``state.boneyard[0]`` before it)."""
        if isinstance(action, Play):
            return cls(EventKind.PLAY, action.seat, (action.tile.low, action.tile.high), action.end, by, computer)
        if isinstance(action, Draw):
            tile = None if drawn is None else (drawn.low, drawn.high)
            return cls(EventKind.DRAW, action.seat, tile, None, by, computer)
        if isinstance(action, Pass):
            return cls(EventKind.PASS, action.seat, None, None, by, computer)
        raise TypeError(f"not an action: {action!r}")

    @property
    def is_turn(self) -> bool:
        """A play, a draw or a pass (``action()`` gives it)."""
        return self.kind in TURN_KINDS

    def action(self) -> Action:
        """The engine action of a play, a draw or a pass."""
        seat, kind = self.seat, self.kind
        if seat is None or kind not in TURN_KINDS:
            raise ValueError(f"a {kind} is not a seat's action")
        if kind is EventKind.PLAY:
            assert self.tile is not None  # the constructor checked it
            return PLAYS[seat][Tile(*self.tile).index][0 if self.end is End.LEFT else 1]
        return DRAWS[seat] if kind is EventKind.DRAW else PASSES[seat]

    def apply(self, state: State) -> State:
        """The state after this event (the engine checks it: IllegalAction)."""
        kind = self.kind
        if kind in TURN_KINDS:
            return apply_action(state, self.action())
        if kind is EventKind.NEXT_ROUND:
            return next_round(state)
        if kind is EventKind.AGREE_DRAW:
            return agree_draw(state)
        assert self.seat is not None  # a resignation: the constructor checked it
        return resign(state, self.seat)

    # -- what a viewer sees -------------------------------------------------------------

    def public(self) -> Event:
        """What every viewer may see (the part the chain covers): no drawn tile,
        no computer record, no list of seats."""
        tile = self.tile if self.kind is EventKind.PLAY else None
        if self.computer is None and self.seats is None and tile == self.tile:
            return self
        return Event(self.kind, self.seat, tile, self.end, self.by)

    def seen_by(self, viewer: int | None) -> Event:
        """What ``viewer`` (a seat, None for a spectator) sees live: the public
        part, and the drawn tile for the drawer."""
        public = self.public()
        if self.kind is EventKind.DRAW and viewer is not None and viewer == self.seat and self.tile is not None:
            return Event(self.kind, self.seat, self.tile, None, self.by)
        return public

    # -- the stored row ------------------------------------------------------------------

    @classmethod
    def from_row(cls, kind: str, seat: int | None, payload: Mapping[str, Any] | None) -> Event:
        """The event of a stored move (``Move.kind``, ``Move.seat``, ``Move.payload``)."""
        payload = payload or {}
        if not isinstance(payload, Mapping):
            raise ValueError("a move's payload is an object")
        return cls._decode(kind, seat, payload, payload.get("seats"))

    def payload(self) -> dict[str, Any]:
        """The stored ``Move.payload``."""
        data: dict[str, Any] = {}
        if self.tile is not None:
            data["tile"] = list(self.tile)
        if self.end is not None:
            data["end"] = str(self.end)
        if self.by:
            data["by"] = self.by
        if self.computer is not None:
            data["computer"] = dict(self.computer)
        if self.seats is not None:
            data["seats"] = list(self.seats)
        return data

    def to_row(self) -> tuple[str, int | None, dict[str, Any]]:
        """(``kind``, ``seat``, ``payload``) of the stored move."""
        return str(self.kind), self.seat, self.payload()

    # -- the replay action ---------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """The event of a replay action (``seq`` and ``chain``, when there, are the
        log's, not the event's; a replay action lists no ``seats``)."""
        if not isinstance(data, Mapping):
            raise ValueError("an action is a JSON object")
        return cls._decode(data.get("type"), data.get("seat"), data, None)

    def to_json(self, *, seq: int | None = None) -> dict[str, Any]:
        """The replay action, with its event number ``seq`` when given (keys in
        the order of the published files)."""
        data: dict[str, Any] = {"type": str(self.kind)}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.tile is not None:
            data["tile"] = list(self.tile)
        if self.end is not None:
            data["end"] = str(self.end)
        if seq is not None:
            data["seq"] = seq
        if self.by:
            data["by"] = self.by
        if self.computer is not None:
            data["computer"] = dict(self.computer)
        return data

    @classmethod
    def _decode(cls, kind: object, seat: object, fields: Mapping[str, Any], seats: Any) -> Event:
        """Only the fields of the event's kind are read (a row or a file may hold others)."""
        event_kind = _kind(kind)
        tile = fields.get("tile") if event_kind in (EventKind.PLAY, EventKind.DRAW) else None
        end = fields.get("end") if event_kind is EventKind.PLAY else None
        computer = fields.get("computer") if event_kind in TURN_KINDS else None
        seat_list = seats if event_kind is EventKind.AGREE_DRAW else None
        return cls(event_kind, _seat(seat), tile, end, fields.get("by") or "", computer, seat_list)
