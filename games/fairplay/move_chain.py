"""The chained move log (games.engine.chain), from the stored moves.

``move_link`` is the one place the site computes a move's hash: the move
service (games.play.services.moves) calls it for each new ``Move`` with the head
stored on the game, and stores the result on both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import Event
from games.engine.chain import chain_genesis, event_link
from games.models import Game


def genesis(commitment: str) -> str:
    return chain_genesis(commitment)


def move_link(previous: str, *, seq: int, kind: str, seat: int | None, payload: Mapping[str, Any]) -> str:
    """The head after move ``seq`` (``kind`` by ``seat`` with its stored
    ``payload``), given ``previous``, the head before it."""
    return event_link(previous, seq, Event.from_row(kind, seat, payload))


def head(game: Game) -> str:
    """The head after the game's last move (``Game.chain``), or its genesis."""
    return str(game.chain) or genesis(game.commitment)
