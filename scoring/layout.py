"""The layout: the tiles on the table, their open ports and counted ends, the end total.

Vocabulary (``shared/spec/rules.md``):

* A non-double has two **halves**; after the opening one of them touches the tile it was placed
  on and the other is **free** (the opening non-double has both halves free).
* A double lies crosswise. It has two **line sides**; a **spinner** also has two **branch sides**,
  which open only once both line sides are occupied. A double with a free line side is
  **terminal**; with both line sides occupied it is **internal**.
* An **open port** is a side a tile may be placed against. A **counted end** is what the end total
  adds up: a free half of a non-double, a terminal double (2 x its value, once), and in
  ``five-up-7`` an internal spinner's free branch sides (its value once each). An open port is not
  always counted (an internal spinner's branch sides in ``five-up`` and ``all-fives``).

Since every tile exists once, ``place(tile, on)`` fixes the placement completely; the new end total
is returned and kept incrementally, never recounted:

>>> from scoring.tiles import Tile
>>> lay = Layout("five-up")
>>> lay.place(Tile.parse("3-6"), None), lay.place(Tile.parse("6-6"), Tile.parse("3-6"))
(9, 15)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from scoring.rules import RuleSet, find_ruleset
from scoring.tiles import VALUE_MASK, Tile

__all__ = [
    "BRANCH",
    "HIGH",
    "LINE",
    "LOW",
    "IllegalPlacement",
    "Layout",
    "Placement",
    "score_of_total",
]

# Where a tile touches the tile it is placed on (the *port* of that tile it uses).
LOW: Final = 0
"""The low half of a non-double."""
HIGH: Final = 1
"""The high half of a non-double."""
LINE: Final = 2
"""A line side of a double."""
BRANCH: Final = 3
"""A branch side of a spinner."""

PORT_NAMES: Final = ("low end", "high end", "line", "branch")


class IllegalPlacement(ValueError):
    """Raised by :meth:`Layout.place` for a tile that cannot go where it is asked to."""


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile put on the table: ``tile`` against ``port`` of ``on`` (``None`` for the opening).

    ``slot`` tells the two line sides (or the two branch sides) of a double apart: 0 for the first
    one occupied (the seed's "A"), 1 for the second ("B"). ``total`` is the end total after it.
    """

    tile: Tile
    on: Tile | None
    port: int
    slot: int
    total: int


def score_of_total(total: int) -> int:
    """A placement's score: the end total when it is a positive multiple of five, else 0.

    >>> [score_of_total(t) for t in (0, 5, 12, 35)]
    [0, 5, 0, 35]
    """
    return total if total > 0 and total % 5 == 0 else 0


