"""Long public lists in slices a phone can load: a 500-table round's pairings, a 2,000-row
standings table.

A page shows one slice (``?from=`` the first position shown, 1-based) and names every other slice
(a row of ranges, "1–50 · 51–100 · …", plain links that work without JavaScript); the slice's
last row is a "show more" link that htmx follows on click or when it scrolls into view,
appending the next slice in place (``hx-select`` takes the next page's rows, its own "show more"
row included). Each slice is a page of its own, kept as a document
(``tournaments/documents.py``): one render per change, whoever scrolls.
"""

from __future__ import annotations

from dataclasses import dataclass

TABLES_PER_PAGE = 50
"""Tables of a round page's slice (about 25 KB of HTML, 5 KB with brotli)."""

ROWS_PER_PAGE = 100
"""Rows of a standings page's slice."""


@dataclass(frozen=True)
class Range:
    first: int  # 1-based positions
    last: int
    current: bool


@dataclass(frozen=True)
class Slice:
    """Positions ``first``..``last`` (1-based) of ``total``; ``next_from`` is 0 on the last."""

    first: int
    last: int
    total: int
    size: int

    @property
    def start(self) -> int:
        """The first position as a 0-based index."""
        return self.first - 1

    @property
    def is_last(self) -> bool:
        return self.last >= self.total

    @property
    def next_from(self) -> int:
        return 0 if self.is_last else self.last + 1

    @property
    def next_last(self) -> int:
        return min(self.total, self.last + self.size)

    @property
    def ranges(self) -> list[Range]:
        return [
            Range(first, min(self.total, first + self.size - 1), first == self.first)
            for first in range(1, self.total + 1, self.size)
        ]


def slice_of(total: int, wanted: str | None, size: int) -> Slice | None:
    """The slice of ``total`` items that starts at position ``wanted`` (``?from=``), aligned
    down to a slice boundary and kept in range (a wrong or missing value: the first slice).
    None when everything fits on one page."""
    if total <= size:
        return None
    try:
        first = int(wanted or 1)
    except ValueError:
        first = 1
    first = min(max(first, 1), total)
    first = (first - 1) // size * size + 1
    return Slice(first=first, last=min(total, first + size - 1), total=total, size=size)
