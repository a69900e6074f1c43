"""Check a finished game anyone downloaded: ``python -m games.engine.verify replay.json``.

Plain Python (standard library and this engine only). The site publishes a
game's ``replay.json`` once the game is over (docs/fair-play.md)::

    {
      "format": 1,
      "rules": {...},                 # Rules.to_dict()
      "commitment": "<hex>",          # published before the first deal
      "seed": "<the dealing seed>",
      "server_seed": "...", "salt": "...",   # only when a member salted the deal
      "actions": [{"type": "play", "seat": 0, "tile": [6, 4], "end": "left"},
                  {"type": "draw", "seat": 1, "tile": [2, 3]},
                  {"type": "pass", "seat": 1}, {"type": "next_round"},
                  {"type": "resign", "seat": 1}, {"type": "agree_draw"}, ...],
      "final_scores": [...], "winner": ..., "end_reason": "..."
    }

Format 2 adds the proof of *what was played*: every action carries its
``seq`` (1, 2, ...) and ``chain``, the chained move log's head after it
(games.engine.chain); ``chain_head`` is the last one; and ``signature`` is the
site's Ed25519 signature over the whole file (``signed_bytes``)::

      "actions": [{"type": "play", ..., "seq": 1, "chain": "<hex>"}, ...],
      "chain_head": "<hex>",
      "signature": {"algorithm": "Ed25519", "public_key": "<hex>", "value": "<hex>"}

The check, in order: the signature holds (with the site's published key when
``--key`` gives it); the chain holds, from ``SHA-256("dominoes-chain:" +
commitment)`` through every action to ``chain_head`` (and through the heads
given with ``--head SEQ:HEX``, read from live ``state`` frames); the
commitment is ``SHA-256`` of the seed (of the server
seed when salted, the dealing seed then being ``salted_seed(server_seed,
salt)``); the deals come from the seed; every action is legal in turn (a drawn
tile, when given, is the one the boneyard held); the game is over after the
last action, with the published scores (and winner and reason, when given).
A file without a chain or a signature is refused. The signature needs the
``cryptography`` package (a dependency of the site).
With ``--computer`` it also recomputes every computer move marked
``"computer": {"level": ..., "budget_ms": ..., "version": ...}`` from its
seat's view alone (needs ``games.ai``, plain Python too), as the version
recorded (``games.ai.versions``; moves recorded before versions have none): a
move of a version this code does not run is listed with the version it needs,
not counted as a disagreement. It prints the final scores, or the
first disagreement; the exit status is 0 when everything agrees, 1 at a
disagreement, 2 for a file it cannot read.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Draw, action_from_json, action_to_json
from .chain import canonical_json, chain_genesis, chain_link
from .deal import Seed, commit_seed
from .errors import IllegalAction
from .game import new_game, next_round
from .moves import apply_action
from .rules import Rules
from .state import State, agree_draw, resign
from .views import PlayerView, view_for

__all__ = [
    "FORMAT",
    "Disagreement",
    "Report",
    "computer_seed",
    "main",
    "salted_seed",
    "sign_replay",
    "signed_bytes",
    "verify_replay",
]

FORMAT = 2
SIGNATURE_ALGORITHM = "Ed25519"
PLAY_TYPES = ("play", "draw", "pass")


def salted_seed(server_seed: str, salt: str) -> str:
    """The dealing seed of a salted game: hex SHA-256 of ``server_seed + ":" + salt``.

    The server commits to ``server_seed`` before the member chooses ``salt``,
    so neither of them chooses the deal alone.
    """
    return hashlib.sha256(f"{server_seed}:{salt}".encode()).hexdigest()


def computer_seed(seed: Seed, seq: int) -> int:
    """The seed of the computer's decision taken after event ``seq`` of a game
    dealt from ``seed``: the first 8 bytes of SHA-256 of
    ``"dominoes-ai:{seed}:{seq}"``, big-endian. The server derives it the same way,
    so the seed published at the end lets anyone recompute each computer move.
    """
    digest = hashlib.sha256(f"dominoes-ai:{seed}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Disagreement(Exception):
    """The file and the engine disagree; ``index`` is the action's position (1-based) or None."""

    def __init__(self, message: str, *, index: int | None = None) -> None:
        super().__init__(message if index is None else f"action {index}: {message}")
        self.index = index


@dataclass
class Report:
    """What a successful check found."""

    seed: Seed
    salted: bool
    state: State
    actions: int
    computer_checked: int = 0
    # Computer moves of a version this code does not implement: why each was not recomputed.
    computer_unchecked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    chain_head: str = ""
    public_key: str = ""
    heads_checked: int = 0


def signed_bytes(data: Mapping[str, Any]) -> bytes:
    """What the site signs: the whole file but its ``signature``, as canonical JSON."""
    return canonical_json({key: value for key, value in data.items() if key != "signature"})


