"""The command that checks a downloaded game: ``python -m games.engine.verify replay.json``
(the name the site publishes; ``python -m games.verifier`` is the same command).

It prints what it checked and the final scores, or the first disagreement;
the exit status is 0 when everything agrees, 1 at a disagreement, 2 for a
file it cannot read. ``--key`` gives the site's public key (else the file's
own key is reported, to compare), ``--head SEQ:HEX`` a chain head read from
a live ``state`` frame (repeatable), and ``--computer`` recomputes every
computer move from its seat's view alone (games.verifier.replay).

``python -m games.engine.verify --tournament FILE [--key HEX]`` checks a
tournament's results file instead (games.verifier.tournament): every game,
every score and the standings; it prints ``OK`` and exits 0, or names what
does not add up and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .replay import Disagreement, verify_replay
from .tournament import verify_tournament

__all__ = ["main"]


def _head(text: str) -> tuple[int, str]:
    seq, separator, head = text.partition(":")
    if not separator or not seq.strip().isdigit() or len(head.strip()) != 64:
        raise argparse.ArgumentTypeError("give SEQ:HEAD, e.g. 17:3f9a... (the seq and chain of a state frame)")
    return int(seq), head.strip().lower()


def _tournament(path: str, key: str | None) -> int:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"cannot read {path}: {error}", file=sys.stderr)
        return 2
    try:
        report = verify_tournament(data, key=key)
    except Disagreement as error:
        print(f"MISMATCH: {error}")
        return 1
    signed = "the site's key" if key else "key"
    print(f"signature OK: signed with {signed} {report.public_key}")
    print(f"{report.games} games replayed, every score and the standings of {report.players} players recomputed")
    for row in report.standings[:3]:
        print(f"  {row.rank}. {row.player} {row.score}")
    print("OK")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.verify",
        description="Check a finished dominoes game: commitment, deals, every action, final scores.",
    )
    parser.add_argument(
        "replay", nargs="?", help="the replay.json file downloaded from the site ('-' for standard input)"
    )
    parser.add_argument(
        "--tournament",
        metavar="FILE",
        help="check a tournament's results.json instead: every game, every score and the standings",
    )
    parser.add_argument(
        "--computer",
        action="store_true",
        help="also recompute every computer move from its seat's view alone",
    )
    parser.add_argument(
        "--key",
        help="the site's public key (hex, as published at /fair-play/key.json): the file must be signed with it",
    )
    parser.add_argument(
        "--head",
        action="append",
        type=_head,
        default=[],
        metavar="SEQ:HEAD",
        help="a live state frame's seq and chain: the file's moves must lead to that head (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.tournament:
        return _tournament(args.tournament, args.key)
    if not args.replay:
        parser.error("give a replay.json file, or --tournament FILE")
    try:
        if args.replay == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.replay, encoding="utf-8") as handle:
                data = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"cannot read {args.replay}: {error}", file=sys.stderr)
        return 2
    try:
        report = verify_replay(data, computer=args.computer, key=args.key, heads=dict(args.head))
    except Disagreement as error:
        print(f"MISMATCH: {error}")
        return 1
    state = report.state
    if args.key:
        print(f"signature OK: signed with the site's key {report.public_key}")
    else:
        print(
            f"signature OK: signed with key {report.public_key} "
            "(compare it with the key the site publishes, or pass it with --key)"
        )
    print(f"chain OK: {report.actions} moves chained from the commitment to head {report.chain_head}")
    if report.heads_checked:
        print(f"live heads OK: the {report.heads_checked} head(s) given are on the chain")
    if report.salted:
        print(f"commitment OK: SHA-256(server seed) = {data['commitment']}")
        print(f"seed OK: SHA-256(server seed:salt) = {report.seed}")
    else:
        print(f"commitment OK: SHA-256(seed) = {data['commitment']}")
    print(f"replayed {report.actions} actions over {state.round} round(s): every one legal")
    if args.computer:
        print(f"computer moves recomputed from their seat's view: {report.computer_checked}, all the same")
        if report.computer_unchecked:
            print(
                f"computer moves not recomputed, chosen by a version of the computer this code does not run: "
                f"{len(report.computer_unchecked)} (recompute them with the code named)"
            )
            for line in report.computer_unchecked:
                print(f"  {line}")
    print(f"final scores: {list(state.scores)}")
    return 0
