"""Where a server process spends its time: a summary of py-spy's collapsed
stacks (``bench/ws_load.py --profile DIR`` writes them, one file per
saturation run).

    python bench/profile_summary.py /tmp/profile/site-uvicorn-saturate.txt [--top 25]

Prints the share of samples (every thread that was not idle) spent inside
each part of the stack (inclusive: a frame anywhere in the stack counts),
then the functions with the most samples of their own.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# (label, regular expression over one frame "function (file:line)"), in print order.
PARTS: list[tuple[str, str]] = [
    ("move service (games.services.play)", r"games/services/play\.py"),
    ("database: Django ORM + psycopg", r"django/db/|psycopg"),
    ("  of which SQL compilation", r"django/db/models/sql/compiler\.py"),
    ("rules engine (games.engine)", r"games/engine/"),
    ("frames (games.frames)", r"games/frames\.py"),
    ("broadcast (games.services.broadcast)", r"games/services/broadcast\.py"),
    ("table facts and clock (games.clock)", r"games/clock\.py"),
    ("JSON encoding", r"json/encoder\.py|\(json/__init__\.py|dumps \("),
    ("translation (gettext)", r"django/utils/translation"),
    ("channel layer (channels_redis, redis-py, msgpack)", r"channels_redis/|/redis/|msgpack"),
    ("consumers (games.consumers, games.sockets, channels)", r"games/consumers\.py|games/sockets\.py|channels/"),
    ("asgiref (thread hops)", r"asgiref/"),
    ("websocket server (daphne, twisted, autobahn, uvicorn, websockets)",
     r"daphne/|twisted/|autobahn/|uvicorn/|websockets/|httptools|uvloop"),
]  # fmt: skip


def read(path: Path) -> list[tuple[list[str], int]]:
    stacks = []
    for line in path.read_text().splitlines():
        stack, _sep, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        stacks.append((stack.split(";"), int(count)))
    return stacks


def summary(stacks: list[tuple[list[str], int]], top: int) -> str:
    total = sum(count for _frames, count in stacks)
    if not total:
        return "no samples"
    lines = [f"{total} samples"]
    for label, pattern in PARTS:
        regex = re.compile(pattern)
        inside = sum(count for frames, count in stacks if any(regex.search(frame) for frame in frames))
        lines.append(f"  {100 * inside / total:5.1f} %  {label}")
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
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    for path in args.files:
        print(f"# {path}")
        print(summary(read(path), args.top))


if __name__ == "__main__":
    main()
