"""The websocket load generator of bench/ws_load.py, run in its own process.

It reads a JSON spec on stdin, plays every seat it is given over real
websockets (the table protocol, docs/protocol.md) and prints one JSON
object of results on stdout. Every seat is a computer-speed person: when its
``state`` frame offers legal actions it sends one at once ("saturate"), or when
its table's next move is due ("paced": one move per table every ``period``
seconds); "hold" only holds the sockets open with heartbeats.

Latency is move-to-broadcast: from the moment a seat sends a move to the
moment each socket of the table (the mover's included) receives its
``event`` frame. Uses uvloop when it is installed.

spec = {"mode": "saturate"|"paced"|"hold", "duration": s, "warmup": s,
        "period": s, "ping_interval": s, "connect_concurrency": n,
        "connect_timeout": s, "seed": n, "client_gc": "off"|"on",
        "seats": [{"url": "ws://...", "origin": "http://...", "cookie": "...",
                   "table": id, "seat": n}, ...]}
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

MOVE_ACTIONS = frozenset({"play", "draw", "pass"})


@dataclass
class Table:
    id: int
    # seq a move was sent at -> when (its event is seq + 1); pruned as events come
    sent: dict[int, float] = field(default_factory=dict)
    pending: set[int] = field(default_factory=set)  # sent in the window, event not seen yet
    next_due: float = 0.0
    sockets: list[Seat] = field(default_factory=list)
    humans: set[int] = field(default_factory=set)  # the seats played from here


@dataclass
class Seat:
    table: Table
    number: int
    url: str
    origin: str
    cookie: str
    ws: ClientConnection | None = None
    acted_at_seq: int = -1
    seq: int = -1
    open: bool = False
    last_event_at: float = 0.0
    waiting_state: dict[str, Any] | None = None
    last_sent: tuple[dict[str, Any], int] | None = None


class CollectorWatch:
    """Every garbage collection of this process: (wall clock at its start, ms, generation).

    The load generator's own pauses delay the frames it timestamps, so a
    pause here reads as a slow server: they are reported beside the
    latencies (``client_gc``) and written into the trace.
    """

    def __init__(self) -> None:
        self.collections: list[tuple[float, float, int]] = []
        self._started = 0.0
        self._started_wall = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started, self._started_wall = time.perf_counter(), time.time()
        else:
            ms = (time.perf_counter() - self._started) * 1000
            self.collections.append((self._started_wall, round(ms, 2), info["generation"]))

    def stop(self) -> None:
        gc.callbacks.remove(self._callback)

    def report(self, window_wall: tuple[float, float]) -> dict[str, Any]:
        inside = [ms for wall, ms, _gen in self.collections if window_wall[0] <= wall <= window_wall[1]]
        return {
            "collections": [sum(1 for *_rest, gen in self.collections if gen == g) for g in range(3)],
            "max_ms": max((ms for _wall, ms, _gen in self.collections), default=0.0),
            "in_window": len(inside),
            "max_in_window_ms": max(inside, default=0.0),
        }


class Run:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.mode = spec.get("mode", "saturate")
        self.period = float(spec.get("period", 2.0))
        self.rng = random.Random(spec.get("seed", 1))
        self.tables: dict[int, Table] = {}
        self.seats: list[Seat] = []
        for entry in spec["seats"]:
            table = self.tables.setdefault(entry["table"], Table(entry["table"]))
            seat = Seat(table, entry["seat"], entry["url"], entry["origin"], entry.get("cookie", ""))
            table.sockets.append(seat)
            table.humans.add(seat.number)
            self.seats.append(seat)
        self.latencies: list[float] = []
        # (wall clock of the move's send, its latency in ms, table) of every sample, if asked
        self.trace: list[tuple[float, float, int]] | None = [] if spec.get("trace") else None
        self.computer_latencies: list[float] = []
        # [table, seq, wall clock of the previous event, of this computer event]
        self.computer_events: list[list[float]] = []
        self.sent = 0  # moves sent inside the window
        self.sending = True
        self.moving = False
        self.moves = 0  # events seen by each table's first socket inside the window
        self.errors: Counter[str] = Counter()
        self.closes: Counter[str] = Counter()
        self.frames = 0
        self.frame_bytes = 0
        self.connect_failures: Counter[str] = Counter()  # every failed attempt
        self.connect_retries = 0
        self.connected = 0
        self.game_overs = 0
        self.pings = 0
        self.pongs = 0
        self.window = (float("inf"), float("inf"))
        self.window_wall = (float("inf"), float("inf"))
        self.tasks: list[asyncio.Task] = []
        self.collector = CollectorWatch()

    def in_window(self, now: float) -> bool:
        return self.window[0] <= now < self.window[1]

    async def open_seat(self, seat: Seat, gate: asyncio.Semaphore) -> None:
        """Connect like the table page: on failure, retry with a jittered
        exponential backoff (up to ``connect_attempts`` tries)."""
        headers = {"Cookie": seat.cookie} if seat.cookie else {}
        ping = self.spec.get("ping_interval", 20)
        attempts = int(self.spec.get("connect_attempts", 5))
        for attempt in range(attempts):
            async with gate:
                try:
                    seat.ws = await connect(
                        seat.url,
                        origin=seat.origin,
                        additional_headers=headers,
                        ping_interval=ping,
                        ping_timeout=ping,
                        open_timeout=self.spec.get("connect_timeout", 30),
                        close_timeout=2,
                        compression=None,
                        max_size=2**22,
                    )
                    break
                except Exception as error:
                    self.connect_failures[type(error).__name__] += 1
            if attempt == attempts - 1:
                return
            self.connect_retries += 1
            await asyncio.sleep(min(10.0, 0.5 * 2**attempt) * (0.75 + self.rng.random() / 2))
        seat.open = True
        self.connected += 1
        self.tasks.append(asyncio.create_task(self.read(seat)))
        if self.spec.get("app_ping_interval"):
            self.tasks.append(
                asyncio.create_task(self.heartbeat(seat, float(self.spec["app_ping_interval"])))
            )

    async def heartbeat(self, seat: Seat, every: float) -> None:
        """The protocol's own heartbeat: {"type": "ping"} -> {"type": "pong"}."""
        await asyncio.sleep(every * self.rng.random())
        while seat.open and seat.ws is not None:
            try:
                await seat.ws.send('{"type": "ping"}')
            except ConnectionClosed:
                return
            self.pings += 1
            await asyncio.sleep(every)

    async def read(self, seat: Seat) -> None:
        assert seat.ws is not None
        first = seat.table.sockets[0] is seat
        try:
            async for message in seat.ws:
                now = time.perf_counter()
                self.frames += 1
                self.frame_bytes += len(message)
                frame = json.loads(message)
                kind = frame.get("type")
                if kind == "event":
                    table = seat.table
                    seq = frame["seq"]
                    sent_at = table.sent.get(seq - 1)
                    if sent_at is not None and self.in_window(sent_at):
                        self.latencies.append(now - sent_at)
                    if sent_at is not None and self.trace is not None:
                        self.trace.append(
                            (time.time() - (now - sent_at), round((now - sent_at) * 1000, 2), table.id)
                        )
                    if first:
                        table.pending.discard(seq - 1)
                        for old in [key for key in table.sent if key < seq - 8]:
                            del table.sent[old]
                    if first and self.in_window(now):
                        self.moves += 1
                    # A computer's move (a seat nobody here plays): the time since
                    # the event that made it its turn.
                    computer = frame.get("seat") not in table.humans and frame.get("action") in MOVE_ACTIONS
                    if computer and seat.last_event_at and self.in_window(seat.last_event_at):
                        self.computer_latencies.append(now - seat.last_event_at)
                        if first and self.spec.get("record_computer_events"):
                            wall = time.time()
                            self.computer_events.append(
                                [table.id, frame["seq"], wall - (now - seat.last_event_at), wall]
                            )
                    seat.last_event_at = now
                elif kind == "state":
                    seat.seq = frame["seq"]
                    if frame.get("legal") and self.mode != "hold":
                        self.act(seat, frame)
                elif kind == "pong":
                    self.pongs += 1
                elif kind == "error":
                    self.errors[frame.get("code", "?")] += 1
                    if frame.get("code") == "rate_limited" and seat.last_sent is not None:
                        # Refused unread: send it again a little later, as a person would.
                        again, at_seq = seat.last_sent
                        asyncio.get_running_loop().call_later(0.5, self.resend, seat, again, at_seq)
                elif kind == "game_over" and first:
                    self.game_overs += 1
        except ConnectionClosed:
            pass
        except Exception as error:  # a bad frame: count it, keep the run going
            self.errors[f"client:{type(error).__name__}"] += 1
        finally:
            seat.open = False
            ws = seat.ws
            code = ws.close_code if ws is not None else None
            if not getattr(self, "closing", False):
                self.closes[str(code)] += 1

    def act(self, seat: Seat, state: dict[str, Any]) -> None:
        seq = state["seq"]
        if seat.acted_at_seq >= seq:
            return
        if not self.moving:  # nobody moves before every seat is connected
            seat.waiting_state = state
            return
        legal = state["legal"]
        moves = [action for action in legal if action.get("type") != "next_round"]
        if moves:
            action = self.rng.choice(moves)
        elif seat.number == 0:  # one person deals the next round
            action = legal[0]
        else:
            return
        seat.acted_at_seq = seq
        frame = dict(action, seq=seq)
        table = seat.table
        if self.mode == "paced":
            delay = table.next_due - time.perf_counter()
            if delay > 0:
                asyncio.get_running_loop().call_later(delay, self.send, seat, frame, seq)
                return
        self.send(seat, frame, seq)

    def resend(self, seat: Seat, frame: dict[str, Any], seq: int) -> None:
        if seat.seq == seq:
            self.send(seat, frame, seq)

    def send(self, seat: Seat, frame: dict[str, Any], seq: int) -> None:
        if seat.ws is None or not seat.open or seat.seq != seq or not self.sending:
            return
        seat.last_sent = (frame, seq)
        table = seat.table
        now = time.perf_counter()
        table.sent[seq] = now
        if self.in_window(now):
            self.sent += 1
            table.pending.add(seq)
        table.next_due = max(table.next_due + self.period, now) if self.mode == "paced" else now
        self.tasks.append(asyncio.create_task(self._send(seat, json.dumps(frame))))

    async def _send(self, seat: Seat, text: str) -> None:
        try:
            assert seat.ws is not None
            await seat.ws.send(text)
        except ConnectionClosed:
            pass

    async def play_moves(self) -> None:
        """Every seat moves through the warm-up and the measured window, then
        the last moves are given time to come back."""
        base = time.perf_counter()
        for index, table in enumerate(self.tables.values()):
            table.next_due = base + self.period * index / max(1, len(self.tables))
        self.moving = True
        for seat in self.seats:
            if seat.waiting_state is not None and seat.waiting_state["seq"] == seat.seq:
                self.act(seat, seat.waiting_state)
            seat.waiting_state = None
        warmup, duration = float(self.spec.get("warmup", 3)), float(self.spec.get("duration", 10))
        begin = time.perf_counter() + warmup
        self.window = (begin, begin + duration)
        self.window_wall = (time.time() + warmup, time.time() + warmup + duration)
        await asyncio.sleep(warmup)
        print(json.dumps({"window": "start"}), flush=True)
        await asyncio.sleep(duration)
        print(json.dumps({"window": "end"}), flush=True)
        # No new moves; give the last ones time to come back.
        self.sending = False
        await asyncio.sleep(float(self.spec.get("grace", 2)))

    async def main(self) -> dict[str, Any]:
        gate = asyncio.Semaphore(int(self.spec.get("connect_concurrency", 50)))
        started = time.perf_counter()
        await asyncio.gather(*(self.open_seat(seat, gate) for seat in self.seats))
        connect_s = time.perf_counter() - started
        # Moves start once everyone is connected (connections and moves
        # share the server's database thread: measure them apart).
        collector_off = self.spec.get("client_gc", "off") == "off"
        if collector_off:
            # A collection here delays every frame this process timestamps
            # (at 1,600 sockets, up to 85 ms), and would be read as the
            # server's: the collector waits until the moves are over (as
            # timeit does around what it times).
            gc.disable()
        try:
            await self.play_moves()
        finally:
            if collector_off:
                gc.enable()
        duration = float(self.spec.get("duration", 10))
        held = sum(1 for seat in self.seats if seat.open)
        lost = sum(len(table.pending) for table in self.tables.values())
        self.closing = True
        await asyncio.gather(
            *(seat.ws.close() for seat in self.seats if seat.ws is not None and seat.open),
            return_exceptions=True,
        )
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        lat = sorted(self.latencies)
        self.collector.stop()
        if self.trace is not None:
            with open(self.spec["trace"], "w") as out:
                json.dump(
                    {
                        "window": self.window_wall,
                        "samples": self.trace,
                        "client_gc": self.collector.collections,
                    },
                    out,
                )
        computer = sorted(self.computer_latencies)

        def pct(p: float, values: list[float] | None = None) -> float | None:
            values = lat if values is None else values
            return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 2) if values else None

        return {
            "mode": self.mode,
            "tables": len(self.tables),
            "sockets": len(self.seats),
            "connected": self.connected,
            "connect_s": round(connect_s, 2),
            "held": held,
            "duration_s": duration,
            "moves": self.moves,
            "moves_per_s": round(self.moves / duration, 1),
            "latency_samples": len(lat),
            "p50_ms": pct(0.50),
            "p99_ms": pct(0.99),
            "max_ms": round(lat[-1] * 1000, 2) if lat else None,
            "sent": self.sent,
            "lost": lost,
            "computer_samples": len(computer),
            "computer_p50_ms": pct(0.50, computer),
            "computer_p99_ms": pct(0.99, computer),
            "computer_max_ms": round(computer[-1] * 1000, 2) if computer else None,
            "errors": dict(self.errors),
            "closed_early": dict(self.closes),
            "connect_failures": dict(self.connect_failures),
            "connect_retries": self.connect_retries,
            "frames": self.frames,
            "mean_frame_bytes": round(self.frame_bytes / self.frames) if self.frames else 0,
            "game_overs": self.game_overs,
            "app_pings": self.pings,
            "app_pongs": self.pongs,
            "computer_events": self.computer_events,
            "client_gc": {
                "while_moving": self.spec.get("client_gc", "off"),
                **self.collector.report(self.window_wall),
            },
        }


def main() -> None:
    spec = json.load(sys.stdin)
    run = Run(spec)
    try:
        import uvloop

        result = uvloop.run(run.main())
        result["loop"] = "uvloop"
    except ImportError:
        result = asyncio.run(run.main())
        result["loop"] = "asyncio"
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
