"""Live standings with real Celery workers on a real Redis and PostgreSQL.

Every test here starts its OWN ``redis-server`` on a free port (never the machine's), points the
worker processes and this process's Celery app and cache at it, and polls with deadlines.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from tests.conftest import ARTIFACTS, ROOT, free_port, missing, poll
from tests.tournaments.live_support import (
    latest_generation,
    make_entries,
    make_event,
    make_round,
    submit_both,
)
from tournaments.models import (
    Event,
    Match,
    StandingsRecompute,
    StandingsSnapshot,
    StandingsState,
)
from tournaments.services import standings

pytestmark = [pytest.mark.redis, pytest.mark.postgres]


class RedisServer:
    """A throw-away ``redis-server`` (no persistence) that a test may stop and start again."""

    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    "redis-server",
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        import redis

        def answers() -> bool:
            try:
                return bool(redis.Redis.from_url(self.url, socket_connect_timeout=0.2).ping())
            except redis.RedisError:
                return False

        poll(answers, timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:  # overrides tests/conftest.py's: our own server
    server = _own_redis(tmp_path)
    try:
        yield server.url
    finally:
        server.stop()


_servers: dict[str, RedisServer] = {}


def _own_redis(tmp_path: Path) -> RedisServer:
    if not shutil.which("redis-server"):
        missing("needs redis-server (apt-get install redis-server)")
    ARTIFACTS.mkdir(exist_ok=True)
    server = RedisServer(free_port(), ARTIFACTS / f"redis-{tmp_path.name}.log")
    server.start()
    _servers[server.url] = server
    return server


@pytest.fixture
def app_on_redis(redis_url: str, settings: Any) -> Iterator[str]:
    """This process's Celery app and cache on the test's own Redis (restored afterwards)."""
    from spinner.celery import app

    def reset_pools() -> None:
        # Celery keeps its connection and producer pools, and kombu keeps a registry of pools
        # by connection: close and forget them all, so the next publish connects afresh (to the
        # new broker now, to the old one afterwards).
        from kombu import pools

        pools.reset()
        app._pool = None
        amqp = app.__dict__.get("amqp")
        if amqp is not None:
            amqp._producer_pool = None

    old_url = app.conf.broker_url
    reset_pools()
    app.conf.broker_url = redis_url
    settings.CACHES = {
        "default": {
            "BACKEND": "tournaments.cache.FailOpenRedisCache",
            "LOCATION": redis_url,
            # The worker processes' own prefix (spinner/settings.py): web and worker share
            # keys, such as the one that says a recompute is already scheduled.
            "KEY_PREFIX": "spinner",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    try:
        yield redis_url
    finally:
        reset_pools()
        app.conf.broker_url = old_url


Starter = Callable[..., subprocess.Popen[bytes]]


@pytest.fixture
def worker(
    postgres: None,
    celery_worker_process: Starter,
    app_on_redis: str,
    monkeypatch: pytest.MonkeyPatch,
) -> Starter:
    """Start a worker process on the run's queue, on the test's own Redis.

    ``SPINNER_QUEUE`` is also set in this process's environment, for the beat process (started
    by the ``beat`` fixture), so that its reconcile goes to this run's queue.
    """
    from spinner.celery import app

    monkeypatch.setenv("SPINNER_QUEUE", app.conf.task_default_queue)

    def start() -> subprocess.Popen[bytes]:
        return celery_worker_process(app.conf.task_default_queue)

    return start


@pytest.fixture
def beat(app_on_redis: str, worker: Starter, tmp_path: Path, settings: Any) -> Iterator[Starter]:
    """Start ``celery beat`` (its own process, so killing a worker leaves it running) with the
    reconcile every second; stopped at teardown."""
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        env = dict(os.environ, REDIS_URL=app_on_redis, SPINNER_RECONCILE_SECONDS="1")
        # Beat records its own heartbeat (tournaments.tasks.HeartbeatScheduler): in the test's
        # database, as the worker's.
        db = settings.DATABASES["default"]
        env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        with (ARTIFACTS / f"beat-{tmp_path.name}.log").open("ab") as log:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "spinner",
                    "beat",
                    "-s",
                    str(tmp_path / "beat-schedule"),
                    "--loglevel",
                    "INFO",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def alive(proc: subprocess.Popen[bytes]) -> None:
    assert proc.poll() is None, "the worker died; see test-artifacts/worker-*.log"


def snapshot_order(event: Event) -> list[str]:
    snap = StandingsSnapshot.objects.filter(event=event).order_by("-generation").first()
    if snap is None:
        return []
    return [row["name"] for row in json.loads(snap.data)["standings"]["rows"]]


def current(event: Event) -> bool:
    state = StandingsState.objects.filter(pk=event.pk).first()
    return state is not None and not state.dirty


def field(teams: int, slug: str) -> tuple[Event, list[Any], list[Match]]:
    """An event whose tables may enter a final score, round 1 paired in order (1 v 2, 3 v 4...)."""
    event = make_event(slug, allow_final_score_only=True, tiebreaks=["spread"])
    entries = make_entries(event, teams)
    pairs = [(entries[i], entries[i + 1]) for i in range(0, teams - 1, 2)]
    return event, entries, make_round(event, 1, pairs)


def expected_order(entries: list[Any], margins: list[int]) -> list[str]:
    """Winners by margin, then losers by margin (match points, then spread)."""
    winners = sorted(range(len(margins)), key=lambda i: -margins[i])
    losers = sorted(range(len(margins)), key=lambda i: margins[i])
    return [entries[2 * i].name for i in winners] + [entries[2 * i + 1].name for i in losers]


@pytest.mark.django_db(transaction=True)
def test_confirmed_results_update_the_snapshot_within_a_deadline(worker: Any) -> None:
    proc = worker()
    event, entries, matches = field(8, "deadline")
    margins = [10, 40, 20, 30]
    started = time.monotonic()
    for match, margin in zip(matches, margins, strict=True):
        submit_both(match, 100, 100 - margin)

    def converged() -> bool:
        alive(proc)
        return current(event) and snapshot_order(event) == expected_order(entries, margins)

    poll(converged, timeout=30)
    elapsed = time.monotonic() - started
    assert elapsed < 30
    # Four confirmations in well under 2 s: coalesced into few recomputes, 2 s apart at most.
    recomputes = StandingsRecompute.objects.get(pk=event.pk).recomputes
    assert 1 <= recomputes <= elapsed / standings.COALESCE_SECONDS + 2
    created = list(
        StandingsSnapshot.objects.filter(event=event)
        .order_by("generation")
        .values_list("created_at", flat=True)
    )
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(created)]
    assert all(gap >= 1.5 for gap in gaps), gaps


@pytest.mark.django_db(transaction=True)
def test_two_workers_never_recompute_one_event_at_once(worker: Any) -> None:
    procs = [worker(), worker()]
    event, entries, matches = field(20, "two-workers")
    margins = [5 * (i + 1) for i in range(10)]
    for match, margin in zip(matches, margins, strict=True):
        submit_both(match, 100, 100 - margin)
    # A burst of duplicate requests straight to the recompute task, as redeliveries would be.
    from tournaments import tasks

    for _ in range(10):
        tasks.recompute_event_standings.delay(event.pk)

    def converged() -> bool:
        for proc in procs:
            alive(proc)
        return current(event) and snapshot_order(event) == expected_order(entries, margins)

    poll(converged, timeout=60)
    generations = list(
        StandingsSnapshot.objects.filter(event=event)
        .order_by("generation")
        .values_list("generation", flat=True)
    )
    assert generations == list(range(1, len(generations) + 1))  # no clash, no gap
    logs = "".join(
        p.read_text(errors="replace") for p in ARTIFACTS.glob("worker-*.log") if p.exists()
    )
    assert "IntegrityError" not in logs


def _lock_holder() -> Any:
    import psycopg

    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=False
    )


def _holds_recompute_lock(event: Event) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s "
            "AND objid = %s AND granted",
            [standings.LOCK_CLASS, event.pk],
        )
        row = cursor.fetchone()
    return bool(row and row[0])


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_recompute_then_restarted_converges(worker: Any, beat: Any) -> None:
    proc = worker()
    event, entries, matches = field(4, "killed")
    submit_both(matches[0], 100, 70)
    poll(lambda: current(event) and len(snapshot_order(event)) == 4, timeout=30)
    generation = latest_generation(event)

    # Block the next recompute at its last write, so that it is caught in the middle.
    blocker = _lock_holder()
    try:
        blocker.execute(
            "SELECT 1 FROM tournaments_standingsrecompute WHERE event_id = %s FOR UPDATE",
            [event.pk],
        )
        submit_both(matches[1], 100, 20)
        poll(lambda: _holds_recompute_lock(event), timeout=30)  # a recompute is running...
        poll(lambda: _waiting_on_a_lock(), timeout=30)  # ...and is stuck at its last write
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:  # let go (a failure above must not leave the teardown waiting on this lock)
        blocker.rollback()
        blocker.close()

    # The killed recompute left nothing: its transaction and its lock died with it.
    poll(lambda: not _holds_recompute_lock(event), timeout=30)
    assert latest_generation(event) == generation
    assert not current(event)

    # A new worker; beat's reconcile finds the event dirty and the standings converge.
    fresh = worker()
    beat()

    def converged() -> bool:
        alive(fresh)
        return current(event) and snapshot_order(event) == expected_order(entries, [30, 80])

    poll(converged, timeout=60)


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


@pytest.mark.django_db(transaction=True)
def test_with_redis_stopped_submissions_succeed_pages_say_updating_and_standings_converge(
    worker: Any, beat: Any, app_on_redis: str, client: Client
) -> None:
    proc = worker()
    beat()
    event, entries, matches = field(8, "outage")
    submit_both(matches[0], 100, 90)
    poll(lambda: current(event) and len(snapshot_order(event)) == 8, timeout=30)

    server = _servers[app_on_redis]
    server.stop()
    started = time.monotonic()
    for match, margin in zip(matches[1:], [40, 20, 30], strict=True):
        submit_both(match, 100, 100 - margin)  # must not raise
    assert time.monotonic() - started < 30
    assert all(m.results.filter(is_current=True).exists() for m in matches)

    page = client.get(f"/events/{event.slug}/standings/")
    assert page.status_code == 200
    assert "Updating" in page.content.decode()
    assert not current(event)

    server.start()  # the same port: the worker, beat and this process reconnect

    def converged() -> bool:
        alive(proc)
        return current(event) and snapshot_order(event) == expected_order(entries, [10, 40, 20, 30])

    poll(converged, timeout=90)
    page = client.get(f"/events/{event.slug}/standings/")
    assert "Updating" not in page.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_prefork_worker_starts_with_the_recent_standings_and_recomputes_them_exactly(
    celery_worker_process: Starter,
    worker: Starter,  # for its setup (this run's queue on the test's own Redis); started below
) -> None:
    """The worker's main process computes the standings of the events recomputed lately before it
    forks its pool (``spinner.celery``); a pool process's recompute, reusing that computation,
    writes the bytes and fingerprint a computation from scratch writes."""
    from spinner.celery import app
    from tournaments.selectors import standings_records

    event, entries, matches = field(8, "prefork")
    submit_both(matches[0], 100, 70)
    standings.recompute_standings(event_id=event.pk, force=True)  # recomputed lately: by us
    queue = app.conf.task_default_queue
    proc = celery_worker_process(queue, "--pool", "prefork", "--concurrency", "1")
    log = ARTIFACTS / f"worker-{queue}.log"

    def remembered() -> bool:
        alive(proc)
        text = log.read_text(errors="replace")
        return f"standings of events [{event.pk}] computed before the pool starts" in text

    poll(remembered, timeout=60)
    generation = latest_generation(event)
    for match, margin in zip(matches[1:], [40, 20, 30], strict=True):
        submit_both(match, 100, 100 - margin)

    def converged() -> bool:
        alive(proc)
        return current(event) and snapshot_order(event) == expected_order(entries, [30, 40, 20, 30])

    poll(converged, timeout=60)
    latest = StandingsSnapshot.objects.filter(event=event).order_by("-generation").first()
    assert latest is not None and latest.generation > generation
    standings_records._recent.clear()
    data, fingerprint = standings_records.compute_snapshot_bytes(event_id=event.pk)
    standings_records._recent.clear()
    assert latest.data.encode() == data
    assert latest.computed_from == fingerprint
    text = log.read_text(errors="replace")
    assert "ForkPoolWorker" in text  # the recomputes ran in a pool process, forked after
    assert "could not be computed" not in text


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_rated_results_is_rerated_in_one_run_by_a_real_worker(worker: Any) -> None:
    """Each result asks for a re-rate; the task waits ``ratings.COALESCE_SECONDS``, so the results
    confirmed meanwhile join its run (one run per result before: most of a burst's worker CPU),
    and the ratings it leaves are those of a re-rate from scratch."""
    from spinner.celery import app
    from tests.tournaments import ratings_support as rs
    from tournaments import job_kinds
    from tournaments.models import BackgroundJob, RatingChange
    from tournaments.services import ratings

    proc = worker()
    log = ARTIFACTS / f"worker-{app.conf.task_default_queue}.log"
    event = rs.make_event("rerate-burst", entries=8)
    actor = rs.director(event)
    matches = rs.seat_round(event, 1, [(0, 1), (2, 3), (4, 5), (6, 7)])

    def ready() -> bool:  # consuming: a task sent now runs now, not after the whole burst
        alive(proc)
        return " ready." in log.read_text(errors="replace")

    poll(ready, timeout=60)
    started = time.monotonic()
    for n, match in enumerate(matches):
        rs.enter(match, actor, (100, 10 * n))  # each its own transaction: four requests
    entered = time.monotonic() - started

    def rated() -> bool:
        alive(proc)
        pending = BackgroundJob.objects.filter(kind=job_kinds.RERATE).exists()
        return not pending and RatingChange.objects.filter(event=event).count() == 16

    poll(rated, timeout=60)
    rated = rs.snapshot()
    ratings.rerate_all()
    assert rs.snapshot() == rated
    text = log.read_text(errors="replace")
    runs = text.count("Task tournaments.rerate_players[") // 2  # received, then succeeded
    assert "raised" not in text
    assert 1 <= runs <= entered / ratings.COALESCE_SECONDS + 1, (runs, entered)
