"""Dominoes rules engine: plain Python, standard library only.

See docs/rules-engine.md for the model, the options and the rule choices.
"""

from .actions import (
    Action,
    Draw,
    End,
    Pass,
    Play,
    action_from_json,
    action_to_json,
    actions_from_json,
    actions_to_json,
)
from .deal import Seed, commit_seed, computer_seed, salted_seed, table_commitment
from .errors import IllegalAction
from .events import TURN_KINDS, Event, EventKind
from .game import new_game, next_round, replay
from .moves import apply_action, legal_actions
from .records import HistoryEntry, RoundResult
from .rules import PRESET_OPTIONS, PRESETS, PresetOptions, Rules, rules_for
from .serial import dump_state, load_state
from .state import State, agree_draw, resign
from .tiles import TILES, Tile
from .views import PlayerView, view_for

__all__ = [
    "PRESETS",
    "PRESET_OPTIONS",
    "TILES",
    "TURN_KINDS",
    "Action",
    "Draw",
    "End",
    "Event",
    "EventKind",
    "HistoryEntry",
    "IllegalAction",
    "Pass",
    "Play",
    "PlayerView",
    "PresetOptions",
    "RoundResult",
    "Rules",
    "Seed",
    "State",
    "Tile",
    "action_from_json",
    "action_to_json",
    "actions_from_json",
    "actions_to_json",
    "agree_draw",
    "apply_action",
    "commit_seed",
    "computer_seed",
    "dump_state",
    "legal_actions",
    "load_state",
    "new_game",
    "next_round",
    "replay",
    "resign",
    "rules_for",
    "salted_seed",
    "table_commitment",
    "view_for",
]