def sign_replay(data: Mapping[str, Any], private_key: Any) -> dict[str, Any]:
    """``data`` with its ``signature`` (``private_key``: a ``cryptography``
    ``Ed25519PrivateKey``)."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    unsigned = {key: value for key, value in data.items() if key != "signature"}
    public = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    value = private_key.sign(signed_bytes(unsigned)).hex()
    return {**unsigned, "signature": {"algorithm": SIGNATURE_ALGORITHM, "public_key": public, "value": value}}


def _check_signature(data: Mapping[str, Any], key: str | None) -> str:
    """The public key (hex) whose signature over the file holds."""
    signature = data.get("signature")
    if not isinstance(signature, Mapping):
        raise Disagreement("the file is not signed by the site")
    if signature.get("algorithm") != SIGNATURE_ALGORITHM:
        raise Disagreement(f"unknown signature algorithm {signature.get('algorithm')!r}")
    public, value = signature.get("public_key"), signature.get("value")
    if not isinstance(public, str) or not isinstance(value, str):
        raise Disagreement("the signature needs its public_key and value (hex)")
    if key is not None and public.lower() != key.strip().lower():
        raise Disagreement(f"the file is signed with key {public}, not with the site's key {key.strip()}")
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:  # pragma: no cover - the site depends on it
        raise Disagreement("checking the signature needs the cryptography package (pip install cryptography)") from None
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public)).verify(bytes.fromhex(value), signed_bytes(data))
    except (InvalidSignature, ValueError):
        raise Disagreement("the signature does not hold: the file is not the one the site signed") from None
    return public.lower()


def _check_chain(data: Mapping[str, Any], actions: Sequence[Any], heads: Mapping[int, str]) -> str:
    """The chain's head after the last action, once every link holds."""
    commitment = data.get("commitment")
    if not isinstance(commitment, str):
        raise Disagreement("no commitment in the file")
    head = chain_genesis(commitment)
    if 0 in heads and heads[0] != head:
        raise Disagreement(f"the head given for event 0 is {heads[0]}, the chain starts at {head}")
    for index, frame in enumerate(actions, start=1):
        if not isinstance(frame, Mapping):
            raise Disagreement("an action is a JSON object", index=index)
        if "chain" not in frame:
            raise Disagreement("no chain hash: the file has no chained move log", index=index)
        if frame.get("seq") != index:
            raise Disagreement(f"event number {frame.get('seq')!r} where {index} was expected", index=index)
        try:
            head = chain_link(head, frame)
        except (KeyError, TypeError):
            raise Disagreement(f"malformed action {dict(frame)!r}", index=index) from None
        if frame["chain"] != head:
            raise Disagreement(f"the chain does not hold: the hash after this move is {head}, not {frame['chain']}", index=index)
        if index in heads and heads[index] != head:
            raise Disagreement(
                f"the live state frame of event {index} showed the head {heads[index]}, the file's moves give {head}",
                index=index,
            )
    if data.get("chain_head") != head:
        raise Disagreement(f"the chain's head is {head}, not {data.get('chain_head')!r}")
    beyond = [seq for seq in heads if seq > len(actions)]
    if beyond:
        raise Disagreement(f"a live state frame showed event {min(beyond)}, the file stops at {len(actions)}")
    return head


def _describe(frame: Mapping[str, Any]) -> str:
    kind = frame.get("type")
    seat = frame.get("seat")
    who = "" if seat is None else f"seat {seat} "
    if kind == "play":
        return f"{who}plays {frame.get('tile')} on the {frame.get('end')}"
    if kind == "draw":
        return f"{who}draws"
    if kind == "pass":
        return f"{who}passes"
    return f"{who}{kind}"


def _check_seed(data: Mapping[str, Any]) -> tuple[Seed, bool]:
    commitment = data.get("commitment")
    if not isinstance(commitment, str):
        raise Disagreement("no commitment in the file")
    salt = data.get("salt")
    if salt:
        server_seed = data.get("server_seed")
        if not isinstance(server_seed, str) or not isinstance(salt, str):
            raise Disagreement("a salted game needs its server_seed and salt (strings)")
        if commit_seed(server_seed) != commitment:
            raise Disagreement(
                f"the server seed does not match the commitment: SHA-256 gives {commit_seed(server_seed)}"
            )
        derived = salted_seed(server_seed, salt)
        given = data.get("seed")
        if given is not None and str(given) != derived:
            raise Disagreement(f"the seed is not SHA-256(server_seed:salt) = {derived}")
        return derived, True
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise Disagreement("no seed in the file")
    if commit_seed(seed) != commitment:
        raise Disagreement(f"the seed does not match the commitment: SHA-256 gives {commit_seed(seed)}")
    return seed, False


def _apply(state: State, frame: Mapping[str, Any], index: int) -> State:
    kind = frame.get("type")
    try:
        if kind in PLAY_TYPES:
            action = action_from_json(frame)
            if state.round_over and not state.game_over:
                state = next_round(state)  # files may leave the deals implicit
            if isinstance(action, Draw) and frame.get("tile") is not None:
                drawn = state.boneyard[0].to_list() if state.boneyard else None
                if list(frame["tile"]) != drawn:
                    raise Disagreement(f"seat {action.seat} drew {drawn}, not {frame['tile']}", index=index)
            return apply_action(state, action)
        if kind == "next_round":
            return next_round(state)
        if kind == "resign":
            seat = frame.get("seat")
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise Disagreement("a resignation needs a seat", index=index)
            return resign(state, seat)
        if kind == "agree_draw":
            return agree_draw(state)
    except IllegalAction as error:
        raise Disagreement(f"{_describe(frame)} is not legal here: {error.reason}", index=index) from None
    except ValueError as error:
        raise Disagreement(f"malformed action {dict(frame)!r}: {error}", index=index) from None
    raise Disagreement(f"unknown action type {kind!r}", index=index)


