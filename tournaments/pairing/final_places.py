"""An event's final placings: the play-off's order first, then the Swiss standing.

The one rule of a finished event's order (``services/finish.py`` freezes it, the pages and the
export read it back):

1. the play-off's qualifiers, by :func:`~tournaments.pairing.progression.placings` with
   ``shared=True``: the champion, the runner-up, then by the bracket round that eliminated them
   (the third-place and consolation matches order entries eliminated in the same round); entries
   still equal share their place (single elimination without a third-place match: both losing
   semi-finalists are 3rd, the next place is 5th);
2. then every other entry by its Swiss standing (entries sharing a Swiss rank share the place);
3. withdrawn entries that did not qualify last, in Swiss order, each its own place.

An event without a play-off is steps 2 and 3 alone. The play-off's order is known as soon as its
**final** is decided (:func:`bracket_places`): the champion is known then, even while a third-place
or consolation match was not played; such a match then counts as not played (its two entries
share their place).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .brackets import Bracket
from .progression import BracketProgress, Placing, placings

SWISS = "swiss"
"""``eliminated_in`` of an entry placed by its Swiss standing (it did not qualify)."""


@dataclass(frozen=True, slots=True)
class SwissPlace:
    """An entry's Swiss standing: its rank (shared by tied entries) and whether it withdrew."""

    entry_id: int
    rank: int
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class FinalPlace:
    """A final place. ``eliminated_in``: the bracket match that ended the entry's run, ``None``
    for the champion (and for every entry of an event without a play-off: see
    :data:`SWISS` for the non-qualifiers of one with); ``shared``: another entry has the same
    place."""

    place: int
    entry_id: int
    eliminated_in: str | None
    shared: bool = False


def bracket_places(bracket: Bracket, progress: BracketProgress) -> tuple[Placing, ...]:
    """The qualifiers' places once the final is decided (step 1 of the module docstring);
    empty while the champion is unknown. Matches neither decided nor skipped (a third-place or
    consolation match not played) count as not played."""
    if progress.champion is None:
        return ()
    settled = tuple(
        m if m.status in ("decided", "skipped") else dataclasses.replace(m, status="skipped")
        for m in progress.matches
    )
    return placings(bracket, settled, shared=True)


def final_places(
    bracket: Sequence[Placing], swiss: Sequence[SwissPlace], *, playoff: bool
) -> tuple[FinalPlace, ...]:
    """Every entry's final place, best first (see the module docstring).

    ``bracket`` is :func:`bracket_places`' answer (empty without a play-off), ``swiss`` the
    final Swiss standing, best first (qualifiers may be in it too: the bracket places them).

    >>> from tournaments.pairing.progression import Placing
    >>> b = [Placing(1, 11, 1, None), Placing(2, 12, 2, "W2-1"),
    ...      Placing(3, 13, 3, "W1-1", True), Placing(3, 14, 4, "W1-2", True)]
    >>> s = [SwissPlace(11, 1), SwissPlace(15, 5), SwissPlace(16, 5), SwissPlace(17, 7, True),
    ...      SwissPlace(18, 8)]
    >>> [(p.place, p.entry_id, p.shared) for p in final_places(b, s, playoff=True)][4:]
    [(5, 15, True), (5, 16, True), (7, 18, False), (8, 17, False)]
    """
    out = [FinalPlace(p.place, p.entry_id, p.eliminated_in, p.shared) for p in bracket]
    placed = {p.entry_id for p in out}
    rest = [s for s in swiss if s.entry_id not in placed]
    playing = [s for s in rest if not s.withdrawn]
    withdrawn = [s for s in rest if s.withdrawn]
    how = SWISS if playoff else None
    start = len(out)
    for s in playing:
        first = next(j for j, t in enumerate(playing) if t.rank == s.rank)
        tied = sum(1 for t in playing if t.rank == s.rank) > 1
        out.append(FinalPlace(start + first + 1, s.entry_id, how, tied))
    start = len(out)
    for i, s in enumerate(withdrawn):
        out.append(FinalPlace(start + i + 1, s.entry_id, how, False))
    return tuple(out)
