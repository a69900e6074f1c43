"""Fair play anyone can check (docs/fair-play.md).

- ``build_replay(game)``: the ``replay.json`` of a finished game, in the
  format ``python -m games.engine.verify`` reads: the seed (and, when a member
  salted the deal, the server seed and the salt), the commitment published
  before the first deal, every action, the final scores, and for each computer
  move how it was chosen (level, budget and the version of the computer), so
  that it can be recomputed from its seat's view alone.
- ``offer_commitment`` / ``claim_server_seed``: commit-reveal for a member's
  salt. The server draws its seed and shows its commitment on the form
  *before* the member types a salt; the deal then comes from both
  (``games.engine.salted_seed``), so neither chooses it alone. An
  offered seed deals one table: claiming it deletes its ``SeedOffer`` row,
  which only one of several requests at once can do (and no two games may
  share a commitment: a unique index).
- ``new_seed``: every game's private seed.
"""

from __future__ import annotations

import secrets
from collections.abc import MutableMapping
from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.engine import Event, Rules, commit_seed
from games.fairplay import move_chain, signing
from games.models import Game, Move, Seat, SeedOffer, Table
from games.verifier import FORMAT

VERIFY_COMMAND = "python -m games.engine.verify"
SALT_MAX_LENGTH = 64


def new_seed() -> str:
    """A fresh private seed: 128 random bits from the system's CSPRNG."""
    return secrets.token_hex(16)


def replay_filename(table: Table) -> str:
    return f"dominoes-{table.pk}-replay.json"


def is_published(game: Game) -> bool:
    """A game's seed is published once the game is over (never before), and
    for a table of a duplicate round once the round is over (``sealed``
    until then: the other tables still play the same deal)."""
    return (
        game.finished and game.table.status == Table.Status.FINISHED and game.state is not None and not game.sealed
    )


def move_frame(move: Move, levels: dict[int, str]) -> dict[str, Any]:
    """One stored move as a verifier action (the event's replay JSON, with
    ``seq`` and ``chain``, the hash stored with the move as it was played;
    a drawn tile is public once the game is over)."""
    event = Event.from_row(move.kind, move.seat, move.payload)
    record = None
    if event.is_turn and (event.computer or event.by == "computer"):
        # A computer's move (or the server's for a person out of time): how it was chosen.
        recorded = event.computer or {}
        level = recorded.get("level") or levels.get(move.seat if move.seat is not None else -1, "")
        if level:
            record = {"level": level, "budget_ms": recorded.get("budget_ms")}
            if recorded.get("version") is not None:
                # The version of the computer that chose it (games.ai.versions); moves
                # recorded before versions were have none.
                record["version"] = recorded["version"]
    frame = replace(event, computer=record).to_json(seq=move.seq)
    frame["chain"] = move.chain
    return frame


def replay_actions(game: Game) -> list[dict[str, Any]]:
    levels = {seat.number: seat.level for seat in Seat.objects.filter(table_id=game.table_id) if seat.level}
    return [move_frame(move, levels) for move in game.moves.order_by("seq")]


CHAIN_RULE = (
    "chain_0 = SHA-256('dominoes-chain:' + commitment); chain_n = SHA-256(chain_(n-1) + ':' + canonical JSON of "
    "action n's seq, type, seat, tile and end (plays), by), hex; canonical JSON: sorted keys, no spaces, UTF-8"
)


def build_replay(game: Game) -> dict[str, Any]:
    """The published record of a finished game (``replay.json``), signed by
    the site (games.fairplay.signing): the deal's proof (seed and commitment) and the
    play's (every move with the chain hash it was given live)."""
    if not is_published(game):
        raise ValueError("the seed of a game is published only once it is over")
    result = game.result or {}
    players = [
        {"seat": seat.number, "kind": seat.kind, "level": seat.level or None, "member": seat.name or None}
        for seat in Seat.objects.filter(table_id=game.table_id).order_by("number")
    ]
    data: dict[str, Any] = {
        "format": FORMAT,
        "site": "dominoes",
        "table": game.table_id,
        "preset": game.preset,
        "rules": Rules.from_dict(game.rules).to_dict(),
        "players": players,
        "commitment": game.commitment,
        "seed": game.seed,
    }
    if game.round_commitment:
        data["round_commitment"] = game.round_commitment
        data["derivation"] = (
            "a duplicate round's table: round_commitment = SHA-256(seed); "
            "commitment = SHA-256(seed + ':table:' + table)"
        )
    elif game.salt:
        data["server_seed"] = game.server_seed
        data["salt"] = game.salt
        data["derivation"] = "seed = SHA-256(server_seed + ':' + salt), hex; commitment = SHA-256(server_seed)"
    else:
        data["derivation"] = "commitment = SHA-256(seed)"
    data["actions"] = replay_actions(game)
    data["final_scores"] = result.get("scores")
    data["winner"] = result.get("winner")
    data["end_reason"] = result.get("reason")
    data["chain_head"] = move_chain.head(game)
    data["chain_rule"] = CHAIN_RULE
    data["computer_seed"] = "SHA-256('dominoes-ai:' + seed + ':' + (seq - 1)), first 8 bytes, big-endian"
    data["verify"] = verify_command(game.table)
    return signing.sign(data)


def verify_command(table: Table) -> str:
    """The command that checks a table's replay file against the site's key."""
    return f"{VERIFY_COMMAND} --key {signing.public_key_hex()} {replay_filename(table)}"


# -- commit-reveal of a member's salt -----------------------------------------------

SESSION_KEY = "fair_play_seeds"
# Commitments kept per session (several forms may be open in tabs).
KEEP = 8
# An offered seed not claimed within this time is forgotten.
OFFER_TTL = timedelta(days=1)


def offer_commitment(session: MutableMapping[str, Any]) -> str:
    """Draw a server seed for a table to come, keep it in the (server-side)
    session, record that its commitment may be claimed once (a
    ``SeedOffer`` row) and return the commitment, to show before the member
    salts it."""
    seed = new_seed()
    commitment = commit_seed(seed)
    now = timezone.now()
    SeedOffer.objects.filter(created_at__lt=now - OFFER_TTL).delete()
    SeedOffer.objects.create(commitment=commitment, created_at=now)
    offered = dict(session.get(SESSION_KEY) or {})
    offered[commitment] = seed
    session[SESSION_KEY] = dict(list(offered.items())[-KEEP:])
    return commitment


def claim_server_seed(session: MutableMapping[str, Any], commitment: str) -> str | None:
    """The server seed behind ``commitment`` (offered to this session), used
    once; None if unknown (another session's, expired, already used).

    The session only says which seeds this visitor was shown: several
    requests at once each load their own copy of it, and each would find
    the seed there. What makes the claim once is the database: the claim
    deletes the offer's row, and of several deletes at once one deletes it
    (on PostgreSQL the others wait for its row lock, then find nothing)."""
    offered = dict(session.get(SESSION_KEY) or {})
    seed = offered.pop(commitment, None)
    session[SESSION_KEY] = offered
    if seed is None or commit_seed(seed) != commitment:
        return None
    deleted, _rows = SeedOffer.objects.filter(
        commitment=commitment, created_at__gte=timezone.now() - OFFER_TTL
    ).delete()
    if not deleted:
        return None
    return str(seed)