def _check_computer(state: State, frame: Mapping[str, Any], seed: Seed, index: int) -> str | None:
    """Recompute a computer move from its seat's view alone, as the version of the
    computer recorded with it (``games.ai.recompute``). None when the action is not a
    computer's move, "same" when recomputed, else (a version this code does not
    implement) a note naming the version needed."""
    info = frame.get("computer")
    if not isinstance(info, Mapping) or frame.get("type") not in PLAY_TYPES:
        return None
    seq = frame.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise Disagreement("a computer move needs its event number (seq)", index=index)
    action = action_from_json(frame)
    if state.round_over and not state.game_over:
        state = next_round(state)
    # Only the seat's view, through JSON: nothing else reaches the computer.
    view = PlayerView.from_dict(json.loads(json.dumps(view_for(state, action.seat).to_dict())))
    ai = importlib.import_module("games.ai")
    try:
        result = ai.recompute(view, action, info, seed=computer_seed(seed, seq - 1))
    except ValueError as error:
        raise Disagreement(f"a computer move that cannot be recomputed: {error}", index=index) from None
    if result.status == "differs":
        version = "" if result.version is None else f" version {result.version}"
        raise Disagreement(
            f"the computer ({result.level}{version}) would play {action_to_json(result.chosen)} from its view, "
            f"not {action_to_json(action)}",
            index=index,
        )
    if result.status == "needs":
        return f"action {index}: {_describe(frame)}, not recomputed: {result.explain()}"
    return "same"


def verify_replay(
    data: Mapping[str, Any],
    *,
    computer: bool = False,
    key: str | None = None,
    heads: Mapping[int, str] | None = None,
) -> Report:
    """Check a replay file's content; raise ``Disagreement`` at the first problem.

    ``key``: the site's published public key (hex); without it the file's
    own key is used (and reported, to compare). ``heads``: event number ->
    chain head, as live ``state`` frames showed them."""
    if not isinstance(data, Mapping):
        raise Disagreement("a replay file is a JSON object")
    if data.get("format") == 1:
        raise Disagreement("a format 1 file has no chained move log and no signature: download it again")
    if data.get("format") != FORMAT:
        raise Disagreement(f"unknown replay format {data.get('format')!r}")
    public_key = _check_signature(data, key)
    try:
        rules = Rules.from_dict(dict(data["rules"]))
    except (KeyError, TypeError, ValueError) as error:
        raise Disagreement(f"bad rules: {error}") from None
    actions = data.get("actions")
    if not isinstance(actions, Sequence) or isinstance(actions, str):
        raise Disagreement("no list of actions in the file")
    head = _check_chain(data, actions, heads or {})
    seed, salted = _check_seed(data)
    state = new_game(rules, seed)
    checked = 0
    unchecked: list[str] = []
    for index, frame in enumerate(actions, start=1):
        if not isinstance(frame, Mapping):
            raise Disagreement("an action is a JSON object", index=index)
        if computer:
            outcome = _check_computer(state, frame, seed, index)
            if outcome == "same":
                checked += 1
            elif outcome is not None:
                unchecked.append(outcome)
        state = _apply(state, frame, index)
    if not state.game_over:
        raise Disagreement(f"the game is not over after the {len(actions)} actions")
    expected = data.get("final_scores")
    if expected is not None and list(expected) != list(state.scores):
        raise Disagreement(f"the final scores are {list(state.scores)}, not {list(expected)}")
    if "winner" in data and data["winner"] != state.winner:
        raise Disagreement(f"the winner is {state.winner}, not {data['winner']}")
    if data.get("end_reason") is not None and data["end_reason"] != state.end_reason:
        raise Disagreement(f"the game ended by {state.end_reason}, not {data['end_reason']}")
    return Report(
        seed, salted, state, len(actions), checked, unchecked,
        chain_head=head, public_key=public_key, heads_checked=len(heads or {}),
    )


def _head(text: str) -> tuple[int, str]:
    seq, separator, head = text.partition(":")
    if not separator or not seq.strip().isdigit() or len(head.strip()) != 64:
        raise argparse.ArgumentTypeError("give SEQ:HEAD, e.g. 17:3f9a... (the seq and chain of a state frame)")
    return int(seq), head.strip().lower()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.verify",
        description="Check a finished dominoes game: commitment, deals, every action, final scores.",
    )
    parser.add_argument(
        "replay", help="the replay.json file downloaded from the site ('-' for standard input)"
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


if __name__ == "__main__":
    sys.exit(main())
