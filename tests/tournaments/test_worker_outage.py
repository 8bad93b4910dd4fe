"""A Redis outage while a worker holds an unacknowledged task (``acks_late``).

kombu 5.7's Redis transport, closing the lost connection, restores the unacknowledged message
through a channel whose connection is already gone, and the worker died with
``Unrecoverable error: AttributeError("'NoneType' object has no attribute 'hostname'")``
(patched around in ``spinner/celery.py``). The test reproduces it with a real worker in the
production shape (prefork, gossip, mingle, events) on a ``redis-server`` of its own: a task held
in flight by a row lock, Redis stopped and started again, then a new task must be processed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import redis

from tests.conftest import ARTIFACTS, ROOT, poll
from tests.tournaments import test_live_worker as live
from tournaments.models import BackgroundJob

# The live tests' fixtures: a redis-server of the test's own, and this process's app on it.
redis_url = live.redis_url
app_on_redis = live.app_on_redis

pytestmark = [pytest.mark.redis, pytest.mark.postgres]


@pytest.fixture
def row_lock(postgres: None, settings: Any) -> Iterator[psycopg.Connection[Any]]:
    """A second PostgreSQL session, to hold a job's row lock while a worker waits on it."""
    db = settings.DATABASES["default"]
    conn = psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"])
    try:
        yield conn
    finally:
        conn.rollback()
        conn.close()


@pytest.fixture
def production_worker(
    postgres: None, app_on_redis: str, settings: Any, celery_worker_process: Any
) -> Iterator[Any]:
    """``celery worker`` as deployed (prefork, events, gossip, mingle) on the test's Redis.

    (``celery_worker_process`` is asked for so that tasks are published, not run eagerly.)
    """
    from spinner.celery import app

    queue = app.conf.task_default_queue
    db = settings.DATABASES["default"]
    env = dict(
        os.environ,
        REDIS_URL=app_on_redis,
        SPINNER_QUEUE=queue,
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    )
    ARTIFACTS.mkdir(exist_ok=True)
    log = ARTIFACTS / f"worker-outage-{queue}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "spinner", "worker", "-Q", queue),
                *("--concurrency", "2", "--events", "--loglevel", "INFO"),
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    proc.log = log  # type: ignore[attr-defined]
    yield proc
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.django_db(transaction=True)
def test_a_worker_survives_a_redis_outage_with_a_task_in_flight(
    production_worker: Any, app_on_redis: str, row_lock: psycopg.Connection[Any]
) -> None:
    from tournaments import tasks

    log = production_worker.log
    server = live._servers[app_on_redis]
    broker = redis.Redis.from_url(app_on_redis)

    held = BackgroundJob.objects.create(kind="ping")
    row_lock.execute("SELECT id FROM tournaments_backgroundjob WHERE id = %s FOR UPDATE", [held.pk])
    tasks.ping.delay(held.pk)
    # The worker took it and has not acknowledged it: it waits on our row lock.
    poll(lambda: broker.hlen("unacked") == 1, timeout=60)
    broker.close()

    server.stop()
    poll(lambda: b"Connection to broker lost" in log.read_bytes(), timeout=30)
    row_lock.rollback()  # the held task may finish now
    server.start()  # the same port

    fresh = BackgroundJob.objects.create(kind="ping")
    tasks.ping.delay(fresh.pk)

    def done() -> bool:
        assert production_worker.poll() is None, f"the worker died: {log.read_text()[-3000:]}"
        return BackgroundJob.objects.get(pk=fresh.pk).status == BackgroundJob.Status.DONE

    poll(done, timeout=90)
    assert b"Unrecoverable error" not in log.read_bytes()
    assert production_worker.poll() is None
