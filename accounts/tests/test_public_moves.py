"""A member's exported games list each move as every viewer of the table saw it
(``accounts.selectors._public_move``, decoded by ``games.engine.Event``): the kind,
the seat, a play's tile and end, who acted for the seat; never a drawn tile nor a
computer's record. Checked on the stored games of games/tests/data, which hold every
kind of move."""

from __future__ import annotations

import json
from pathlib import Path

from accounts.selectors import _public_move

STORED = json.loads(
    (Path(__file__).resolve().parents[2] / "games" / "tests" / "data" / "stored_games.json").read_text(encoding="utf-8")
)
MOVES = [move for name in sorted(STORED) for move in STORED[name]["moves"]]


def test_each_move_is_exported_as_every_viewer_saw_it() -> None:
    for seq, seat, kind, payload, _head in MOVES:
        row = {"seq": seq, "kind": kind, "seat": seat, "payload": payload, "created_at": "at"}
        expected: dict[str, object] = {"seq": seq, "kind": kind, "seat": seat, "at": "at"}
        if kind == "play":
            expected.update(tile=payload["tile"], end=payload["end"])
        if payload.get("by"):
            expected["by"] = payload["by"]
        # The same keys in the same order: the exported file's bytes.
        assert json.dumps(_public_move(row)) == json.dumps(expected), row
    assert any(kind == "draw" and "tile" in payload for _seq, _seat, kind, payload, _head in MOVES)
