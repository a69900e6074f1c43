"""The only code that writes games (docs/architecture.md). Other apps call these:

- ``create_table(*, kind, rules, preset, seats, public, created_by=None, mode="", start=True)``
  with ``SeatSpec(user=..., guest_key=..., level=..., name=...)`` per seat;
- ``create_computer_table(...)``, ``start_game(*, table)``;
- ``play_move(*, game_id, seat, action, expected_seq, by="")``,
  ``start_next_round(*, game_id, seat, expected_seq=None)``,
  ``resign(*, game_id, seat)``, ``offer_draw(*, game_id, seat)``,
  ``abort_game(*, game_id, reason)``, ``offer_rematch(*, table_id, seat)``;
- ``decide_computer_turn(*, game_id, seq)`` / ``apply_computer_turn(decision)``
  (the Celery tasks' bodies; ``apply_computer_turn_later(decision)`` once the
  pause is over, in-process), ``take_computer_turn(*, game_id, seq)`` (both at once).
- ``waiting``: the waiting tables every app seats people through
  (``waiting.open_table``, ``take_seat``, ``seat_computer``, ``free_seat``,
  ``leave_seat``, ``close_table``), and the rule of one game at a time
  (``seats``; a refusal is ``InGame``, with the address of the member's table).

Refusals raise ``GameError`` subclasses (``.code`` is the protocol's error code).
"""

from games.ai import LEVELS
from games.fairplay.fairness import new_seed
from games.play.services import seats, waiting
from games.play.services.computer import (
    ComputerDecision,
    apply_computer_turn,
    apply_computer_turn_later,
    decide_computer_turn,
    take_computer_turn,
)
from games.play.services.errors import (
    GameError,
    GameNotLive,
    IllegalMove,
    InGame,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    SeatRefused,
    StaleSeq,
    TooManyTables,
)
from games.play.services.moves import (
    DrawOffer,
    Outcome,
    abort_game,
    finish_game,
    offer_draw,
    play_move,
    playing_state,
    resign,
    start_next_round,
)
from games.play.services.rematch import Rematch, offer_rematch, rematch_state
from games.play.services.tables import (
    GUEST_KEY_SESSION,
    SeatSpec,
    adopt_guest_seats,
    create_computer_table,
    create_table,
    set_turn_percent,
    start_game,
    unseal,
)

__all__ = [
    "GUEST_KEY_SESSION",
    "LEVELS",
    "ComputerDecision",
    "DrawOffer",
    "GameError",
    "GameNotLive",
    "IllegalMove",
    "InGame",
    "NotAllowed",
    "NotSeated",
    "NotYourTurn",
    "Outcome",
    "Rematch",
    "SeatRefused",
    "SeatSpec",
    "StaleSeq",
    "TooManyTables",
    "abort_game",
    "adopt_guest_seats",
    "apply_computer_turn",
    "apply_computer_turn_later",
    "create_computer_table",
    "create_table",
    "decide_computer_turn",
    "finish_game",
    "new_seed",
    "offer_draw",
    "offer_rematch",
    "play_move",
    "playing_state",
    "rematch_state",
    "resign",
    "seats",
    "set_turn_percent",
    "start_game",
    "start_next_round",
    "take_computer_turn",
    "unseal",
    "waiting",
]
