"""Where a server process spends its time: a summary of py-spy's collapsed
stacks (``bench/ws_load.py --profile DIR`` writes them, one file per
saturation run).

    python bench/profile_summary.py /tmp/profile/site-uvicorn-saturate.txt [--top 12]

Samples are split by thread: the event loop (websockets, the channel
layer, the consumers), the threads that run database work (Channels'
database thread and the move threads), and any other thread. Each sample of
a thread is put in the first part of the stack that matches it (the list
below, in order), then the functions with the most samples of their own.
py-spy counts a thread waiting in C code without releasing its state as
busy: "waiting for PostgreSQL" is time a database thread spends blocked on
a round trip (commit included), not CPU.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

DATABASE_THREAD = re.compile(r"thread_handler \((channels/db|asgiref/sync)\.py")
# (label, regular expression over the whole stack, or over the last frame with "leaf:").
DATABASE_PARTS: list[tuple[str, str]] = [
    ("health check before a query (SELECT 1)", r"is_usable"),
    ("waiting for PostgreSQL (round trips, commits)", r"leaf:psycopg/"),
    ("SQL compilation (Django ORM)", r"django/db/models/sql/compiler\.py"),
    ("rules engine (games.engine)", r"games/engine/"),
    (
        "frames and their JSON (games.live.frames, broadcast)",
        r"games/live/frames\.py|json/|games/live/broadcast\.py",
    ),
    ("turn clock and table facts (games.live.clock)", r"games/live/clock\.py"),
    ("other Python (services, Django, psycopg)", r""),
]
LOOP_PARTS: list[tuple[str, str]] = [
    ("channel layer (channels_redis, redis-py, msgpack)", r"channels_redis/|/redis/|msgpack"),
    ("hops to a database thread (asgiref)", r"asgiref/|channels/db\.py"),
    ("websocket frames out and in (JSON, websockets, server)",
     r"json/|websockets/|uvicorn/protocols|autobahn/|twisted/|send_texts|send_json"),
    ("consumers (games.socket.table, games.socket.base, channels)", r"games/socket/table\.py|games/socket/base\.py|channels/"),
    ("the event loop itself and the rest", r""),
]  # fmt: skip


def read(path: Path) -> list[tuple[list[str], int]]:
    stacks = []
    for line in path.read_text().splitlines():
        stack, _sep, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        stacks.append((stack.split(";"), int(count)))
    return stacks


def classify(frames: list[str], parts: list[tuple[str, str]]) -> str:
    stack = ";".join(frames)
    for label, pattern in parts:
        if pattern.startswith("leaf:"):
            if re.search(pattern[5:], frames[-1]):
                return label
        elif re.search(pattern, stack):
            return label
    return parts[-1][0]


def summary(stacks: list[tuple[list[str], int]], top: int) -> str:
    total = sum(count for _frames, count in stacks)
    if not total:
        return "no samples"
    groups: dict[str, Counter[str]] = {
        "event loop": Counter(),
        "database threads": Counter(),
        "other threads": Counter(),
    }
    for frames, count in stacks:
        stack = ";".join(frames)
        if DATABASE_THREAD.search(stack):
            groups["database threads"][classify(frames, DATABASE_PARTS)] += count
        elif frames[0].startswith("_bootstrap"):
            groups["other threads"]["all"] += count
        else:
            groups["event loop"][classify(frames, LOOP_PARTS)] += count
    lines = [f"{total} samples (shares of all samples)"]
    for name, parts in groups.items():
        in_group = sum(parts.values())
        lines.append(f"  {100 * in_group / total:5.1f} %  {name}")
        order = DATABASE_PARTS if name == "database threads" else LOOP_PARTS if name == "event loop" else []
        for label, _pattern in order:
            if parts[label]:
                lines.append(f"      {100 * parts[label] / total:5.1f} %  {label}")
    own: Counter[str] = Counter()
    for frames, count in stacks:
        own[frames[-1]] += count
    lines.append(f"functions with the most samples of their own (top {top}):")
    for frame, count in own.most_common(top):
        lines.append(f"  {100 * count / total:5.1f} %  {frame}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    for path in args.files:
        print(f"# {path}")
        print(summary(read(path), args.top))


if __name__ == "__main__":
    main()
