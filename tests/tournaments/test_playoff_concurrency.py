"""The last two results of a play-off round confirmed at once, on the real PostgreSQL: each
commit runs the advance (the task, eager here); the event row's lock lets exactly one write the
next round, and the other finds it done."""

from __future__ import annotations

import logging
import threading
from typing import Any

import pytest
from django.db import connection

from tests.tournaments.bracket_support import decide, playoff_event, seed
from tournaments.models import Match, Round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT = 30  # seconds: a bound on the coordination, never a sleep


def test_two_last_results_at_once_advance_the_play_off_once(postgres: None, caplog: Any) -> None:
    event, boss, entries = playoff_event("race", 4)
    first = seed(event, boss, entries)
    slots = list(Match.objects.filter(round=first).values_list("bracket_slot", "entry_a_id"))
    assert len(slots) == 2
    start = threading.Barrier(2, timeout=WAIT)
    failures: list[BaseException] = []

    def confirm(slot: str, winner: int) -> None:
        try:
            start.wait()
            decide(first, slot, winner, boss)  # its commit enqueues the advance
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=s) for s in slots]
    with caplog.at_level(logging.ERROR):
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=WAIT)
    assert not failures, failures
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    assert [(r.number, r.status) for r in rounds] == [(1, "closed"), (2, "draft")]
    assert list(rounds[1].matches.values_list("bracket_slot", flat=True)) == ["W2-1"]
