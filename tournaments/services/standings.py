"""Standings: dirty marks, coalesced recomputes, snapshots and the reconcile.

The design (issue 8)
--------------------
*Dirty marks.* Every confirmed or corrected result bumps ``StandingsState.results_generation`` and
sets ``dirty`` inside the transaction that confirms it (``results.note_results_changed``, which the
result writer calls) and, once the transaction commits, asks for a recompute
(:func:`request_recompute`). Pages say "updating" while ``dirty`` is set. A recompute clears
``dirty`` only if the generation it read is still the latest (a conditional ``UPDATE``, in a
statement of its own after the snapshot commits: holding the state row across that commit deadlocked
with submissions, whose match lock also locks the event row that the snapshot's deferred foreign-key
check waits on), and records that generation in ``StandingsRecompute.computed_generation``, a row
only the recompute writes.

*One recompute at a time, per event.* :func:`recompute_standings` holds a PostgreSQL session
advisory lock on ``(LOCK_CLASS, event_id)`` (``pg_try_advisory_lock``) for the whole recompute
(inside a caller's transaction, a transaction-level ``pg_try_advisory_xact_lock``: held until the
snapshot commits with that transaction). A
second recompute of the same event does not wait: it returns ``busy`` and a follow-up is scheduled.
The lock lives in the database, not in Redis, so a worker killed mid-recompute (SIGKILL) releases
it with its connection, and a Redis outage cannot leave it held. On SQLite (development) the
``IMMEDIATE`` write transaction serialises recomputes instead.

*At most one every 2 s.* Requests are coalesced in Redis: :func:`request_recompute` does
``SET live:standings:scheduled:<event> NX`` (Django's cache ``add``) and only the request that sets
the key sends a task, with a countdown of whatever is left of the 2 s since the last recompute
started (``StandingsRecompute.last_started_at``). Any further request while that task waits is
absorbed: the task reads the results when it runs, so it sees them. The task deletes the key
*before* it reads anything, so a result arriving during a recompute schedules the next one (2 s
later). The interval is also checked under the lock, from the database, so duplicates (an
``acks_late`` redelivery, the reconcile) can neither overlap nor come closer than 2 s: they are
deferred.

*Idempotent.* A recompute reads ``results_generation`` first, then the records (in one
``REPEATABLE READ`` transaction on PostgreSQL), so it never marks clean a change it did not see.
The snapshot's bytes are canonical: the same records give the same bytes, and a recompute whose
bytes equal the latest snapshot's adds no generation (it only records the version it covered).
Running a recompute twice is therefore harmless.

*Convergence.* Publishing never fails the caller (a broker outage is logged); a message can be lost
and a worker can die. The periodic :func:`reconcile_standings` (Celery beat, every
``SPINNER_RECONCILE_SECONDS``, 30 by default) recomputes every dirty event and every event with a
confirmed result newer than its latest recompute (a writer that bypassed the dirty mark), so the
standings always converge. Tested with real workers on a Redis of the test's own: a worker killed
mid-recompute, and Redis stopped during submissions (``tests/tournaments/test_live_worker.py``).

*Pages.* Public pages read the latest snapshot only (``selectors.standings``); its generation and
the dirty mark make the ETag, so an unchanged page answers 304.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F
from django.db.models.functions import Coalesce, Now
from django.utils import timezone

from spinner.celery import app
from tournaments import follow_versions
from tournaments.models import (
    StandingsRecompute,
    StandingsSnapshot,
    StandingsState,
)
from tournaments.queueing import send_task_safely
from tournaments.selectors import standings_records
from tournaments.services import snapshot_pruning, webhooks

logger = logging.getLogger(__name__)

RECOMPUTE_TASK = "tournaments.recompute_event_standings"


COALESCE_SECONDS = 2.0
"""At most one recompute per event in this many seconds (start to start)."""


LOCK_CLASS = 0x5354  # "ST": the first key of the advisory lock, the event id is the second


SCHEDULED_TTL_MARGIN = 10.0
"""The scheduled key outlives its task's countdown by this much, then expires: a lost message
blocks new requests for at most this long (and the reconcile catches up meanwhile)."""


Status = Literal["busy", "deferred", "current", "unchanged", "new"]


@dataclass(frozen=True)
class RecomputeOutcome:
    """What a recompute did.

    - ``busy``: another recompute of the event holds the lock (nothing done);
    - ``deferred``: the last recompute started less than 2 s ago (nothing done; ``wait`` says for
      how much longer);
    - ``current``: the latest snapshot already covers the latest results generation (nothing
      done);
    - ``unchanged``: recomputed, same bytes as the latest snapshot: no new generation;
    - ``new``: a new snapshot, ``generation``.
    """

    status: Status
    generation: int | None = None
    wait: float = 0.0


def scheduled_key(event_id: int) -> str:
    return f"live:standings:scheduled:{event_id}"


def _eager() -> bool:
    return bool(app.conf.task_always_eager)


def _send(event_id: int, countdown: float) -> bool:
    """Send the recompute task now (False, logged, when the broker refuses: reconcile will)."""
    return send_task_safely(RECOMPUTE_TASK, event_id, countdown=countdown)


def _wait_left(last_started_at: datetime | None) -> float:
    if last_started_at is None:
        return 0.0
    elapsed = (timezone.now() - last_started_at).total_seconds()
    return max(0.0, COALESCE_SECONDS - elapsed)


def _last_started(event_id: int) -> datetime | None:
    return (
        StandingsRecompute.objects.filter(pk=event_id)
        .values_list("last_started_at", flat=True)
        .first()
    )


def request_recompute(*, event_id: int, countdown: float | None = None) -> bool:
    """Ask for a recompute of the event, coalesced; True when this call sent a task.

    At most one task per event waits at a time (the Redis key :func:`scheduled_key`, set NX); it
    runs no sooner than 2 s after the previous recompute started. Never raises: when Redis is down
    the request is dropped (logged) and the reconcile catches up. With eager tasks (no Redis: the
    development default) the recompute runs at once.
    """
    try:
        if _eager():
            _send(event_id, 0)
            return True
        if countdown is None:
            if cache.get(scheduled_key(event_id)) is not None:
                return False  # already scheduled: the common case in a burst, one Redis read
            countdown = _wait_left(_last_started(event_id))
        if not cache.add(scheduled_key(event_id), "1", timeout=countdown + SCHEDULED_TTL_MARGIN):
            return False  # already scheduled (or the cache is down: then so is the broker)
        if not _send(event_id, countdown):
            cache.delete(scheduled_key(event_id))
            return False
        return True
    except Exception:  # a request must never fail the submission that made it
        logger.exception("could not request the standings of event %s", event_id)
        return False


def recompute_after_settings_change(*, event_id: int) -> RecomputeOutcome:
    """The event's standings settings changed (its tiebreaks, its match points): in the caller's
    transaction, move the results generation on (so no later recompute calls the old snapshot
    current) and recompute now, forced. When another recompute holds the lock (``busy``) the
    standings stay marked dirty and one is requested once the change commits (the reconcile
    catches up should that request be lost)."""
    StandingsState.objects.get_or_create(event_id=event_id)
    StandingsState.objects.filter(pk=event_id).update(
        results_generation=F("results_generation") + 1,
        dirty=True,
        dirty_since=Coalesce(F("dirty_since"), Now()),
    )
    outcome = recompute_standings(event_id=event_id, force=True)
    if outcome.status == "busy":
        transaction.on_commit(lambda: request_recompute(event_id=event_id))
    return outcome


def run_requested_recompute(*, event_id: int) -> RecomputeOutcome:
    """The body of the recompute task: clear the request, recompute, reschedule if refused.

    Deleting the scheduled key first means a result confirmed from now on asks for another run,
    so nothing is missed; a ``busy`` or ``deferred`` outcome schedules the follow-up itself.
    """
    cache.delete(scheduled_key(event_id))
    outcome = recompute_standings(event_id=event_id, throttle=not _eager())
    if outcome.status in ("busy", "deferred"):
        request_recompute(
            event_id=event_id,
            countdown=outcome.wait if outcome.status == "deferred" else COALESCE_SECONDS,
        )
    return outcome


@contextmanager
def _recompute_lock(event_id: int) -> Iterator[bool]:
    """Yield True when this process holds the event's recompute lock (see the module doc)."""
    if connection.vendor != "postgresql":
        yield True
        return
    if connection.in_atomic_block:
        # Inside a caller's transaction the snapshot commits only with it: hold the lock until
        # then (a transaction-level lock), or a second recompute writes the same generation.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [LOCK_CLASS, event_id])
            row = cursor.fetchone()
        yield bool(row and row[0])
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_CLASS, event_id])
        row = cursor.fetchone()
    acquired = bool(row and row[0])
    try:
        yield acquired
    finally:
        if acquired:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_CLASS, event_id])


