"""The chained move log of a game: one hash per move covering the one before.

Plain Python. The head after move ``n`` is::

    head_0 = SHA-256("dominoes-chain:" + commitment)            (hex)
    head_n = SHA-256(head_{n-1} + ":" + canonical JSON of move n's public part)

The public part of a move is what every viewer saw live
(``games.engine.events.Event.public``, in its replay JSON): its event number
``seq``, its ``type``, the acting ``seat`` (when there is one), the ``tile``
and ``end`` of a play, and ``by`` (who acted for the seat, when not its
person). A drawn tile is *not* covered: it is hidden from the other players
while the game is live, and a hash over one of 28 tiles would reveal it to
anyone who tries them all. (The verifier checks each drawn tile against the
deal instead.) Canonical JSON: keys sorted, no spaces, UTF-8.

The site shows the head in every ``state`` frame and writes every move's hash
into the final ``replay.json``; the verifier recomputes them, so a player who
kept any live frame can prove what was played up to it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .events import Event

__all__ = [
    "CHAIN_PREFIX",
    "canonical_json",
    "chain_actions",
    "chain_entry",
    "chain_genesis",
    "chain_link",
    "event_entry",
    "event_link",
]

CHAIN_PREFIX = "dominoes-chain:"


def canonical_json(value: Any) -> bytes:
    """The one byte string of a JSON value: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def chain_genesis(commitment: str) -> str:
    """The head before the first move: it ties the chain to the game's deal."""
    return hashlib.sha256(f"{CHAIN_PREFIX}{commitment}".encode()).hexdigest()


def event_entry(seq: int, event: Event) -> dict[str, Any]:
    """What the chain covers of event ``seq``: its public part, with ``seq``."""
    return event.public().to_json(seq=seq)


def event_link(previous: str, seq: int, event: Event) -> str:
    """The head after event ``seq``, given the head before it."""
    return hashlib.sha256(previous.encode() + b":" + canonical_json(event_entry(seq, event))).hexdigest()


def chain_entry(move: Mapping[str, Any]) -> dict[str, Any]:
    """``event_entry`` of a move given as a replay action (``Event.from_json``)
    with its ``seq``. Raises KeyError without a ``seq``, ValueError for a
    malformed action."""
    return event_entry(move["seq"], Event.from_json(move))


def chain_link(previous: str, move: Mapping[str, Any]) -> str:
    """The head after ``move`` (see ``chain_entry``), given the head before it."""
    return event_link(previous, move["seq"], Event.from_json(move))


def chain_actions(commitment: str, actions: list[dict[str, Any]]) -> str:
    """Number (``seq``) and chain (``chain``) a list of actions in place, from
    the genesis of ``commitment``; returns the head. For tools and tests: the
    site itself publishes the hashes it stored as the game went."""
    head = chain_genesis(commitment)
    for seq, action in enumerate(actions, start=1):
        action["seq"] = seq
        head = chain_link(head, action)
        action["chain"] = head
    return head
