"""Tiles of one double-six set, and seats.

A *tile* is one of the 28 dominoes ``[a|b]`` with ``0 <= a <= b <= 6``; every tile exists exactly
once in the set. Tiles are small frozen value objects that parse from text and print back in the
canonical form ``a-b`` (low half first), like python-chess's ``Move.from_uci`` / ``uci()``:

>>> t = Tile.parse("6-4")
>>> str(t), t.low, t.high, t.pips, t.is_double
('4-6', 4, 6, 10, False)
>>> Tile.parse("[3|3]") is Tile.parse("3-3")
True

Each tile also has a stable ``index`` (0..27) and a one-bit ``mask`` so that a hand can be held as
an ``int`` bitmask: the engine's hot paths work on indexes and masks, never on strings.

A *seat* is a position at the table, numbered ``0..players-1`` clockwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import reduce
from operator import attrgetter, or_
from typing import Final

__all__ = [
    "ALL_MASK",
    "TILES",
    "TILE_LOOKUP",
    "VALUE_MASK",
    "Seat",
    "Tile",
    "TileError",
    "mask_of",
    "mask_pips",
    "tiles_of",
]

Seat = int
"""A seat number, ``0..players-1``, clockwise from seat 0."""

# The spec's pattern, anchored with \Z so that a trailing newline is not accepted.
_TILE_RE: Final = re.compile(r"\[?\s*([0-6])\s*[-|]\s*([0-6])\s*\]?\Z")


class TileError(ValueError):
    """Raised for text that does not name a tile of the double-six set."""


@dataclass(frozen=True, slots=True)
class Tile:
    """One domino ``[low|high]`` of the double-six set (``low <= high``).

    Use :meth:`parse` or :data:`TILES`; the 28 instances are shared, so ``is`` works between
    tiles obtained from the engine.
    """

    low: int
    high: int
    index: int = field(compare=False, repr=False)
    mask: int = field(compare=False, repr=False)
    """This tile's bit in a hand bitmask (``1 << index``)."""

    @property
    def is_double(self) -> bool:
        """True for the seven doubles ``0-0`` .. ``6-6``."""
        return self.low == self.high

    @property
    def pips(self) -> int:
        """The tile's pip total (``low + high``)."""
        return self.low + self.high

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def other(self, value: int) -> int:
        """The half opposite a half of ``value`` (for a double, ``value`` itself).

        >>> Tile.parse("2-5").other(5)
        2
        """
        return self.high if value == self.low else self.low

    @staticmethod
    def of(a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order.

        >>> str(Tile.of(5, 1))
        '1-5'
        """
        if not (0 <= a <= 6 and 0 <= b <= 6):
            raise TileError(f"{a}-{b} is not a tile of the double-six set")
        return _BY_PAIR[a][b]

    @staticmethod
    def parse(text: str) -> Tile:
        """Read ``a-b``, ``b-a``, ``a|b`` or ``[a|b]`` (spaces allowed inside); raise
        :class:`TileError` for anything else.

        >>> [str(Tile.parse(s)) for s in ("6-4", "4|6", "[6|4]", " [ 4 - 6 ] ".strip())]
        ['4-6', '4-6', '4-6', '4-6']
        """
        if isinstance(text, str):
            hit = TILE_LOOKUP.get(text)
            if hit is not None:
                return hit
            m = _TILE_RE.match(text)
            if m:
                return _BY_PAIR[int(m.group(1))][int(m.group(2))]
        raise TileError(f"{text!r} is not a tile (write it like 4-6)")


def _build() -> tuple[tuple[Tile, ...], list[list[Tile]]]:
    tiles: list[Tile] = []
    for a in range(7):
        for b in range(a, 7):
            tiles.append(Tile(a, b, len(tiles), 1 << len(tiles)))
    pair = [[tiles[0]] * 7 for _ in range(7)]
    for t in tiles:
        pair[t.low][t.high] = t
        pair[t.high][t.low] = t
    return tuple(tiles), pair


TILES, _BY_PAIR = _build()
"""The 28 tiles in index order: ``0-0, 0-1, .., 0-6, 1-1, .., 6-6``."""

ALL_MASK: Final = (1 << 28) - 1
"""The bitmask holding every tile."""

VALUE_MASK: Final = tuple(sum(t.mask for t in TILES if v in (t.low, t.high)) for v in range(7))
"""``VALUE_MASK[v]``: the bitmask of the seven tiles that have a half of value ``v``."""

TILE_LOOKUP: Final[dict[str, Tile]] = {}
"""Every common spelling of every tile (``a-b``, ``b-a``, ``a|b``, ``[a|b]``) to the tile."""
for _t in TILES:
    for _x, _y in ((_t.low, _t.high), (_t.high, _t.low)):
        for _fmt in ("{}-{}", "{}|{}", "[{}|{}]", "[{}-{}]"):
            TILE_LOOKUP[_fmt.format(_x, _y)] = _t

_PIPS: Final = tuple(t.pips for t in TILES)
_MASK_OF: Final = attrgetter("mask")


def mask_of(tiles: Iterable[Tile]) -> int:
    """The bitmask of a collection of tiles (a tile given twice counts once).

    >>> mask_of([Tile.parse("0-0"), Tile.parse("0-1")])
    3
    """
    return reduce(or_, map(_MASK_OF, tiles), 0)


def tiles_of(mask: int) -> list[Tile]:
    """The tiles of a bitmask, in index order."""
    out: list[Tile] = []
    while mask:
        low = mask & -mask
        out.append(TILES[low.bit_length() - 1])
        mask ^= low
    return out


def _pip_table(first: int) -> tuple[int, ...]:
    """Pip totals of every subset of the 14 tiles ``first .. first + 13``, by subset mask."""
    table = [0] * (1 << 14)
    for m in range(1, 1 << 14):
        low = m & -m
        table[m] = table[m ^ low] + _PIPS[first + low.bit_length() - 1]
    return tuple(table)


_PIPS_LOW: Final = _pip_table(0)
_PIPS_HIGH: Final = _pip_table(14)


def mask_pips(mask: int) -> int:
    """The pip total of the tiles in a bitmask (two table look-ups).

    >>> mask_pips(Tile.parse("6-6").mask | Tile.parse("0-1").mask)
    13
    """
    return _PIPS_LOW[mask & 0x3FFF] + _PIPS_HIGH[mask >> 14]