def recompute_standings(
    *, event_id: int, force: bool = False, throttle: bool = False
) -> RecomputeOutcome:
    """Recompute the event's standings from its confirmed results; idempotent.

    Holds the event's recompute lock (``busy`` when another holds it). With ``throttle``, refuses
    (``deferred``) when the last recompute started less than 2 s ago. Without ``force``, does
    nothing (``current``) when the latest snapshot covers the latest results generation.
    Otherwise computes the canonical bytes and adds a generation only when they differ from the
    latest snapshot's (``new``; else ``unchanged``). See the module doc for why this is safe to
    run twice.
    """
    StandingsState.objects.get_or_create(event_id=event_id)
    StandingsRecompute.objects.get_or_create(event_id=event_id)
    with _recompute_lock(event_id) as acquired:
        if not acquired:
            return RecomputeOutcome("busy")
        outcome, generation_read = _recompute_locked(event_id, force=force, throttle=throttle)
        if generation_read is not None:
            # After the snapshot's commit, in a statement of its own: the snapshot's deferred
            # foreign-key check at COMMIT may wait on a submission that locked the event row,
            # and that submission may be waiting to bump this very row: holding it across the
            # commit would deadlock.
            cleaned = _clean(event_id, generation_read)
            if cleaned or outcome.status == "new":
                # the public pages show the new snapshot, or no longer say "updating"
                follow_versions.bump_pages_of(event_id)
            if outcome.status == "new":
                snapshot_pruning.prune_after_new_snapshot(event_id=event_id)
        return outcome


