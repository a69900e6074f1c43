"""Frames of the relay: the site's own frames for one real round, built once.

A seeded playout of one 4-seat round of the bench's rules gives, for every
move k and every viewer (each seat and the spectators), the frames the site
sends for that move (``games.live.frames.move_frames``): same keys, same size, the
history growing through the round. The relay sends template ``seq % len`` with
``seq`` patched in, so its frames are the site's frames byte for byte, give or
take the digits of ``seq``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.engine import Draw, Event, apply_action, legal_actions, new_game, rules_for
from games.engine.chain import chain_genesis, event_link
from games.live.frames import move_frames, snapshot_frames

Frames = list[dict[str, Any]]


def bench_rules(players: int = 4):
    """The rules of every bench table: the classic draw game that never ends
    (rounds follow rounds until the run stops)."""
    return replace(rules_for("classic-draw", players=players), target=1_000_000)


def round_templates(players: int = 4, seed: int = 7) -> tuple[list[dict[Any, Frames]], dict[Any, Frames]]:
    """Per move of one round (before it ends): {viewer: frames}; and the
    frames each viewer gets on connect. Viewer None is the spectators."""
    rng = random.Random(seed)
    humans = frozenset(range(players))
    viewers: list[int | None] = [None, *range(players)]
    state = new_game(bench_rules(players), str(seed))
    head = chain_genesis(str(seed))
    opening = {viewer: snapshot_frames(0, state, viewer, humans, chain=head) for viewer in viewers}
    moves: list[dict[Any, Frames]] = []
    while True:
        action = rng.choice(legal_actions(state))
        after = apply_action(state, action)
        if after.round_over:
            break
        # The move as the site stores it (games.play.services.moves).
        event = Event.from_action(action, drawn=state.boneyard[0] if isinstance(action, Draw) else None)
        kind, _seat, payload = event.to_row()
        seq = len(moves) + 1
        head = event_link(head, seq, event)
        moves.append(
            {
                viewer: move_frames(seq, kind, action.seat, payload, after, viewer, humans, chain=head)
                for viewer in viewers
            }
        )
        state = after
    return moves, opening
