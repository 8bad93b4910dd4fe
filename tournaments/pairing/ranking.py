"""Ranking for pairing: match points, then spread, then a salted lot for a total order.

``rank`` is deliberately small: issue 8's standings replace the ordering with the event's full
tiebreak list by passing ``key`` (any function of an entry whose values sort best-first); the
salted lot always stays as the last key, so the order is total and reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import draw
from .records import DrawRecord, EntryRecord

RankKey = Callable[[EntryRecord], Any]
"""A sort key, smallest first (best first). It must return mutually comparable values."""

RANK_PURPOSE = "rank"


def default_key(entry: EntryRecord) -> tuple[Any, ...]:
    """Best first: more match points, then more spread."""
    return (-entry.match_points, -entry.spread)


def rank_with_draws(
    entries: Iterable[EntryRecord],
    *,
    salt: str,
    round_no: int,
    key: RankKey | None = None,
) -> tuple[list[int], list[DrawRecord]]:
    """Order entries best first and return the draws that broke ties.

    Entries that share ``key`` are ordered by the salted lot ``draw.lot(salt, "rank", round_no,
    entry_id)``; one ``DrawRecord`` is returned per group of tied entries (none when there are
    no ties). Inactive entries are ranked like the others: callers filter first if they wish.
    """
    sort_key = key or default_key
    items = list(entries)
    ids = [e.entry_id for e in items]
    if len(set(ids)) != len(ids):
        raise ValueError("entry ids must be distinct")
    keyed = sorted(
        (
            (sort_key(e), draw.lot(salt, RANK_PURPOSE, round_no, e.entry_id), e.entry_id)
            for e in items
        ),
    )
    order = [entry_id for _, _, entry_id in keyed]
    draws: list[DrawRecord] = []
    start = 0
    while start < len(keyed):
        end = start + 1
        while end < len(keyed) and keyed[end][0] == keyed[start][0]:
            end += 1
        if end - start > 1:
            group = sorted(entry_id for _, _, entry_id in keyed[start:end])
            _, record = draw.shuffle(salt, RANK_PURPOSE, round_no, group)
            draws.append(record)
        start = end
    return order, draws


def rank(
    entries: Iterable[EntryRecord],
    *,
    salt: str,
    round_no: int,
    key: RankKey | None = None,
) -> list[int]:
    """Entry ids best first: by ``key`` (default: match points, then spread, both descending),
    then by the salted lot.

    >>> from fractions import Fraction
    >>> a = EntryRecord(1, frozenset({1}), match_points=2, spread=10)
    >>> b = EntryRecord(2, frozenset({2}), match_points=2, spread=Fraction(25, 2))
    >>> c = EntryRecord(3, frozenset({3}), match_points=4, spread=-5)
    >>> rank([a, b, c], salt="s", round_no=2)
    [3, 2, 1]
    """
    return rank_with_draws(entries, salt=salt, round_no=round_no, key=key)[0]
