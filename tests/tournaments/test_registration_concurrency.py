"""The registration constraints hold under concurrent requests on PostgreSQL.

Eight threads start together (a barrier) and each uses its own database connection: exactly one
wins, the others get a clear application error (or, through the web, a page), never a 500.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from tournaments.errors import SpinnerError
from tournaments.models import AuditEntry, Entry, EntryPlayer, Event, Player
from tournaments.services import entries
from tournaments.services import events as event_services
from tournaments.services.entries import PlayerSpec

THREADS = 8
DAY = datetime.date(2026, 12, 5)


def race(work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in THREADS threads released together; return results or exceptions."""
    barrier = threading.Barrier(THREADS)
    results: list[Any] = [None] * THREADS

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = work(i)
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    return results


@pytest.fixture
def director(postgres: None) -> User:
    return User.objects.create_user("dora", password="pw")


@pytest.fixture
def event(director: User) -> Event:
    return event_services.create_event(
        actor=director, name="Race Open", start_date=DAY, end_date=DAY
    )


@pytest.mark.django_db(transaction=True)
def test_one_player_registered_into_eight_entries_at_once(director: User, event: Event) -> None:
    star = Player.objects.create(name="Star", club="S")
    partners = [Player.objects.create(name=f"Partner {i}", club="S") for i in range(THREADS)]

    results = race(
        lambda i: entries.register_entry(actor=director, event=event, players=[star, partners[i]])
    )
    wins = [r for r in results if isinstance(r, Entry)]
    losses = [r for r in results if isinstance(r, SpinnerError)]
    assert len(wins) == 1 and len(losses) == THREADS - 1, results
    assert {e.code for e in losses} == {"player_already_entered"}
    assert EntryPlayer.objects.filter(event=event, player=star).count() == 1
    assert Entry.objects.filter(event=event).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_new_player_typed_by_eight_directors_is_created_once(
    director: User, event: Event
) -> None:
    results = race(
        lambda i: entries.register_entry(
            actor=director,
            event=event,
            players=[PlayerSpec("New Star", "S"), PlayerSpec(f"Partner {i}", "S")],
        )
    )
    assert sum(isinstance(r, Entry) for r in results) == 1, results
    assert {r.code for r in results if isinstance(r, SpinnerError)} == {"player_already_entered"}
    assert Player.objects.filter(name="New Star").count() == 1


@pytest.mark.django_db(transaction=True)
def test_eight_check_ins_of_one_entry_through_the_web(director: User, event: Event) -> None:
    entry = entries.register_entry(
        actor=director, event=event, players=[PlayerSpec("A", "S"), PlayerSpec("B", "S")]
    )
    url = f"/director/events/{event.slug}/entries/{entry.pk}/check-in/"

    def tap(_: int) -> int:
        client = Client()
        client.force_login(director)
        return client.post(url, HTTP_HX_REQUEST="true").status_code

    statuses = race(tap)
    assert statuses == [200] * THREADS, statuses
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.CHECKED_IN
    assert AuditEntry.objects.filter(event=event, action="entry.check_in").count() == 1


@pytest.mark.django_db(transaction=True)
def test_eight_web_registrations_of_the_same_player(director: User, event: Event) -> None:
    url = f"/director/events/{event.slug}/entries/add/"

    def submit(i: int) -> int:
        client = Client()
        client.force_login(director)
        form = {
            "player_a": "Star",
            "club_a": "S",
            "player_b": f"Partner {i}",
            "club_b": "S",
        }
        return client.post(url, form).status_code

    statuses = race(submit)
    # One redirect (created) and seven forms shown again with the error: no server error.
    assert sorted(statuses) == [200] * (THREADS - 1) + [302], statuses
    assert Entry.objects.filter(event=event).count() == 1
    assert Player.objects.filter(name="Star").count() == 1
