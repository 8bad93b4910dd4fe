"""Shared fixtures: the real services a test needs, or a one-line skip when they are absent.

With ``SPINNER_REQUIRE_SERVICES=1`` (set by ``.ci/run``) a missing service fails the test instead
of skipping it, so CI can never pass by skipping.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("SPINNER_CHROMIUM", "/usr/bin/chromium")
REQUIRE = os.environ.get("SPINNER_REQUIRE_SERVICES") == "1"


def missing(reason: str) -> None:
    """Skip (on a laptop) or fail (in CI) a test whose service is absent."""
    if REQUIRE:
        pytest.fail(f"required service missing: {reason}", pytrace=False)
    pytest.skip(reason)


def poll(check: Callable[[], Any], *, timeout: float = 20.0, interval: float = 0.05) -> Any:
    """Call ``check`` until it returns something truthy or the deadline passes (then fail)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"condition not met within {timeout}s: {check}")
        time.sleep(interval)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# `make quick` leaves out what needs a browser or a live worker; these marks say which those are:
# every test under tests/e2e/ or using the browser's fixtures is `browser`, every test starting a
# real Celery worker is `live_worker`.
E2E = ROOT / "tests" / "e2e"
BROWSER_FIXTURES = frozenset({"browser", "phone", "spanish_phone", "chromium_path"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if item.path.is_relative_to(E2E) or names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if "celery_worker_process" in names:
            item.add_marker(pytest.mark.live_worker)


@pytest.fixture
def postgres(db: None, settings: Any) -> None:
    """A test that needs the real PostgreSQL (the suite runs on it when DATABASE_URL is set)."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        missing("needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner")


@pytest.fixture
def redis_url() -> str:
    """The machine's Redis (REDIS_URL), checked to answer a PING."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        missing("needs Redis: set REDIS_URL=redis://127.0.0.1:6379/0")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        missing(f"Redis at {url} does not answer: {exc}")
    return url


@pytest.fixture
def chromium_path() -> str:
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        missing("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture
def browser(chromium_path: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in the test thread; Django's ORM refuses to run
    # while a loop is running unless told it is safe (it is: the loop only drives the browser).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=chromium_path,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
            ],
        )
        try:
            yield b
        finally:
            b.close()
            # The ORM calls a browser test makes run while Playwright's event loop runs, so
            # they get their own connection (asgiref's Local is per context there): close it,
            # or PostgreSQL refuses to drop the test database at the end of the session.
            from django.db import connections

            connections.close_all()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page in a 390x844 phone-sized viewport."""
    yield from _phone_page(browser)


@pytest.fixture
def spanish_phone(browser: Any) -> Iterator[Any]:
    """A 390x844 page whose browser asks for Spanish (es-ES)."""
    yield from _phone_page(browser, locale="es-ES")


def _phone_page(browser: Any, **options: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, **options
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    """A folder for this test's screenshots (kept after the run, under test-artifacts/)."""
    folder = ARTIFACTS / request.node.name.replace("/", "_").replace("[", "_").replace("]", "")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def celery_worker_process(redis_url: str, settings: Any) -> Iterator[Callable[[str], Any]]:
    """Start real ``celery worker`` processes on the real Redis, against the test database.

    Returns a starter taking a queue name (the test run's own default queue, unless the test
    routes elsewhere); every worker started is stopped at teardown.
    """
    procs: list[subprocess.Popen[bytes]] = []
    db = settings.DATABASES["default"]

    def start(queue: str, *extra: str) -> subprocess.Popen[bytes]:
        # The worker's own default queue is the test run's, so that what it enqueues itself
        # (follow-up jobs) stays within this run too.
        env = dict(os.environ, REDIS_URL=redis_url, SPINNER_QUEUE=queue)
        if db["ENGINE"] == "django.db.backends.postgresql":
            env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        else:
            env["SQLITE_PATH"] = str(db["NAME"])
        ARTIFACTS.mkdir(exist_ok=True)
        with (ARTIFACTS / f"worker-{queue}.log").open("wb") as log:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "spinner",
                    "worker",
                    "--pool",
                    "solo",
                    "--without-heartbeat",
                    "--without-gossip",
                    "--without-mingle",
                    "-Q",
                    queue,
                    "-n",
                    f"{queue}@%h",
                    "--loglevel",
                    "INFO",
                    *extra,
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # the child keeps its own copy of the log's file descriptor
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


@pytest.fixture(autouse=True)
def _eager_celery_by_default(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run in-process unless the test starts a real worker (``celery_worker_process``)."""
    from spinner.celery import app

    eager = "celery_worker_process" not in request.fixturenames
    old = app.conf.task_always_eager
    app.conf.task_always_eager = eager
    try:
        yield
    finally:
        app.conf.task_always_eager = old


# Tables the database keeps immutable (migrations 0002 and 0006): their triggers refuse the
# DELETE (SQLite) or TRUNCATE (PostgreSQL) with which Django empties the database after a
# transactional test. Children first (results refer to claims).
IMMUTABLE_TABLES = ("tournaments_matchresult", "tournaments_claim", "tournaments_auditentry")
_triggers_lifted: list[bool] = [False]  # PostgreSQL: lifted for the flush, put back at next setup


def lift_immutability_for_flush(connection: Any) -> None:
    """Let Django's flush empty the immutable tables (tests only).

    SQLite: empty them with their triggers dropped for that moment, then put the triggers back
    (so the flush finds nothing there to delete). PostgreSQL: the flush TRUNCATEs, which the
    statement-level triggers refuse even on an empty table, so the tables' triggers are
    disabled until the next test's setup (``restore_immutability``) enables them again.
    """
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            marks = ",".join("%s" for _ in IMMUTABLE_TABLES)
            cursor.execute(
                f"SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ({marks})",
                list(IMMUTABLE_TABLES),
            )
            triggers = [row[0] for row in cursor.fetchall()]
            cursor.execute(
                f"SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ({marks})",
                list(IMMUTABLE_TABLES),
            )
            for (name,) in cursor.fetchall():
                cursor.execute(f'DROP TRIGGER "{name}"')
            for table in IMMUTABLE_TABLES:
                cursor.execute(f"DELETE FROM {table}")
            for sql in triggers:
                cursor.execute(sql)
        elif connection.vendor == "postgresql":
            for table in IMMUTABLE_TABLES:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            _triggers_lifted[0] = True


def restore_immutability(connection: Any) -> None:
    """Enable again the triggers ``lift_immutability_for_flush`` disabled (PostgreSQL)."""
    if connection.vendor != "postgresql" or not _triggers_lifted[0]:
        return
    with connection.cursor() as cursor:
        for table in IMMUTABLE_TABLES:
            cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    if connection.get_autocommit():  # else the test's transaction rolls this back: again next time
        _triggers_lifted[0] = False


@pytest.fixture(autouse=True)
def _flushable_audit_log(request: pytest.FixtureRequest) -> Iterator[None]:
    """Let a transactional test end although it wrote to the immutable tables.

    The audit log, claims and results refuse DELETE and TRUNCATE by trigger, and Django
    flushes the database with one of them after a ``transaction=True`` test:
    ``lift_immutability_for_flush`` lets it. Every database test starts with the triggers on.
    """
    marker = request.node.get_closest_marker("django_db")
    if marker is None:
        yield
        return
    from django.db import connection

    if marker.kwargs.get("transaction"):
        request.getfixturevalue("transactional_db")  # torn down (flushed) after this fixture
    else:
        request.getfixturevalue("db")
    restore_immutability(connection)
    yield
    if marker.kwargs.get("transaction"):
        lift_immutability_for_flush(connection)


@pytest.fixture
def dead_broker() -> Iterator[str]:
    """The project's Celery app publishing to a Redis URL where nothing listens (a broker
    outage), tasks not eager; restored afterwards."""
    from spinner.celery import app

    saved = (app.conf.broker_url, app.conf.task_always_eager, app.conf.broker_transport_options)
    url = f"redis://127.0.0.1:{free_port()}/0"

    def reset_pools() -> None:
        # Celery caches the producer pool bound to the first broker URL it used.
        app._pool = None
        app.amqp._producer_pool = None

    app.conf.broker_url = url
    app.conf.task_always_eager = False
    app.conf.broker_transport_options = {**saved[2], "socket_connect_timeout": 0.3}
    reset_pools()
    try:
        yield url
    finally:
        app.conf.broker_url, app.conf.task_always_eager, app.conf.broker_transport_options = saved
        reset_pools()


@pytest.fixture(autouse=True)
def _default_language_between_tests() -> Iterator[None]:
    """Each test starts in the default language: a request in Spanish through Django's test
    client leaves Spanish active in the test's thread (LocaleMiddleware activates it)."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_public_documents() -> Iterator[None]:
    """Public pages kept as documents (tournaments/documents.py) are off unless a test turns them
    on (``settings.SPINNER_PUBLIC_DOCUMENTS = True``, as tests/tournaments/test_documents.py
    does): the tokens that make a document stale move only once a transaction commits, which a
    test's wrapping transaction never does. Each test starts with no document kept all the same:
    a new site token makes every kept copy stale (events of different tests share slugs and, on
    SQLite, ids; the cache, locmem or this run's Redis db, outlives a test). Not the ``settings``
    fixture: some tests name a parameter ``settings``."""
    from django.core.cache import cache
    from django.test import override_settings

    from tournaments import follow_versions

    cache.set(follow_versions.SITE_KEY, f"test-{uuid.uuid4().hex}", None)
    # A test that turns documents on sees every change at once unless it sets a minimum age
    # itself (test_documents.py's test of it).
    with override_settings(SPINNER_PUBLIC_DOCUMENTS=False, SPINNER_DOCUMENT_MIN_AGE=0):
        yield


@pytest.fixture
def renders() -> Iterator[list[str]]:
    """The names of the templates rendered meanwhile (Django's test signal): the documents
    tests' count of renders."""
    from tests.tournaments.documents_support import rendered_templates  # needs Django set up

    with rendered_templates() as seen:
        yield seen
