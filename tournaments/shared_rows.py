"""Writes to rows that every result of an event touches, made last in their transaction.

A confirmed result bumps its event's ``StandingsState`` row (``results.note_results_changed``)
and, in a rated event, updates the event's one pending re-rate mark (``ratings.request_rerate``),
in the result's own transaction: each of those ``UPDATE``\\s (or ``SELECT ... FOR UPDATE``) holds
the row's lock until that transaction commits. Made where the result is written, the lock was
held through the rest of the request's transaction too (the audit record, the answer built and
stored for its idempotency key) and every other table's confirmation in the event waited behind
it: at 500 tables, 3 to 9 confirmations at once were waiting on that one row (``pg_stat_activity``
during ``benchmarks/load/harness.py``).

:func:`last` puts such a write off to the end of the request's transaction: a table's write (the
API's ``run_idempotent``) runs its action inside :func:`collecting`, then stores its answer, then
makes the collected writes, then commits; the row is held for those last statements only.
Outside :func:`collecting` (a director's page, a task, a test calling a service) :func:`last`
writes at once, as before. The writes stay in the same transaction as the result, so nothing the
design of the standings relies on changes (``services/standings.py``: the generation moves with
the result it counts, in one commit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_collected: ContextVar[list[Callable[[], None]] | None] = ContextVar("shared_rows", default=None)


def last(write: Callable[[], None]) -> None:
    """Make ``write`` at the end of the transaction of the :func:`collecting` around this call;
    at once when there is none."""
    writes = _collected.get()
    if writes is None:
        write()
    else:
        writes.append(write)


class Collected:
    """The writes put off meanwhile: :meth:`make` them (in the transaction) or :meth:`drop`
    them (the action they belong to was rolled back)."""

    def __init__(self) -> None:
        self.writes: list[Callable[[], None]] = []

    def make(self) -> None:
        writes = list(self.writes)
        self.writes.clear()
        for write in writes:
            write()

    def drop(self) -> None:
        self.writes.clear()


@contextmanager
def collecting() -> Iterator[Collected]:
    """Collect the :func:`last` writes made inside; the caller makes them before its commit
    (or drops them with a rolled-back action). Not nested: an inner one would make its writes
    earlier, which is only slower."""
    collected = Collected()
    token = _collected.set(collected.writes)
    try:
        yield collected
    finally:
        _collected.reset(token)
