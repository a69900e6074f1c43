"""The relay consumer: seq check, then ``group_send`` of prebuilt frames."""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from bench.relay_app.frames import round_templates

PLAYERS = 4
MOVES, OPENING = round_templates(PLAYERS)
# table id -> seq of its last move. One relay process holds the truth.
SEQS: dict[int, int] = {}
MOVE_TYPES = frozenset({"play", "draw", "pass", "next_round"})
# The table object the site's consumer merges into every state frame (a real
# one, taken from a 4-guest table of the site), so that frames weigh the same.
TABLE = {
    "id": 1, "kind": "private", "ranked": False, "mode": "", "public": True, "preset": "classic-draw",
    "commitment": "9172b1822c6798c00503d24255013015c63af212f0e415abac0f345c13bbff5f",
    "players": [
        {"seat": seat, "name": "Guest", "kind": "human", "level": None, "member": None} for seat in range(PLAYERS)
    ],
    "spectators": 0, "status": "playing", "draw_offers": [],
    "clock": {
        "seat": 2, "deadline": "2026-11-29T17:03:46.978898+00:00", "deadline_ms": 1795971826978,
        "turn_seconds": 30, "grace_deadline_ms": 1795971856978, "away": [], "claimable": False,
    },
}  # fmt: skip


def _group(table_id: int, viewer: int | None) -> str:
    return f"table.{table_id}.public" if viewer is None else f"table.{table_id}.seat.{viewer}"


def _frames(seq: int, viewer: int | None) -> list[dict]:
    if seq == 0:
        return OPENING[viewer]
    return [dict(frame, seq=seq) for frame in MOVES[(seq - 1) % len(MOVES)][viewer]]


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        seat = query.get("seat", [""])[0]
        self.viewer = int(seat) if seat.isdigit() else None
        self.group = _group(self.table_id, self.viewer)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_state(SEQS.get(self.table_id, 0))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def _send_state(self, seq: int) -> None:
        frames = _frames(seq, self.viewer)
        state = next(frame for frame in frames if frame["type"] == "state")
        await self.send(text_data=json.dumps({**state, "table": TABLE}))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            frame = json.loads(text_data or "")
            kind = frame["type"]
        except (ValueError, KeyError, TypeError):
            await self.send(text_data=json.dumps({"type": "error", "code": "bad_frame", "message": ""}))
            return
        seq = SEQS.get(self.table_id, 0)
        if kind == "sync":
            await self._send_state(seq)
            return
        if kind not in MOVE_TYPES:
            return
        if frame.get("seq", seq) != seq:
            await self.send(text_data=json.dumps({"type": "error", "code": "stale", "message": ""}))
            return
        seq += 1
        SEQS[self.table_id] = seq
        for viewer in [None, *range(PLAYERS)]:
            await self.channel_layer.group_send(
                _group(self.table_id, viewer),
                {
                    "type": "table.frames",
                    "seq": seq,
                    "frames": _frames(seq, viewer),
                    "table": {"status": "playing"},
                },
            )

    async def table_frames(self, message: dict) -> None:
        for frame in message["frames"]:
            if frame["type"] == "state":
                frame = {**frame, "table": TABLE}
            await self.send(text_data=json.dumps(frame))
