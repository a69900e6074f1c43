"""``dump_state`` / ``load_state``: an exact JSON round trip of a State.

The server may cache a state as JSON; the source of truth stays the seed and
the list of actions (``replay``).
"""

from __future__ import annotations

from typing import Any

from .deal import check_seed
from .records import RoundResult
from .rules import Rules
from .state import DRAW, PASS, PLAY, LogNode, State, log_nodes, make_state
from .tiles import TILES, Tile, indices_of

__all__ = ["dump_state", "load_state"]

FORMAT = 1
_KINDS = {"play": PLAY, "draw": DRAW, "pass": PASS}
_KIND_NAMES = {code: name for name, code in _KINDS.items()}


def _tile_list(index: int) -> list[int]:
    return TILES[index].to_list()


def dump_state(state: State) -> dict[str, Any]:
    """A JSON-serialisable dict holding everything in ``state`` (hands included)."""
    return {
        "format": FORMAT,
        "rules": state.rules.to_dict(),
        "seed": state.seed,
        "round": state.round,
        "hands": [[_tile_list(i) for i in indices_of(bits)] for bits in state.hand_bits],
        "pile": [_tile_list(i) for i in state.pile],
        "drawn": state.drawn,
        "ends": None if state.left_end < 0 else [state.left_end, state.right_end],
        "table": [_tile_list(i) for i in indices_of(state.table_bits)],
        "log": [
            [seat, _KIND_NAMES[kind], None if index < 0 else _tile_list(index), end, left, right]
            for seat, kind, index, end, left, right, _ in log_nodes(state.log)
        ],
        "to_move": state.to_move,
        "opener": state.opener,
        "scores": list(state.scores),
        "round_result": None if state.round_result is None else state.round_result.to_dict(),
        "round_over": state.round_over,
        "game_over": state.game_over,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "resigned": state.resigned,
    }


def _index(pair: list[int]) -> int:
    return Tile(pair[0], pair[1]).index


def _bits(pairs: list[list[int]]) -> int:
    bits = 0
    for pair in pairs:
        bits |= 1 << _index(pair)
    return bits


def load_state(data: dict[str, Any]) -> State:
    """The State that ``dump_state`` produced ``data`` from (equal to it)."""
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown state format {data.get('format')!r}")
    log: LogNode | None = None
    for seat, kind, tile, end, left, right in data["log"]:
        log = (seat, _KINDS[kind], -1 if tile is None else _index(tile), end, left, right, log)
    ends = data["ends"]
    result = data["round_result"]
    return make_state(
        Rules.from_dict(data["rules"]),
        check_seed(data["seed"]),
        data["round"],
        tuple(_bits(hand) for hand in data["hands"]),
        tuple(_index(pair) for pair in data["pile"]),
        data["drawn"],
        -1 if ends is None else ends[0],
        -1 if ends is None else ends[1],
        _bits(data["table"]),
        log,
        data["to_move"],
        data["opener"],
        tuple(data["scores"]),
        None if result is None else RoundResult.from_dict(result),
        data["round_over"],
        data["game_over"],
        data["winner"],
        data["end_reason"],
        data["resigned"],
    )
