"""The check of a published ``replay.json`` (``verify_replay``) and its signature.

Plain Python: the standard library, the rules engine (``games.engine``), the
computer players (``games.ai``, for ``computer=True`` only) and the
``cryptography`` package (for the signature); no Django, nothing of the site.
The site publishes a game's ``replay.json`` once the game is over
(docs/fair-play.md)::

    {
      "format": 2,
      "rules": {...},                 # Rules.to_dict()
      "commitment": "<hex>",          # published before the first deal
      "seed": "<the dealing seed>",
      "server_seed": "...", "salt": "...",   # only when a member salted the deal
      "actions": [{"type": "play", "seat": 0, "tile": [6, 4], "end": "left", "seq": 1, "chain": "<hex>"},
                  {"type": "draw", "seat": 1, "tile": [2, 3], "seq": 2, "chain": "<hex>"},
                  {"type": "pass", "seat": 1, ...}, {"type": "next_round", ...},
                  {"type": "resign", "seat": 1, ...}, {"type": "agree_draw", ...}, ...],
      "chain_head": "<hex>",
      "final_scores": [...], "winner": ..., "end_reason": "...",
      "signature": {"algorithm": "Ed25519", "public_key": "<hex>", "value": "<hex>"}
    }

Each action is an event of the move log in its replay JSON
(``games.engine.Event.from_json``), with its ``seq`` (1, 2, ...) and
``chain``, the chained move log's head after it (games.engine.chain);
``chain_head`` is the last one; ``signature`` is the site's Ed25519 signature
over the whole file (``signed_bytes``). A format 1 file (no chain, no
signature) is refused.

The check, in order: the signature holds (with the site's published key when
``key`` gives it); every action is an event of the log, and the chain holds,
from ``SHA-256("dominoes-chain:" + commitment)`` through every action to
``chain_head`` (and through the ``heads`` given, read from live ``state``
frames); the commitment is ``SHA-256`` of the seed (of the server seed when
salted, the dealing seed then being ``salted_seed(server_seed, salt)``); the
deals come from the seed; every action is legal in turn (a drawn tile, when
given, is the one the boneyard held); the game is over after the last action,
with the published scores (and winner and reason, when given).
With ``computer=True`` it also recomputes every computer move marked
``"computer": {"level": ..., "budget_ms": ..., "version": ...}`` from its
seat's view alone, with its decision seed (``games.engine.computer_seed``), as
the version recorded (``games.ai.recompute``; moves recorded before versions
have none): a move of a version this code does not run is listed with the
version it needs, not counted as a disagreement.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import Event, EventKind, IllegalAction, PlayerView, Rules, State, action_to_json, next_round
from games.engine.chain import canonical_json, chain_genesis, event_link
from games.engine.deal import Seed, commit_seed, computer_seed, salted_seed, table_commitment
from games.engine.game import new_game
from games.engine.views import view_for

__all__ = [
    "FORMAT",
    "Disagreement",
    "Report",
    "computer_seed",
    "salted_seed",
    "sign_replay",
    "signed_bytes",
    "verify_replay",
]

FORMAT = 2
SIGNATURE_ALGORITHM = "Ed25519"


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


def _check_chain(
    data: Mapping[str, Any], actions: Sequence[Any], heads: Mapping[int, str]
) -> tuple[str, list[Event]]:
    """The chain's head after the last action, once every link holds, and the
    actions as events of the log."""
    commitment = data.get("commitment")
    if not isinstance(commitment, str):
        raise Disagreement("no commitment in the file")
    head = chain_genesis(commitment)
    events: list[Event] = []
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
            event = Event.from_json(frame)
        except ValueError as error:
            raise Disagreement(f"malformed action {dict(frame)!r}: {error}", index=index) from None
        events.append(event)
        head = event_link(head, frame["seq"], event)
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
    return head, events


def _describe(event: Event) -> str:
    who = "" if event.seat is None else f"seat {event.seat} "
    if event.kind is EventKind.PLAY:
        return f"{who}plays {list(event.tile or ())} on the {event.end}"
    if event.kind is EventKind.DRAW:
        return f"{who}draws"
    if event.kind is EventKind.PASS:
        return f"{who}passes"
    return f"{who}{event.kind}"


def _check_seed(data: Mapping[str, Any]) -> tuple[Seed, bool]:
    commitment = data.get("commitment")
    if not isinstance(commitment, str):
        raise Disagreement("no commitment in the file")
    round_commitment = data.get("round_commitment")
    if round_commitment is not None:
        # A table of a duplicate round: the round's seed deals every table.
        seed = data.get("seed")
        table = data.get("table")
        if not isinstance(seed, str) or isinstance(table, bool) or not isinstance(table, int):
            raise Disagreement("a duplicate round's table needs its seed (a string) and table number")
        if commit_seed(seed) != round_commitment:
            raise Disagreement(f"the seed does not match the round's commitment: SHA-256 gives {commit_seed(seed)}")
        if table_commitment(seed, table) != commitment:
            raise Disagreement(f"the commitment is not SHA-256(seed:table:{table}) = {table_commitment(seed, table)}")
        return seed, False
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


def _apply(state: State, event: Event, index: int) -> State:
    try:
        if event.is_turn:
            if state.round_over and not state.game_over:
                state = next_round(state)  # files may leave the deals implicit
            if event.kind is EventKind.DRAW and event.tile is not None:
                drawn = state.boneyard[0].to_list() if state.boneyard else None
                if list(event.tile) != drawn:
                    raise Disagreement(f"seat {event.seat} drew {drawn}, not {list(event.tile)}", index=index)
        return event.apply(state)
    except IllegalAction as error:
        raise Disagreement(f"{_describe(event)} is not legal here: {error.reason}", index=index) from None


def _check_computer(state: State, frame: Mapping[str, Any], event: Event, seed: Seed, index: int) -> str | None:
    """Recompute a computer move from its seat's view alone, as the version of the
    computer recorded with it (``games.ai.recompute``). None when the action is not a
    computer's move, "same" when recomputed, else (a version this code does not
    implement) a note naming the version needed."""
    info = event.computer
    if info is None or not event.is_turn:
        return None
    seq = frame.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise Disagreement("a computer move needs its event number (seq)", index=index)
    action = event.action()
    if state.round_over and not state.game_over:
        state = next_round(state)
    # Only the seat's view, through JSON: nothing else reaches the computer.
    view = PlayerView.from_dict(json.loads(json.dumps(view_for(state, action.seat).to_dict())))
    from games.ai import recompute  # only here: checking a file without --computer needs no computer

    try:
        result = recompute(view, action, info, seed=computer_seed(seed, seq - 1))
    except ValueError as error:
        raise Disagreement(f"a computer move that cannot be recomputed: {error}", index=index) from None
    if result.status == "differs":
        assert result.chosen is not None  # a move that differs is one this code chose
        version = "" if result.version is None else f" version {result.version}"
        raise Disagreement(
            f"the computer ({result.level}{version}) would play {action_to_json(result.chosen)} from its view, "
            f"not {action_to_json(action)}",
            index=index,
        )
    if result.status == "needs":
        return f"action {index}: {_describe(event)}, not recomputed: {result.explain()}"
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
    head, events = _check_chain(data, actions, heads or {})
    seed, salted = _check_seed(data)
    state = new_game(rules, seed)
    checked = 0
    unchecked: list[str] = []
    for index, (frame, event) in enumerate(zip(actions, events, strict=True), start=1):
        if computer:
            outcome = _check_computer(state, frame, event, seed, index)
            if outcome == "same":
                checked += 1
            elif outcome is not None:
                unchecked.append(outcome)
        state = _apply(state, event, index)
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
