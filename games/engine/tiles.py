"""The 28 tiles of the double-six set, and the bit masks the engine uses.

A tile is interned: ``Tile(5, 3) is Tile(3, 5)``. Each tile has an ``index``
0..27 in (low, high) order, so a set of tiles is a 28-bit integer (bit
``index`` set) and "which tiles of this hand carry a 4" is ``hand & NUMBER_MASKS[4]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

__all__ = [
    "ALL_TILES_MASK",
    "DOUBLES_MASK",
    "HIGHS",
    "LOWS",
    "NUMBER_MASKS",
    "PIPS",
    "TILES",
    "Tile",
    "bits_of",
    "indices_of",
    "mask_pips",
    "tiles_of",
]


class Tile:
    """A domino tile, normalised so that ``low <= high``.

    ``Tile(3, 5) == Tile(5, 3)``; tiles are hashable, ordered by (low, high),
    immutable and interned (only 28 objects exist).
    """

    __slots__ = ("high", "index", "is_double", "low", "pips")

    low: int
    high: int
    index: int
    pips: int
    is_double: bool

    def __new__(cls, a: int, b: int) -> Tile:
        if a.__class__ is int and b.__class__ is int and 0 <= a <= 6 and 0 <= b <= 6:
            return _GRID[a * 7 + b]
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, int) or not isinstance(b, int):
            raise TypeError(f"tile numbers must be integers, got {a!r}, {b!r}")
        if not (0 <= a <= 6 and 0 <= b <= 6):
            raise ValueError(f"tile numbers go from 0 to 6, got {a}, {b}")
        return _GRID[int(a) * 7 + int(b)]

    @classmethod
    def _make(cls, low: int, high: int, index: int) -> Tile:
        tile = object.__new__(cls)
        object.__setattr__(tile, "low", low)
        object.__setattr__(tile, "high", high)
        object.__setattr__(tile, "index", index)
        object.__setattr__(tile, "pips", low + high)
        object.__setattr__(tile, "is_double", low == high)
        return tile

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Tile is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.low, self.high))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Tile:
        return self

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tile):
            return self.index == other.index
        return NotImplemented

    def __lt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.index >= other.index
        return NotImplemented

    def __iter__(self) -> Iterator[int]:
        yield self.low
        yield self.high

    def has(self, number: int) -> bool:
        """True when one half of the tile shows ``number``."""
        return self.low == number or self.high == number

    def other(self, number: int) -> int:
        """The number on the other half from ``number`` (which must be on the tile)."""
        if number == self.low:
            return self.high
        if number == self.high:
            return self.low
        raise ValueError(f"{self} has no {number}")

    def to_list(self) -> list[int]:
        """JSON shape: ``[low, high]``."""
        return [self.low, self.high]


def _build() -> tuple[tuple[Tile, ...], list[Tile]]:
    tiles: list[Tile] = []
    for low in range(7):
        for high in range(low, 7):
            tiles.append(Tile._make(low, high, len(tiles)))
    grid = [tiles[0]] * 49
    for tile in tiles:
        grid[tile.low * 7 + tile.high] = tile
        grid[tile.high * 7 + tile.low] = tile
    return tuple(tiles), grid


TILES, _GRID = _build()
"""All 28 tiles, in index order (0-0, 0-1, ..., 0-6, 1-1, ..., 6-6)."""

LOWS: tuple[int, ...] = tuple(t.low for t in TILES)
HIGHS: tuple[int, ...] = tuple(t.high for t in TILES)
PIPS: tuple[int, ...] = tuple(t.pips for t in TILES)
ALL_TILES_MASK = (1 << 28) - 1
NUMBER_MASKS: tuple[int, ...] = tuple(
    sum(1 << t.index for t in TILES if t.low == n or t.high == n) for n in range(7)
)
"""NUMBER_MASKS[n]: the seven tiles carrying the number n."""
DOUBLES_MASK = sum(1 << t.index for t in TILES if t.is_double)


def indices_of(bits: int) -> Iterator[int]:
    """Tile indices of a bit set, in increasing order."""
    while bits:
        low_bit = bits & -bits
        yield low_bit.bit_length() - 1
        bits ^= low_bit


def tiles_of(bits: int) -> tuple[Tile, ...]:
    """The tiles of a bit set, in increasing order."""
    return tuple(TILES[i] for i in indices_of(bits))


def bits_of(tiles: Iterable[Tile]) -> int:
    """The bit set of some tiles (duplicates are not detected here)."""
    bits = 0
    for tile in tiles:
        bits |= 1 << tile.index
    return bits


def mask_pips(bits: int) -> int:
    """Total pips of the tiles in a bit set."""
    return sum(PIPS[i] for i in indices_of(bits))
