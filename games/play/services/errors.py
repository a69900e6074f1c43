"""Why a game command was refused. Each error has a protocol ``code``
(docs/protocol.md) and changes nothing: the transaction is rolled back."""

from __future__ import annotations

from django.urls import reverse


class GameError(Exception):
    """A refused command; ``code`` is the websocket error code, ``reason`` a detail."""

    code = "illegal"

    def __init__(self, message: str, *, reason: str = "", detail: str = "") -> None:
        super().__init__(f"{message} ({detail})" if detail else message)
        self.message = message
        self.reason = reason or self.code
        self.detail = detail


class StaleSeq(GameError):
    """The client's ``seq`` is not the game's last event number."""

    code = "stale"

    def __init__(self, message: str, *, current: int) -> None:
        super().__init__(message)
        self.current = current


class NotYourTurn(GameError):
    code = "not_your_turn"


class IllegalMove(GameError):
    """The engine refused the action (tile not in hand, pass while a tile fits...)."""

    code = "illegal"


class NotSeated(GameError):
    """The viewer has no seat at this table (a spectator), or the seat is not a person's."""

    code = "not_seated"


class NotAllowed(GameError):
    """The command is not available at this table (e.g. a draw offer to computers)."""

    code = "not_allowed"


class GameNotLive(GameError):
    """The game has not started, is finished or was aborted."""

    code = "illegal"


class SeatRefused(NotAllowed):
    """A seat of a waiting table that cannot be taken, given or freed (the
    table is full, started, not the caller's to change...)."""


class InGame(GameError):
    """One game at a time: the member already holds a seat at another live
    table (games.play.services.seats). ``table_id`` is that table (None when the
    refusal names someone else, whose table is theirs to know)."""

    code = "in_game"

    def __init__(self, message: str, *, user_id: int, table_id: int | None) -> None:
        super().__init__(message, reason="in_game")
        self.user_id = user_id
        self.table_id = table_id

    @property
    def url(self) -> str | None:
        """The address of the table the member is at (the table page)."""
        return None if self.table_id is None else reverse("games:table", args=[self.table_id])


class TooManyTables(GameError):
    """A new table refused by the visitor's table limit (games.play.limits)."""

    code = "rate_limited"
