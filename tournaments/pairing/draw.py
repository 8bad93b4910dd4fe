"""Reproducible, publishable randomness: every random choice is a salted SHA-256 lot.

The event publishes a *salt* (any string) before the draw. Each candidate ``item`` (an entry id,
a seat index...) for a given *purpose* in a given *round* gets the lot

    sha256(f"{salt}:{purpose}:{round_no}:{context}:{item}".encode("utf-8")).hexdigest()

where ``context`` is the comma-joined list of extra integers that identify the choice (for
example the two entry ids at a table), or empty. Candidates are ordered by their lot read as a
hexadecimal number, smallest first (ties, which need a SHA-256 collision, fall back to the item).
A *shuffle* is that order; a *choice* is its first element. Each call returns a ``DrawRecord``
with the purpose, round, candidates and outcome, and ``verify(record, salt)`` recomputes it, so
anyone holding the salt can check every draw of the event with ``sha256sum`` alone:

>>> order, record = shuffle("open-2026", "first-round", 1, [10, 11, 12])
>>> verify(record, "open-2026")
True
>>> lot("open-2026", "first-round", 1, 10) == lot("open-2026", "first-round", 1, 10)
True

Purposes used by the package: ``first-round`` (the random first-round order), ``rank`` (the last
key of the ranking), ``first-leader`` (who leads the first hand at a table), ``seed-order`` (ties
in a seeded ordering), ``seat-order`` (the seats at a table of many, context its entry ids in
ascending order), ``repair-walk`` (the seed of the seating search's random walk at tables of
many). Adding a purpose never changes the lots of the others.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from .reasons import gettext_noop
from .records import DrawRecord

PURPOSE_NAMES: dict[str, str] = {
    "first-round": gettext_noop("first-round order"),
    "rank": gettext_noop("ties in the ranking"),
    "first-leader": gettext_noop("who leads first"),
    "seed-order": gettext_noop("ties in the seeding"),
    "seat-order": gettext_noop("seat order"),
    "repair-walk": gettext_noop("seating search"),
}
"""Each purpose (the code a draw record keeps) as a page names it (a word the page translates)."""

METHOD = (
    "order candidates by sha256('{salt}:{purpose}:{round}:{context}:{candidate}') "
    "read as a hex number, ascending; context is comma-joined, possibly empty"
)


def lot(salt: str, purpose: str, round_no: int, item: int, context: Sequence[int] = ()) -> int:
    """The lot of one candidate: the SHA-256 of the documented message, as an integer."""
    ctx = ",".join(str(c) for c in context)
    message = f"{salt}:{purpose}:{round_no}:{ctx}:{item}".encode()
    return int.from_bytes(hashlib.sha256(message).digest(), "big")


def shuffle(
    salt: str,
    purpose: str,
    round_no: int,
    items: Iterable[int],
    context: Sequence[int] = (),
) -> tuple[list[int], DrawRecord]:
    """Order ``items`` by their lots (smallest first) and record the draw."""
    candidates = tuple(items)
    if len(set(candidates)) != len(candidates):
        raise ValueError("draw candidates must be distinct")
    order = sorted(candidates, key=lambda i: (lot(salt, purpose, round_no, i, context), i))
    record = DrawRecord(
        purpose=purpose,
        round_no=round_no,
        method=METHOD,
        inputs=candidates,
        outcome=tuple(order),
        context=tuple(context),
    )
    return order, record


def choose(
    salt: str,
    purpose: str,
    round_no: int,
    items: Iterable[int],
    context: Sequence[int] = (),
) -> tuple[int, DrawRecord]:
    """Pick one of ``items`` by lot: the one with the smallest lot. The record's outcome is
    the whole order (its first element is the choice)."""
    order, record = shuffle(salt, purpose, round_no, items, context)
    if not order:
        raise ValueError("cannot choose from no candidates")
    return order[0], record


def verify(record: DrawRecord, salt: str) -> bool:
    """Recompute a recorded draw from its salt: true when the outcome is what the rule gives."""
    order, _ = shuffle(salt, record.purpose, record.round_no, record.inputs, record.context)
    return tuple(order) == record.outcome


LEADER_PURPOSE = "first-leader"


def first_leader(
    salt: str,
    round_no: int,
    entry_a: int,
    players_a: Iterable[int],
    entry_b: int,
    players_b: Iterable[int],
) -> tuple[int, DrawRecord]:
    """Who leads the first hand at a table (the rules choose them by lot).

    The candidates are all players of both entries, in ascending id order; the context is the
    two entry ids in seat order, so the draw does not change when a table number does.
    """
    players = sorted(set(players_a) | set(players_b))
    return choose(salt, LEADER_PURPOSE, round_no, players, context=(entry_a, entry_b))
