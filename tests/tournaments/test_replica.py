"""Public pages read from a real PostgreSQL streaming replica (``.ci/replica`` starts one with
pg_basebackup; ``DATABASE_REPLICA_URL`` points at it), everything else and every write from the
primary, and a replica too far behind is not read.

Transactional tests: what the replica is to show must be committed on the primary first, then
streamed (the tests poll for it)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests import factories
from tests.conftest import missing, poll
from tournaments import replica
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


@pytest.fixture
def streaming(settings: Any) -> None:
    if replica.REPLICA not in settings.DATABASES:
        missing("needs a streaming replica: .ci/replica, then DATABASE_REPLICA_URL")
    settings.SPINNER_REPLICA_READS = True
    settings.SPINNER_REPLICA_MAX_LAG_SECONDS = 5.0
    replica._measured.clear()  # measure the lag afresh under these settings


def _replicated(slug: str) -> Event:
    factories.make_event(slug, public_listing=True)
    return poll(lambda: Event.objects.using(replica.REPLICA).filter(slug=slug).first())


def _reads(queries: CaptureQueriesContext, table: str) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if table in q["sql"]]


def test_a_public_page_reads_from_the_replica_and_a_director_page_from_the_primary(
    streaming: None,
) -> None:
    event = _replicated("streamed")
    client = Client()
    with (
        CaptureQueriesContext(connections["default"]) as primary,
        CaptureQueriesContext(connections[replica.REPLICA]) as standby,
    ):
        response = client.get(f"/events/{event.slug}/")
    assert response.status_code == 200
    assert "Streamed" in response.content.decode()
    assert _reads(standby, "tournaments_event")
    assert not _reads(primary, "tournaments_event")

    director = factories.make_director(event, "streaming-director", password="pw-12345678")
    client.force_login(director)
    with CaptureQueriesContext(connections[replica.REPLICA]) as standby:
        page = client.get(f"/director/events/{event.slug}/")
    assert page.status_code == 200
    assert not standby.captured_queries  # the director reads their own writes: the primary


def test_a_replica_too_far_behind_is_not_read(streaming: None, settings: Any) -> None:
    event = _replicated("behind")
    settings.SPINNER_REPLICA_MAX_LAG_SECONDS = -1.0  # any lag is too much
    replica._measured.clear()
    with CaptureQueriesContext(connections["default"]) as primary:
        response = Client().get(f"/events/{event.slug}/")
    assert response.status_code == 200
    assert _reads(primary, "tournaments_event")


def test_a_row_read_from_the_replica_is_written_to_the_primary(streaming: None) -> None:
    event = _replicated("written")
    with replica.replica_reads():
        copy = Event.objects.get(pk=event.pk)
        assert copy._state.db == replica.REPLICA
        copy.venue = "Hall B"
        copy.save(update_fields=["venue"])  # a read-only standby would refuse it
    assert Event.objects.using("default").get(pk=event.pk).venue == "Hall B"
    poll(lambda: Event.objects.using(replica.REPLICA).get(pk=event.pk).venue == "Hall B")


def test_readyz_reports_the_replica_and_its_lag(streaming: None, settings: Any) -> None:
    settings.REDIS_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    response = Client().get("/readyz", HTTP_ACCEPT="application/json")
    body = json.loads(response.content)
    assert response.status_code == 200, body
    assert body["ReplicaLag()"] == "OK"
    assert body["Database(alias='replica')"] == "OK"
    lag = replica.replica_lag()
    assert lag is not None and 0 <= lag < 5
    settings.SPINNER_REPLICA_MAX_LAG_SECONDS = -1.0
    assert Client().get("/readyz", HTTP_ACCEPT="application/json").status_code == 503


def test_the_replica_is_never_migrated() -> None:
    router = replica.ReplicaRouter()
    assert router.allow_migrate(replica.REPLICA, "tournaments") is False
    assert router.allow_migrate("default", "tournaments") is True
    assert router.db_for_write(Event) == "default"