class Layout:
    """The tiles on the table in one hand, with an explicit mutation API.

    State per tile index: ``_free`` (non-double: bit 0 low half free, bit 1 high half free;
    double: number of free line sides), ``_branch`` (a spinner's free branch sides, else 0), and
    ``_ports[v]``, the number of open ports of value ``v``, from which :meth:`playable_mask` is
    derived. Nothing is recounted after a placement: :attr:`total` moves by the change at the
    tile placed and the tile it touches.
    """

    __slots__ = (
        "_branch",
        "_branch_counts",
        "_first_only",
        "_free",
        "_ports",
        "_seen_double",
        "on_table",
        "placements",
        "rules",
        "total",
    )

    def __init__(self, rules: RuleSet | str = "five-up") -> None:
        self.rules: RuleSet = find_ruleset(rules) if isinstance(rules, str) else rules
        self._branch_counts = self.rules.internal_branches_count
        self._first_only = self.rules.spinners == "first"
        self._seen_double = False
        self._free = [0] * 28
        self._branch = [0] * 28
        self._ports = [0] * 7
        self.on_table = 0
        """Bitmask of the tiles on the table."""
        self.total = 0
        """The end total: the sum of the counted ends."""
        self.placements: list[Placement] = []
        """Every placement in order."""

    # -- queries ---------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.placements)

    def __contains__(self, tile: Tile) -> bool:
        return bool(self.on_table >> tile.index & 1)

    def is_spinner(self, tile: Tile) -> bool:
        """Whether ``tile`` is a double on the table that is a spinner (it has branch sides)."""
        if not tile.is_double or not (self.on_table >> tile.index & 1):
            return False
        if not self._first_only:
            return True
        first = next(p.tile for p in self.placements if p.tile.is_double)
        return first is tile

    def port_of(self, tile: Tile, on: Tile) -> int:
        """The port of ``on`` that ``tile`` would touch, or -1 when it cannot go there.

        ``on`` must be on the table and ``tile`` not.
        """
        i = on.index
        if not (self.on_table >> i & 1) or (self.on_table >> tile.index & 1):
            return -1
        a, b = on.low, on.high
        if a != b:
            free = self._free[i]
            if free & 1 and (tile.low == a or tile.high == a):
                return LOW
            if free & 2 and (tile.low == b or tile.high == b):
                return HIGH
            return -1
        if tile.low != a and tile.high != a:
            return -1
        if self._free[i]:
            return LINE
        if self._branch[i]:
            return BRANCH
        return -1

    def playable_mask(self) -> int:
        """The bitmask of every tile that has a half matching an open port (all when empty)."""
        if not self.on_table:
            return (1 << 28) - 1
        m = 0
        ports = self._ports
        for v in range(7):
            if ports[v]:
                m |= VALUE_MASK[v]
        return m & ~self.on_table

    def can_play(self, hand: int) -> bool:
        """Whether a hand (a tile bitmask) holds a tile that can be placed now."""
        return bool(hand & self.playable_mask())

    def legal_placements(self, tile: Tile) -> list[Tile | None]:
        """The tiles ``tile`` could be placed on now (``[None]``: it would open the hand).

        >>> lay = Layout("five-up"); _ = lay.place(Tile.parse("1-4"), None)
        >>> [str(t) for t in lay.legal_placements(Tile.parse("4-4"))]
        ['1-4']
        """
        if not self.on_table:
            return [None]
        if self.on_table >> tile.index & 1:
            return []
        return [p.tile for p in self.placements if self.port_of(tile, p.tile) >= 0]

    def open_ports(self) -> list[tuple[Tile, int, int]]:
        """Every open port as ``(tile, port kind, value)``; a double lists each free side."""
        out: list[tuple[Tile, int, int]] = []
        for p in self.placements:
            t = p.tile
            i = t.index
            if not t.is_double:
                if self._free[i] & 1:
                    out.append((t, LOW, t.low))
                if self._free[i] & 2:
                    out.append((t, HIGH, t.high))
            else:
                out.extend((t, LINE, t.low) for _ in range(self._free[i]))
                if not self._free[i]:
                    out.extend((t, BRANCH, t.low) for _ in range(self._branch[i]))
        return out

    def counted_ends(self) -> list[tuple[Tile, int, int]]:
        """Every counted end as ``(tile, port kind, contribution)``; they add up to ``total``.

        A terminal double appears once with 2 x its value (kind ``LINE``).
        """
        out: list[tuple[Tile, int, int]] = []
        for p in self.placements:
            t = p.tile
            i = t.index
            if not t.is_double:
                if self._free[i] & 1:
                    out.append((t, LOW, t.low))
                if self._free[i] & 2:
                    out.append((t, HIGH, t.high))
            elif self._free[i]:
                out.append((t, LINE, 2 * t.low))
            elif self._branch_counts:
                out.extend((t, BRANCH, t.low) for _ in range(self._branch[i]))
        return out

    def recount(self) -> int:
        """The end total recounted from scratch (for tests; :attr:`total` is kept incrementally)."""
        return sum(c for _t, _k, c in self.counted_ends())

    def free_sides(self, tile: Tile) -> tuple[int, int]:
        """``(free line sides, or free halves as a bitmask; free branch sides)`` of a tile."""
        return self._free[tile.index], self._branch[tile.index]

    def total_after(self, tile: Tile, on: Tile | None) -> int:
        """The end total that ``place(tile, on)`` would give, without placing it.

        The placement must be legal (see :meth:`port_of`); the layout is not changed.

        >>> lay = Layout("five-up"); _ = lay.place(Tile.parse("3-6"), None)
        >>> lay.total_after(Tile.parse("6-6"), Tile.parse("3-6")), lay.total
        (15, 9)
        """
        if on is None:
            return tile.low + tile.high
        port = self.port_of(tile, on)
        if port < 0:
            raise IllegalPlacement(f"{tile} cannot be placed on {on}")
        j = on.index
        v = on.low if port != HIGH else on.high
        total = self.total
        if port in (LOW, HIGH):
            total -= v
        elif port == LINE:
            if self._free[j] == 1:
                total -= 2 * v
                if self._branch_counts:
                    total += v * self._branch[j]
        elif self._branch_counts:
            total -= v
        if tile.is_double:
            return total + 2 * v
        return total + tile.other(v)

    # -- mutation --------------------------------------------------------------------------

    def place(self, tile: Tile, on: Tile | None) -> int:
        """Put ``tile`` against ``on`` (``None`` opens the hand) and return the new end total.

        Raises :class:`IllegalPlacement` when the tile is already on the table, when ``on`` is
        missing after the opening or given for it, or when ``on`` has no open side matching.
        """
        i = tile.index
        if self.on_table >> i & 1:
            raise IllegalPlacement(f"{tile} is already on the table")
        if on is None:
            if self.on_table:
                raise IllegalPlacement(f"{tile} needs a tile to be placed on")
            return self._open(tile)
        if not self.on_table:
            raise IllegalPlacement(f"{tile} opens the hand and cannot be placed on {on}")
        port = self.port_of(tile, on)
        if port < 0:
            if not (self.on_table >> on.index & 1):
                raise IllegalPlacement(f"{on} is not on the table")
            raise IllegalPlacement(f"{tile} does not match any open side of {on}")
        return self._attach(tile, on, port)

    def _open(self, tile: Tile) -> int:
        i = tile.index
        a = tile.low
        self.on_table |= 1 << i
        if tile.high != a:
            self._free[i] = 3
            self._ports[a] += 1
            self._ports[tile.high] += 1
            self.total = a + tile.high
        else:
            self._free[i] = 2
            self._branch[i] = 2 if self._spinner_now() else 0
            self._ports[a] += 2
            self.total = 2 * a
        self.placements.append(Placement(tile, None, -1, -1, self.total))
        return self.total

    def _spinner_now(self) -> bool:
        # Called when a double is placed: is it a spinner?
        if self._first_only:
            if self._seen_double:
                return False
            self._seen_double = True
        return True

    def _attach(self, tile: Tile, on: Tile, port: int) -> int:
        j = on.index
        v = on.low if port != HIGH else on.high
        ports = self._ports
        total = self.total
        slot = 0
        # The side of ``on`` that is now taken.
        if port in (LOW, HIGH):
            self._free[j] &= ~(1 << port)
            ports[v] -= 1
            total -= v
        elif port == LINE:
            free = self._free[j] - 1
            slot = 1 - free
            self._free[j] = free
            ports[v] -= 1
            if not free:
                # The double turns internal: it stops counting 2v and its branches open.
                br = self._branch[j]
                total -= 2 * v
                ports[v] += br
                if self._branch_counts:
                    total += v * br
        else:
            br = self._branch[j] - 1
            slot = 1 - br
            self._branch[j] = br
            ports[v] -= 1
            if self._branch_counts:
                total -= v
        # The tile placed.
        i = tile.index
        w = tile.low
        if tile.high != w:
            if w == v:
                w = tile.high
                self._free[i] = 2
            else:
                self._free[i] = 1
            ports[w] += 1
            total += w
        else:
            self._free[i] = 1
            self._branch[i] = 2 if self._spinner_now() else 0
            ports[w] += 1
            total += 2 * w
        self.on_table |= 1 << i
        self.total = total
        self.placements.append(Placement(tile, on, port, slot, total))
        return total

    def copy(self) -> Layout:
        """An independent copy of this layout."""
        new = Layout.__new__(Layout)
        new.rules = self.rules
        new._branch_counts = self._branch_counts
        new._first_only = self._first_only
        new._seen_double = self._seen_double
        new._free = self._free[:]
        new._branch = self._branch[:]
        new._ports = self._ports[:]
        new.on_table = self.on_table
        new.total = self.total
        new.placements = self.placements[:]
        return new

    def __repr__(self) -> str:
        tiles = " ".join(str(p.tile) for p in self.placements)
        return f"<Layout {self.rules.name} {tiles} total={self.total}>"
