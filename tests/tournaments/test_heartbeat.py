"""The workers' heartbeat: a real worker fed by a real beat records it; the director's event page
says "Standings worker down since HH:MM UTC" (in the event's zone, labelled) once it goes stale.
Beat records its own (issue 28): a dead beat, which sends no worker heartbeat either, is named
"Scheduler (beat) down since HH:MM UTC", not "Standings worker down"."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.conftest import poll
from tests.tournaments import test_live_worker as live
from tests.tournaments.live_support import make_director, make_event
from tournaments.models import WorkerHeartbeat
from tournaments.selectors.health import BEAT_KEY, worker_health
from tournaments.services import heartbeat

# The live tests' fixtures: a redis-server of the test's own, a worker and a beat on it.
redis_url = live.redis_url
app_on_redis = live.app_on_redis
worker = live.worker
beat = live.beat


@pytest.fixture
def watched(settings: Any) -> Any:
    """Tasks go to workers (not eager), so there is a worker to watch."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.SPINNER_HEARTBEAT_STALE_SECONDS = 60
    return settings


def dashboard(client: Client, slug: str) -> str:
    page = client.get(reverse("director:event", args=[slug]))
    assert page.status_code == 200
    return page.content.decode()


@pytest.mark.django_db
def test_a_stale_heartbeat_says_since_when_the_worker_is_down(watched: Any) -> None:
    beat_at = timezone.now() - datetime.timedelta(minutes=5)
    WorkerHeartbeat.objects.create(worker="celery@a", beat_at=beat_at)
    health = worker_health()
    since = timezone.localtime(beat_at).strftime("%H:%M")
    assert health.down
    assert health.message == f"Standings worker down since {since} UTC."

    heartbeat.record_heartbeat(worker="celery@b")
    assert worker_health() == worker_health()  # stable
    assert not worker_health().down


@pytest.mark.django_db
def test_no_worker_ever_is_down_and_eager_tasks_have_none_to_watch(watched: Any) -> None:
    assert worker_health().down
    assert worker_health().message == (
        "Standings worker and scheduler (beat) down: no worker has reported, nor has beat."
    )
    heartbeat.record_beat()
    assert worker_health().message == "Standings worker down: no worker has reported."
    assert worker_health().fault == "worker_down"
    watched.CELERY_TASK_ALWAYS_EAGER = True
    assert not worker_health().down


@pytest.mark.django_db
def test_the_director_dashboard_shows_the_notice_only_when_down(
    watched: Any, client: Client
) -> None:
    event = make_event("heartbeat-page")
    client.force_login(make_director(event))
    beat_at = timezone.now() - datetime.timedelta(minutes=5)
    WorkerHeartbeat.objects.create(worker="celery@a", beat_at=beat_at)
    since = timezone.localtime(beat_at).strftime("%H:%M")
    assert f"Standings worker down since {since} UTC." in dashboard(client, event.slug)
    heartbeat.record_heartbeat(worker="celery@a")
    assert "worker_down" not in dashboard(client, event.slug)


@pytest.mark.django_db
def test_a_stale_beat_is_named_apart_from_a_stale_worker(watched: Any, client: Client) -> None:
    event = make_event("heartbeat-beat")
    client.force_login(make_director(event))
    long_ago = timezone.now() - datetime.timedelta(minutes=5)
    WorkerHeartbeat.objects.create(worker="celery@a", beat_at=long_ago)

    # Beat alive, the worker silent: the worker is down.
    heartbeat.record_beat()
    assert worker_health().fault == "worker_down"
    page = dashboard(client, event.slug)
    assert 'data-code="worker_down"' in page
    assert "Scheduler (beat) down" not in page

    # Beat silent too (it sends the workers' heartbeat): beat is the one named.
    beat_at = timezone.now() - datetime.timedelta(minutes=3)
    WorkerHeartbeat.objects.filter(worker=BEAT_KEY).update(beat_at=beat_at)
    health = worker_health()
    since = timezone.localtime(beat_at).strftime("%H:%M")
    assert (health.down, health.fault) == (True, "beat_down")
    assert health.message == f"Scheduler (beat) down since {since} UTC."
    assert health.last_beat == long_ago  # beat's row is not a worker's
    page = dashboard(client, event.slug)
    assert f"Scheduler (beat) down since {since} UTC." in page
    assert "one lost to an outage is not repaired until it is back" in page
    assert "Standings worker down" not in page

    # The worker beating again proves beat sends: nothing to say, whatever beat's own row.
    heartbeat.record_heartbeat(worker="celery@a")
    assert not worker_health().down
    assert "data-code" not in dashboard(client, event.slug)


@pytest.mark.django_db
def test_the_reconcile_logs_a_down_worker(watched: Any, caplog: pytest.LogCaptureFixture) -> None:
    from tournaments import tasks

    heartbeat.record_beat()  # beat runs the reconcile: it is alive, the worker is not
    assert tasks.reconcile_standings.apply().get() == {}
    assert "Standings worker down: no worker has reported." in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_beats_and_is_reported_down_once_stopped(
    watched: Any,
    worker: Any,
    beat: Any,
    client: Client,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SPINNER_HEARTBEAT_SECONDS", "1")
    event = make_event("heartbeat-live")
    client.force_login(make_director(event))
    proc = worker()
    beat()

    poll(lambda: not worker_health().down, timeout=60)
    assert "worker_down" not in dashboard(client, event.slug)
    first = WorkerHeartbeat.objects.exclude(worker=BEAT_KEY).get().beat_at
    poll(
        lambda: WorkerHeartbeat.objects.exclude(worker=BEAT_KEY).get().beat_at > first, timeout=30
    )  # it keeps beating

    proc.terminate()
    proc.wait(timeout=30)
    watched.SPINNER_HEARTBEAT_STALE_SECONDS = 3
    poll(lambda: worker_health().down, timeout=30)
    since = timezone.localtime(
        WorkerHeartbeat.objects.exclude(worker=BEAT_KEY).get().beat_at
    ).strftime("%H:%M")
    assert f"Standings worker down since {since} UTC." in dashboard(client, event.slug)


@pytest.mark.django_db(transaction=True)
def test_a_real_beat_records_its_own_heartbeat_and_is_named_down_once_stopped(
    watched: Any,
    worker: Any,
    beat: Any,
    client: Client,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SPINNER_HEARTBEAT_SECONDS", "1")
    event = make_event("heartbeat-beat-live")
    client.force_login(make_director(event))
    worker()
    scheduler = beat()

    poll(lambda: WorkerHeartbeat.objects.filter(worker=BEAT_KEY).exists(), timeout=60)
    poll(lambda: not worker_health().down, timeout=60)
    first = WorkerHeartbeat.objects.get(worker=BEAT_KEY).beat_at
    poll(lambda: WorkerHeartbeat.objects.get(worker=BEAT_KEY).beat_at > first, timeout=30)

    scheduler.terminate()  # beat stops; the worker runs on
    scheduler.wait(timeout=30)
    watched.SPINNER_HEARTBEAT_STALE_SECONDS = 3
    poll(lambda: worker_health().fault == "beat_down", timeout=30)
    since = timezone.localtime(WorkerHeartbeat.objects.get(worker=BEAT_KEY).beat_at)
    page = dashboard(client, event.slug)
    assert f"Scheduler (beat) down since {since:%H:%M} UTC." in page
    assert "Standings worker down" not in page

    beat()  # back: it beats, and it sends the workers' heartbeat again
    poll(lambda: not worker_health().down, timeout=60)
    assert "data-code" not in dashboard(client, event.slug)
