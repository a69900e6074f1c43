"""Small builders for hand-built positions."""

from __future__ import annotations

from collections.abc import Iterable

from games.engine import Action, State, Tile, apply_action, legal_actions


def t(spec: str) -> Tile:
    """``t("6-3")`` -> Tile(3, 6)."""
    a, b = spec.split("-")
    return Tile(int(a), int(b))


def ts(specs: str) -> list[Tile]:
    """``ts("6-6 5-4 0-0")`` -> a list of tiles."""
    return [t(spec) for spec in specs.split()]


def play_all(state: State, actions: Iterable[Action]) -> State:
    for action in actions:
        assert action in legal_actions(state), (action, legal_actions(state))
        state = apply_action(state, action)
    return state
