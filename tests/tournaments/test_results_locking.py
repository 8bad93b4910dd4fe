"""What a result write locks, on the real PostgreSQL: the match row, not its round or event.

While one table's write holds its match's lock (its transaction still open), another table of
the same round must get through at once, and the round and event rows must stay free (closing
the round, revoking its links, editing the event do not queue behind a table's submission).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection, transaction

from tests.tournaments.results_support import make_event, make_round, match_at, sheet
from tournaments.models import Claim, Event, Match, Round
from tournaments.services import claims, results

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT = 30  # seconds: a bound on the coordination, never a sleep


@contextmanager
def match_lock_held(match: Match) -> Iterator[None]:
    """Another connection takes the match's lock as a write does, and holds it until exit."""
    held, release = threading.Event(), threading.Event()
    failure: list[BaseException] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                results.lock_match(match)
                held.set()
                release.wait(timeout=WAIT)
        except BaseException as exc:  # pragma: no cover - reported below
            failure.append(exc)
            held.set()
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert held.wait(timeout=WAIT) and not failure, failure
        yield
    finally:
        release.set()
        thread.join(timeout=WAIT)


@contextmanager
def lock_timeout() -> Iterator[None]:
    """A transaction in which waiting for any row lock fails after a second (instead of
    queueing): a blocked statement raises rather than hanging the test."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '1s'")
        yield


def test_a_tables_write_locks_its_match_only(postgres: None) -> None:
    rnd = make_round(make_event())
    first, second = match_at(rnd, 1), match_at(rnd, 2)
    with match_lock_held(first):
        with lock_timeout():
            Round.objects.select_for_update(nowait=True).get(pk=rnd.pk)
            Event.objects.select_for_update(nowait=True).get(pk=rnd.event_id)
        with lock_timeout():
            out = claims.submit_claim(match=second, side=0, sheet=sheet("tally"))
        assert out.created and out.state == "pending"
    assert Claim.objects.filter(match=second).count() == 1


def test_the_same_match_still_waits_for_its_lock(postgres: None) -> None:
    from django.db import OperationalError

    rnd = make_round(make_event())
    first = match_at(rnd, 1)
    with (
        match_lock_held(first),
        pytest.raises(OperationalError, match="lock timeout"),
        lock_timeout(),
    ):
        claims.submit_claim(match=first, side=0, sheet=sheet("tally"))
    assert not Claim.objects.exists()
