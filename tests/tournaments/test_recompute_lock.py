"""A recompute holds its lock until its snapshot commits (issue 15), on PostgreSQL.

A recompute run inside a longer transaction (as round generation once did) released its
session advisory lock at the end of the recompute, before the enclosing transaction committed
its snapshot; a second recompute then took the lock, did not see the uncommitted snapshot,
wrote the same generation and failed with ``IntegrityError`` on
``standings_generation_per_event`` once the first committed.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction

from tests.conftest import poll
from tests.tournaments.live_support import make_entries, make_event, make_round, submit_both
from tournaments.models import StandingsSnapshot
from tournaments.services import standings as recompute

pytestmark = pytest.mark.postgres


def _waiting_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return bool(row and row[0] == "Lock")


@pytest.mark.django_db(transaction=True)
def test_a_recompute_inside_a_transaction_keeps_the_lock_until_it_commits(postgres: None) -> None:
    event = make_event("lock-race", allow_final_score_only=True)
    entries = make_entries(event, 4)
    matches = make_round(event, 1, [(entries[0], entries[1]), (entries[2], entries[3])])
    submit_both(matches[0], 100, 90)
    submit_both(matches[1], 100, 70)
    # (Tasks run eagerly here, so the standings are current: start again from no snapshot, so
    # that each recompute below has a generation to write.)
    StandingsSnapshot.objects.filter(event=event).delete()

    second: dict[str, Any] = {}
    started = threading.Event()

    def other_recompute() -> None:
        from django.db import connection as own

        try:
            with own.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                second["pid"] = cursor.fetchone()[0]
            started.set()
            second["outcome"] = recompute.recompute_standings(event_id=event.pk, force=True).status
        except Exception as exc:  # the failure under test: reported, not lost in the thread
            second["error"] = exc
        finally:
            started.set()
            own.close()

    with transaction.atomic():  # the enclosing transaction (round generation, say)
        first = recompute.recompute_standings(event_id=event.pk, force=True)
        assert first.status == "new"
        thread = threading.Thread(target=other_recompute)
        thread.start()
        started.wait(timeout=30)
        # Either the other recompute is refused at once (busy), or it is blocked writing the
        # same generation behind our uncommitted snapshot (the bug): wait for one or the other.
        poll(
            lambda: "outcome" in second or "error" in second or _waiting_on_a_lock(second["pid"]),
            timeout=30,
        )
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert "error" not in second, repr(second.get("error"))
    assert second["outcome"] == "busy"
    generations = list(
        StandingsSnapshot.objects.filter(event=event)
        .order_by("generation")
        .values_list("generation", flat=True)
    )
    assert generations == [1]


@pytest.mark.django_db(transaction=True)
def test_the_lock_is_free_again_after_the_enclosing_transaction(postgres: None) -> None:
    event = make_event("lock-free", allow_final_score_only=True)
    entries = make_entries(event, 2)
    matches = make_round(event, 1, [(entries[0], entries[1])])
    submit_both(matches[0], 100, 90)
    StandingsSnapshot.objects.filter(event=event).delete()
    with transaction.atomic():
        assert recompute.recompute_standings(event_id=event.pk, force=True).status == "new"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s "
            "AND objid = %s",
            [recompute.LOCK_CLASS, event.pk],
        )
        assert cursor.fetchone()[0] == 0
    assert recompute.recompute_standings(event_id=event.pk, force=True).status == "unchanged"
