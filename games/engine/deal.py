"""Deals from a seed, and the seed commitment published before the deal.

The deal of round ``r`` (1-based), attempt ``k`` (0, then 1, 2, ... after
redeals) is fully specified so that anyone can recompute it:

1. ``stream = SHAKE-256(f"dominoes-deal:{seed}:{r}:{k}".encode("utf-8"))``,
   224 bytes; ``key[i] = stream[8*i : 8*i+8]`` for tile index i (0 = 0-0,
   1 = 0-1, ..., 6 = 0-6, 7 = 1-1, ..., 27 = 6-6).
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

__all__ = ["Seed", "commit_seed", "deal_hands", "shuffled_order"]

Seed = int | str

_INDICES = range(28)
_unpack_keys = struct.Struct(">28Q").unpack
_BITS = [1 << i for i in range(28)]  # a list: its __getitem__ is the fastest to map


def commit_seed(seed: Seed) -> str:
    """Hex SHA-256 of ``str(seed)`` in UTF-8: published before the first deal."""
    return hashlib.sha256(str(seed).encode("utf-8")).hexdigest()


def check_seed(seed: object) -> Seed:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"a seed is an int or a str, got {seed!r}")
    return seed


def shuffled_order(seed: Seed, round_no: int, attempt: int) -> list[int]:
    """The 28 tile indices in dealing order for one round and attempt."""
    stream = hashlib.shake_256(f"dominoes-deal:{seed}:{round_no}:{attempt}".encode()).digest(224)
    keys = list(_unpack_keys(stream))  # 28 big-endian 64-bit keys: same order as the bytes
    return sorted(_INDICES, key=keys.__getitem__)


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
