"""The API load generator of bench/api_load.py, run in its own process (as
bench/load_client.py is for the websocket), on asyncio with h11 (HTTP/1.1,
keep-alive): one process holds every seat, so that the client's cost is
not the server's, and one thread's GIL does not queue 400 seats.

It reads a JSON spec on stdin, plays every seat through the API at computer
speed (its game stream ``/api/bot/game/stream/<id>`` on one connection, its
moves ``POST /api/bot/game/<id>/move/<token>?seq=n`` on another, the first
legal move as soon as a line offers one) and prints ``{"window": "start"}``
and ``{"window": "end"}`` around the measured window, then one JSON object
of results.

Latency: from the moment a move is posted to the moment its line arrives on
the opponent's stream.

spec = {"url": "http://host:port", "duration": s, "warmup": s,
        "games": [{"game": table id, "tokens": [seat 0's, seat 1's]}, ...]}
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

import h11


class Connection:
    """One HTTP/1.1 connection (h11 over asyncio streams), kept alive."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.h11 = h11.Connection(h11.CLIENT)

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.h11 = h11.Connection(h11.CLIENT)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, target: str, token: str) -> h11.Response:
        if self.writer is None or self.h11.our_state is not h11.IDLE:
            self.close()
            await self.open()
        assert self.writer is not None
        headers = [("Host", f"{self.host}:{self.port}"), ("Authorization", f"Bearer {token}"), ("Content-Length", "0")]
        self.writer.write(self.h11.send(h11.Request(method=method, target=target, headers=headers)))
        self.writer.write(self.h11.send(h11.EndOfMessage()))
        await self.writer.drain()
        event = await self.next_event()
        if not isinstance(event, h11.Response):
            raise ConnectionError(f"no answer: {event!r}")
        return event

    async def next_event(self) -> Any:
        assert self.reader is not None
        while True:
            event = self.h11.next_event()
            if event is not h11.NEED_DATA:
                return event
            data = await self.reader.read(65536)
            self.h11.receive_data(data)  # b"" at the end of the connection: ConnectionClosed next

    async def body(self) -> bytes:
        chunks = []
        while True:
            event = await self.next_event()
            if isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                break
            else:
                raise ConnectionError(f"the body ended with {event!r}")
        if self.h11.our_state is h11.DONE and self.h11.their_state is h11.DONE:
            self.h11.start_next_cycle()
        return b"".join(chunks)


class Load:
    def __init__(self, spec: dict[str, Any]) -> None:
        parts = urlsplit(spec["url"])
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.games = spec["games"]
        self.duration, self.warmup = float(spec["duration"]), float(spec["warmup"])
        self.sent: dict[tuple[int, int], tuple[float, int]] = {}
        self.seen: dict[tuple[int, int, int], float] = {}
        self.errors: Counter[str] = Counter()
        self.stop_at = float("inf")

    async def post(self, conn: Connection, target: str, token: str) -> tuple[int, dict[str, Any]]:
        try:
            answer = await conn.request("POST", target, token)
            body = await conn.body()
        except (OSError, h11.ProtocolError, ConnectionError):
            conn.close()  # opened again by the next request
            raise
        return answer.status_code, json.loads(body or b"{}")

    async def seat(self, game: int, seat: int, token: str) -> None:
        stream, moves = Connection(self.host, self.port), Connection(self.host, self.port)
        seq: int | None = None
        while time.monotonic() < self.stop_at:
            target = f"/api/bot/game/stream/{game}" + ("" if seq is None else f"?seq={seq}")
            try:
                answer = await stream.request("GET", target, token)
                if answer.status_code != 200:
                    self.errors[f"stream {answer.status_code}"] += 1
                    await stream.body()
                    await asyncio.sleep(1)
                    continue
                buffer = b""
                while time.monotonic() < self.stop_at:
                    event = await stream.next_event()
                    if not isinstance(event, h11.Data):
                        break  # the stream ended: open it again from the last seq
                    now = time.monotonic()
                    buffer += bytes(event.data)
                    *complete, buffer = buffer.split(b"\n")
                    for raw in complete:
                        if not raw.strip():
                            continue  # keep-alive
                        line = json.loads(raw)
                        seq = line.get("seq", seq)
                        if seq is not None:
                            self.seen[(game, seat, seq)] = now
                        if line.get("legal"):
                            sent = time.monotonic()
                            status, body = await self.post(
                                moves, f"/api/bot/game/{game}/move/{line['legal'][0]}?seq={seq}", token
                            )
                            if status == 200:
                                self.sent[(game, body["seq"])] = (sent, seat)
                            else:
                                self.errors[str(body.get("code", status))] += 1
                        elif line.get("nextRound"):
                            await self.post(moves, f"/api/bot/game/{game}/next-round?seq={seq}", token)
            except (OSError, h11.ProtocolError, ConnectionError) as error:
                self.errors[type(error).__name__] += 1
            stream.close()
        stream.close()
        moves.close()

    async def run(self) -> dict[str, Any]:
        self.stop_at = time.monotonic() + self.warmup + self.duration
        tasks = [
            asyncio.create_task(self.seat(entry["game"], seat, token))
            for entry in self.games
            for seat, token in enumerate(entry["tokens"])
        ]
        await asyncio.sleep(self.warmup)
        start = time.monotonic()
        print(json.dumps({"window": "start"}), flush=True)
        await asyncio.sleep(self.duration)
        end = time.monotonic()
        print(json.dumps({"window": "end"}), flush=True)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        window = {key: value for key, value in self.sent.items() if start <= value[0] < end}
        latencies = sorted(
            self.seen[(game, 1 - mover, seq)] - sent
            for (game, seq), (sent, mover) in window.items()
            if (game, 1 - mover, seq) in self.seen
        )

        def pct(p: float) -> float | None:
            return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000, 2) if latencies else None

        return {
            "moves": len(window),
            "moves_per_s": round(len(window) / self.duration, 1),
            "latency_samples": len(latencies),
            "p50_ms": pct(0.5),
            "p99_ms": pct(0.99),
            "max_ms": round(latencies[-1] * 1000, 2) if latencies else None,
            "errors": dict(self.errors),
        }


def main() -> int:
    spec = json.loads(sys.stdin.read())
    try:
        import uvloop  # type: ignore[import-not-found]

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(Load(spec).run())
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
