"""What one seat (or a spectator) may know: ``view_for`` and ``PlayerView``.

A view holds the seat's own hand only; of the others, counts. The history
hides other seats' drawn tiles. Hands are never revealed by a view, not even
after the round: the server reveals them itself (``State.hands``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action, action_from_json, action_to_json
from .moves import legal_actions
from .records import HistoryEntry, RoundResult
from .rules import Rules
from .state import State, history_for, line_of
from .tiles import Tile, tiles_of

__all__ = ["PlayerView", "view_for"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of the game (``seat`` None = a spectator).

    ``hand``: own tiles (empty for spectators); ``line``: (a, b) pairs as laid,
    left to right; ``ends``: (left, right) or None; ``hand_counts`` by seat;
    ``boneyard_count`` (0 in the block game); ``undealt_count`` (tiles out of
    play, set aside in the block game); ``history``: this round's actions;
    ``legal``: this seat's legal actions (empty when not its turn).
    """

    seat: int | None
    hand: tuple[Tile, ...]
    line: tuple[tuple[int, int], ...]
    ends: tuple[int, int] | None
    hand_counts: tuple[int, ...]
    boneyard_count: int
    undealt_count: int
    to_move: int | None
    scores: tuple[int, ...]
    round: int
    history: tuple[HistoryEntry, ...]
    rules: Rules
    round_over: bool
    game_over: bool
    opener: int
    legal: tuple[Action, ...]
    round_result: RoundResult | None
    winner: int | None
    end_reason: str | None = None
    resigned: int | None = None

    @property
    def players(self) -> int:
        return self.rules.players

    def to_dict(self) -> dict[str, Any]:
        """The JSON view (INTERFACES section 7): tiles as [a, b] lists."""
        return {
            "seat": self.seat,
            "hand": [tile.to_list() for tile in self.hand],
            "line": [list(pair) for pair in self.line],
            "ends": None if self.ends is None else list(self.ends),
            "hand_counts": list(self.hand_counts),
            "boneyard_count": self.boneyard_count,
            "undealt_count": self.undealt_count,
            "to_move": self.to_move,
            "scores": list(self.scores),
            "round": self.round,
            "history": [entry.to_dict() for entry in self.history],
            "rules": self.rules.to_dict(),
            "round_over": self.round_over,
            "game_over": self.game_over,
            "opener": self.opener,
            "legal": [action_to_json(action) for action in self.legal],
            "round_result": None if self.round_result is None else self.round_result.to_dict(),
            "winner": self.winner,
            "end_reason": self.end_reason,
            "resigned": self.resigned,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerView:
        """Rebuild a view from ``to_dict`` output (e.g. after JSON)."""
        seat = data["seat"]
        ends = data["ends"]
        result = data["round_result"]
        legal_seat = data["to_move"]
        return cls(
            seat=seat,
            hand=tuple(Tile(a, b) for a, b in data["hand"]),
            line=tuple((a, b) for a, b in data["line"]),
            ends=None if ends is None else (ends[0], ends[1]),
            hand_counts=tuple(data["hand_counts"]),
            boneyard_count=data["boneyard_count"],
            undealt_count=data["undealt_count"],
            to_move=data["to_move"],
            scores=tuple(data["scores"]),
            round=data["round"],
            history=tuple(HistoryEntry.from_dict(entry) for entry in data["history"]),
            rules=Rules.from_dict(data["rules"]),
            round_over=data["round_over"],
            game_over=data["game_over"],
            opener=data["opener"],
            legal=tuple(action_from_json(frame, legal_seat) for frame in data["legal"]),
            round_result=None if result is None else RoundResult.from_dict(result),
            winner=data["winner"],
            end_reason=data.get("end_reason"),
            resigned=data.get("resigned"),
        )


def view_for(state: State, seat: int | None) -> PlayerView:
    """``seat``'s view of ``state`` (None: a spectator's). Never shows another seat's tile."""
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.rules.players
    ):
        raise ValueError(f"no seat {seat!r} at this table")
    return PlayerView(
        seat=seat,
        hand=() if seat is None else tiles_of(state.hand_bits[seat]),
        line=line_of(state.log),
        ends=state.ends,
        hand_counts=state.hand_counts,
        boneyard_count=state.boneyard_count,
        undealt_count=state.undealt_count,
        to_move=state.to_move,
        scores=state.scores,
        round=state.round,
        history=history_for(state.log, seat),
        rules=state.rules,
        round_over=state.round_over,
        game_over=state.game_over,
        opener=state.opener,
        legal=legal_actions(state) if seat is not None and seat == state.to_move else (),
        round_result=state.round_result,
        winner=state.winner,
        end_reason=state.end_reason,
        resigned=state.resigned,
    )
