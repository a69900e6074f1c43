"""Quick reactions at the table: a few predefined messages a player sends to
everyone at the table (``{"type": "react", "id": ...}``, docs/protocol.md).

Only the ids below are accepted (the page translates them: no free text ever
reaches the others); one reaction per seat every ``COOLDOWN_SECONDS``, counted
in the cache so that several tabs of one player share it."""

from __future__ import annotations

from games.live.cache import cache

REACTION_IDS: tuple[str, ...] = ("hello", "good_move", "oops", "thinking", "good_game", "thanks")
COOLDOWN_SECONDS = 3


def valid(reaction: object) -> bool:
    return isinstance(reaction, str) and reaction in REACTION_IDS


def take_turn(table_id: int, seat: int) -> bool:
    """True when ``seat`` may react now (and starts its cooldown)."""
    return bool(cache.add(f"games:react:{table_id}:{seat}", 1, timeout=COOLDOWN_SECONDS))


def reaction_frame(seat: int, reaction: str) -> dict[str, object]:
    return {"type": "reaction", "seat": seat, "id": reaction}