def _recompute_locked(
    event_id: int, *, force: bool, throttle: bool
) -> tuple[RecomputeOutcome, int | None]:
    """The recompute's transaction; returns the outcome and the generation it covers (None when
    it did nothing)."""
    outermost = not connection.in_atomic_block  # False inside a test's wrapping transaction
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            # Every read below sees one snapshot of the database: the generation and the records
            # agree with each other.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        started = timezone.now()
        clock = time.perf_counter()
        bookkeeping = StandingsRecompute.objects.get(pk=event_id)
        if throttle:
            wait = _wait_left(bookkeeping.last_started_at)
            if wait > 0:
                return RecomputeOutcome("deferred", wait=wait), None
        generation_read = StandingsState.objects.values_list("results_generation", flat=True).get(
            pk=event_id
        )
        latest = (
            StandingsSnapshot.objects.filter(event_id=event_id)
            .order_by("-generation")
            .values_list("generation", "digest")
            .first()
        )
        if not force and latest is not None and bookkeeping.computed_generation >= generation_read:
            # Clean all the same: a late duplicate mark may have set it again.
            return RecomputeOutcome("current", generation=latest[0]), generation_read
        data, computed_from, round_number = standings_records.compute_snapshot(event_id=event_id)
        digest = hashlib.sha256(data).hexdigest()
        status: Status
        if latest is not None and latest[1] == digest:
            generation, status = latest[0], "unchanged"
        else:
            generation, status = (latest[0] if latest else 0) + 1, "new"
            _compress_quickly()
            StandingsSnapshot.objects.create(
                event_id=event_id,
                generation=generation,
                results_generation=generation_read,
                computed_from=computed_from,
                digest=digest,
                data=data.decode("utf-8"),
                round_number=round_number,
            )
            # in the snapshot's transaction: queued once per generation, sent after commit
            webhooks.standings_updated(event_id=event_id, generation=generation)
        StandingsRecompute.objects.filter(pk=event_id).update(
            computed_generation=generation_read,
            last_started_at=started,
            last_finished_at=timezone.now(),
            last_duration_ms=int((time.perf_counter() - clock) * 1000),
            last_status=status,
            recomputes=F("recomputes") + 1,
        )
        return RecomputeOutcome(status, generation=generation), generation_read


