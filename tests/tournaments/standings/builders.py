"""Small builders for crafted standings records (test helpers, no logic under test)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from tournaments.standings import Entry, EntryId, Number, Result, RoundKind

_ids: Iterator[int] = iter(range(1, 10**9))


def entries(*ids: EntryId) -> list[Entry]:
    """Entries named after their ids."""
    return [Entry(i, f"Team {i}") for i in ids]


def win(
    rnd: int,
    winner: EntryId,
    loser: EntryId,
    score_w: Number = 305,
    score_l: Number = 200,
    *,
    kind: RoundKind = RoundKind.SWISS,
    forfeit: bool = False,
    match_id: int | str | None = None,
) -> Result:
    """``winner`` beats ``loser`` ``score_w`` to ``score_l`` (winner recorded as entry_a)."""
    return Result(
        match_id=next(_ids) if match_id is None else match_id,
        round_number=rnd,
        kind=kind,
        entry_a=winner,
        entry_b=loser,
        score_a=score_w,
        score_b=score_l,
        winner=winner,
        forfeit=forfeit,
    )


def draw(
    rnd: int, a: EntryId, b: EntryId, score: Number = 150, *, kind: RoundKind = RoundKind.SWISS
) -> Result:
    """``a`` and ``b`` draw at ``score`` each."""
    return Result(next(_ids), rnd, kind, a, b, score, score, None)


def bye(rnd: int, entry: EntryId, *, kind: RoundKind = RoundKind.SWISS) -> Result:
    """A bye for ``entry``."""
    return Result(next(_ids), rnd, kind, entry, None, 0, 0, None)


def half(n: int) -> Fraction:
    """``n / 2``, for all-fives split awards."""
    return Fraction(n, 2)
