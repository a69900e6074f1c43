"""Deals from a seed, and the seed commitment published before the deal.

The deal of round ``r`` (1-based), attempt ``k`` (0, then 1, 2, ... after
redeals) is fully specified so that anyone can recompute it:

1. ``stream = SHAKE-256(f"dominoes-deal:{seed}:{r}:{k}".encode("utf-8"))``,
   224 bytes. The key of tile index i (0 = 0-0, 1 = 0-1, ..., 6 = 0-6,
   7 = 1-1, ..., 27 = 6-6) is the 44-bit big-endian number made of the low 4
   bits of ``stream[8*i + 1]`` followed by ``stream[8*i + 2 : 8*i + 7]``.
2. The tiles sorted by (key, index) ascending form the shuffled stack.
3. Seat 0 takes the first ``n`` tiles of the stack, seat 1 the next ``n``,
   and so on; the rest is the boneyard in drawing order (or, in the block
   game, the tiles set aside).
4. With ``redeal_five_doubles``, if any hand holds more than four doubles,
   the deal is redone with attempt ``k + 1``.

The seed is used only through ``str(seed)``, so ``42`` and ``"42"`` deal alike.
The commitment is ``SHA-256(str(seed).encode("utf-8"))`` in lowercase hex.
"""

from __future__ import annotations

import hashlib
import struct

from .rules import Rules
from .tiles import DOUBLES_MASK

__all__ = [
    "Seed",
    "commit_seed",
    "computer_seed",
    "deal_hands",
    "salted_seed",
    "shuffled_order",
    "table_commitment",
]

Seed = int | str

_FLOATS = struct.Struct(">28d")
_unpack_floats = _FLOATS.unpack
_pack_floats = _FLOATS.pack
_EXPONENT = b"\x3f" * 28
_LOW_NIBBLE = bytes(0xF0 | (byte & 0x0F) for byte in range(256))
_INDEX_BYTES = bytes(range(28))
_BITS = [1 << i for i in range(28)]  # a list: its __getitem__ is the fastest to map


def commit_seed(seed: Seed) -> str:
    """Hex SHA-256 of ``str(seed)`` in UTF-8: published before the first deal."""
    return hashlib.sha256(str(seed).encode("utf-8")).hexdigest()


def table_commitment(seed: Seed, table: int) -> str:
    """The commitment of one table of a duplicate round (docs/fair-play.md):
    hex SHA-256 of ``f"{seed}:table:{table}"``. Every table of the round deals
    from the round's seed (``commit_seed(seed)`` is the round's commitment);
    binding the table's number keeps each game's commitment its own."""
    return hashlib.sha256(f"{seed}:table:{table}".encode()).hexdigest()


def salted_seed(server_seed: str, salt: str) -> str:
    """The dealing seed of a salted game: hex SHA-256 of ``server_seed + ":" + salt``.

    The server commits to ``server_seed`` before the member chooses ``salt``,
    so neither of them chooses the deal alone.
    """
    return hashlib.sha256(f"{server_seed}:{salt}".encode()).hexdigest()


def computer_seed(seed: Seed, seq: int) -> int:
    """The seed of the computer's decision taken after event ``seq`` of a game
    dealt from ``seed``: the first 8 bytes of SHA-256 of
    ``"dominoes-ai:{seed}:{seq}"``, big-endian. The server derives it here, and
    so does the verifier: the seed published at the end lets anyone recompute
    each computer move.
    """
    digest = hashlib.sha256(f"dominoes-ai:{seed}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def check_seed(seed: object) -> Seed:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"a seed is an int or a str, got {seed!r}")
    return seed


def shuffled_order(seed: Seed, round_no: int, attempt: int) -> bytes:
    """The 28 tile indices in dealing order for one round and attempt.

    Sorting is done on floats in [1, 2) whose 52-bit mantissa is the tile's
    44-bit key followed by its index (so ties, if any, go to the lower index):
    the same order as sorting by (key, index), with only C-level work.
    """
    record = bytearray(hashlib.shake_256(f"dominoes-deal:{seed}:{round_no}:{attempt}".encode()).digest(224))
    record[0::8] = _EXPONENT  # sign 0, exponent 0x3FF: a float in [1, 2)
    record[1::8] = record[1::8].translate(_LOW_NIBBLE)  # ... whose mantissa starts with 4 key bits
    record[7::8] = _INDEX_BYTES  # ... and ends with the tile's index
    return _pack_floats(*sorted(_unpack_floats(record)))[7::8]


def deal_hands(rules: Rules, seed: Seed, round_no: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(hand bit sets by seat, the undealt tiles in drawing order) for a round."""
    size = rules.deal_size
    players = rules.players
    check_doubles = size > 4 and rules.redeal_five_doubles
    bit = _BITS.__getitem__
    attempt = 0
    while True:
        order = shuffled_order(seed, round_no, attempt)
        hands = tuple(
            [sum(map(bit, order[start : start + size])) for start in range(0, players * size, size)]
        )
        if check_doubles:
            for hand in hands:
                if (hand & DOUBLES_MASK).bit_count() > 4:
                    break
            else:
                return hands, tuple(order[players * size :])
        else:
            return hands, tuple(order[players * size :])
        attempt += 1