_lz4: bool | None = None  # whether the database can compress stored values with lz4


def _compress_quickly() -> None:
    """Within the recompute's transaction, on a PostgreSQL that has lz4 (14 and later, as
    packaged): the snapshot about to be written is compressed with lz4 rather than pglz, which
    took 14 ms of the server's CPU for a 2,000-entry event's 0.9 MB against 6 ms
    (benchmarks/standings/RESULTS.md); pages read it back faster too. Asked once per process."""
    global _lz4
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        if _lz4 is None:
            cursor.execute(
                "SELECT 'lz4' = ANY(enumvals) FROM pg_settings"
                " WHERE name = 'default_toast_compression'"
            )
            row = cursor.fetchone()
            _lz4 = bool(row and row[0])
        if _lz4:
            cursor.execute("SET LOCAL default_toast_compression = 'lz4'")


def _clean(event_id: int, generation_read: int) -> int:
    """Clear the dirty mark only if no result changed since the generation the recompute read
    (else the standings stay "updating" and the next recompute, already requested, runs).
    How many rows it cleared (0 or 1)."""
    return StandingsState.objects.filter(
        pk=event_id, results_generation=generation_read, dirty=True
    ).update(dirty=False, dirty_since=None)


def events_to_reconcile() -> tuple[set[int], set[int]]:
    """Events whose standings lag their results: ``(dirty, stale)``.

    *dirty*: marked dirty, or whose results generation is ahead of the generation last computed;
    *stale*: whose latest snapshot is older than their latest confirmed result (a change whose
    mark was lost): these are recomputed with ``force``.
    """

    marked = set(StandingsState.objects.filter(dirty=True).values_list("event_id", flat=True))
    behind = set(
        StandingsState.objects.filter(
            results_generation__gt=Coalesce(F("event__standings_recompute__computed_generation"), 0)
        ).values_list("event_id", flat=True)
    )
    stale = set(standings_records.events_with_results_newer_than_snapshot())
    return marked | behind, stale


def reconcile_standings() -> dict[int, str]:
    """Recompute every event that lags (see :func:`events_to_reconcile`); safe to run any time.

    An event that is busy or was recomputed less than 2 s ago is left to its follow-up (requested
    again here, in case that message was lost). Returns each event's outcome.
    """
    dirty, stale = events_to_reconcile()
    outcomes: dict[int, str] = {}
    for event_id in sorted(dirty | stale):
        try:
            outcome = recompute_standings(event_id=event_id, force=event_id in stale, throttle=True)
        except Exception:  # one broken event must not stop the others converging
            logger.exception("reconcile: the standings of event %s failed", event_id)
            outcomes[event_id] = "failed"
            continue
        if outcome.status in ("busy", "deferred"):
            request_recompute(event_id=event_id, countdown=outcome.wait)
        outcomes[event_id] = outcome.status
    return outcomes
