"""The engine's one exception."""

from __future__ import annotations

__all__ = ["IllegalAction"]


class IllegalAction(ValueError):
    """An action (or game command) that the rules do not allow here.

    ``reason`` says why in plain English; ``code`` is one of
    ``"not_your_turn"``, ``"round_over"``, ``"game_over"``, ``"illegal"``;
    ``index`` is the position of the bad action in a replayed list (else None).
    """

    def __init__(self, reason: str, *, code: str = "illegal", index: int | None = None) -> None:
        self.reason = reason
        self.code = code
        self.index = index
        super().__init__(reason if index is None else f"action {index}: {reason}")
