"""The server -> client frames of the table websocket (docs/protocol.md),
computed per viewer from ``view_for``: a frame never holds a tile that its
viewer may not see. Hands appear only in ``round_over``; a drawn tile only in
the drawer's own ``event``.

``viewer`` is a seat number, or None for a spectator. ``humans`` are the seats
held by people (they may ask for the next round).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from games.engine import Event, EventKind, State, view_for
from games.outcome import ended_at_opening

Frame = dict[str, Any]


def state_frame(seq: int, state: State, viewer: int | None, humans: Collection[int], *, chain: str) -> Frame:
    """The viewer's state after event ``seq``, with ``chain``, the move log's
    head after that event (games.fairplay.move_chain): a player who keeps the frame can
    hold the server to every move up to ``seq``."""
    view = view_for(state, viewer).to_dict()
    legal = list(view["legal"])
    if viewer is not None and state.round_over and not state.game_over and viewer in humans:
        legal.append({"type": "next_round"})
    return {"type": "state", "seq": seq, "view": view, "legal": legal, "chain": chain}


def event_frame(seq: int, kind: str, seat: int | None, payload: Mapping[str, Any], viewer: int | None) -> Frame:
    """The stored move as ``viewer`` sees it (``Event.seen_by``: a drawn tile
    for the drawer only)."""
    event = Event.from_row(kind, seat, payload).seen_by(viewer)
    frame: Frame = {"type": "event", "seq": seq, "seat": seat, "action": kind}
    if event.tile is not None:
        frame["tile"] = list(event.tile)
    if event.end is not None:
        frame["end"] = str(event.end)
    if event.by:
        # Who acted for the seat: "computer", or "server" (e.g. a timeout).
        frame["by"] = event.by
    return frame


def round_over_frame(seq: int, state: State) -> Frame:
    assert state.round_result is not None
    return {
        "type": "round_over",
        "seq": seq,
        "round": state.round,
        "result": state.round_result.to_dict(),
        "hands": [[tile.to_list() for tile in hand] for hand in state.hands],
        "scores": list(state.scores),
    }


def game_over_frame(seq: int, state: State) -> Frame:
    return {
        "type": "game_over",
        "seq": seq,
        "scores": list(state.scores),
        "winner": state.winner,
        "reason": state.end_reason,
        "resigned": state.resigned,
        # Ended before any tile beyond the opening: counts for nothing (games.outcome).
        "aborted": ended_at_opening(state),
    }


def shows_round_over(state: State) -> bool:
    """A finished round whose hands may be shown (not a game ended mid-round
    by resignation or agreement, where the hands stay hidden)."""
    return state.round_over and state.round_result is not None


def move_frames(
    seq: int,
    kind: str,
    seat: int | None,
    payload: Mapping[str, Any],
    state: State,
    viewer: int | None,
    humans: Collection[int],
    *,
    chain: str,
) -> list[Frame]:
    """What a viewer receives for move ``seq``: the event, their new state,
    then ``round_over`` if the move ended the round, ``game_over`` if the game."""
    frames = [event_frame(seq, kind, seat, payload, viewer), state_frame(seq, state, viewer, humans, chain=chain)]
    if EventKind(kind).is_turn and shows_round_over(state):
        frames.append(round_over_frame(seq, state))
    if state.game_over:
        frames.append(game_over_frame(seq, state))
    return frames


def snapshot_frames(
    seq: int, state: State, viewer: int | None, humans: Collection[int], *, chain: str
) -> list[Frame]:
    """What a viewer receives on connect (or a sync that replays nothing):
    the state, and the round / game results if they are showing."""
    frames = [state_frame(seq, state, viewer, humans, chain=chain)]
    if shows_round_over(state):
        frames.append(round_over_frame(seq, state))
    if state.game_over:
        frames.append(game_over_frame(seq, state))
    return frames
