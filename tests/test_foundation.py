"""The house: pages, settings per environment, the cache failing open, the after-commit queue."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache.backends.base import BaseCache
from django.test import Client

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parent.parent


def test_home_page_says_what_spinner_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Five Up dominoes" in body
    assert 'href="/events/"' in body


def test_vendored_htmx_is_served_locally(client: Client) -> None:
    body = client.get("/").content.decode()
    assert "/static/spinner/vendor/htmx.min.js" in body
    assert "https://" not in body.split("<body")[0], "no CDN in the page head"


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


def _production_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPINNER_METRICS")}
    return dict(env, SPINNER_ENV="production", SECRET_KEY="x" * 64 + "-Zq9!kP2#vR7@mL4", **extra)


def test_production_mode_passes_deploy_checks() -> None:
    env = _production_env(SPINNER_METRICS_TOKEN="a-long-random-scrape-token")
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_without_a_metrics_token_fails_deploy_checks_unless_metrics_are_private() -> (
    None
):
    """/metrics was public in production with no token, and check --deploy passed (issue 28)."""
    result = _manage("check", "--deploy", env=_production_env())
    assert result.returncode != 0
    assert "spinner.E101" in result.stderr and "SPINNER_METRICS_TOKEN" in result.stderr
    assert "SPINNER_METRICS_PRIVATE=1" in result.stderr  # the hint says the way out
    private = _production_env(SPINNER_METRICS_PRIVATE="1")
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=private)
    assert result.returncode == 0, result.stdout + result.stderr
    # and the plain check (run by migrate, runserver) is not the deploy one: it passes
    assert _manage("check", env=_production_env()).returncode == 0


def test_development_mode_fails_deploy_checks() -> None:
    """The check above is meaningful: the development settings do not pass it."""
    env = {k: v for k, v in os.environ.items() if k != "SPINNER_ENV"}
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0


def test_sqlite_is_tuned_for_concurrent_writers(tmp_path: Path) -> None:
    """WAL, a busy timeout and IMMEDIATE transactions on the embedded database."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["SQLITE_PATH"] = str(tmp_path / "wal.sqlite3")
    code = (
        "import django; django.setup()\n"
        "from django.db import connection\n"
        "c = connection.cursor()\n"
        "c.execute('PRAGMA journal_mode'); mode = c.fetchone()[0]\n"
        "c.execute('PRAGMA busy_timeout'); busy = c.fetchone()[0]\n"
        "print(mode, busy, connection.settings_dict['OPTIONS']['transaction_mode'])\n"
    )
    env["DJANGO_SETTINGS_MODULE"] = "spinner.settings"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    mode, busy, transaction_mode = out.stdout.split()
    assert mode == "wal"
    assert int(busy) >= 5000
    assert transaction_mode == "IMMEDIATE"


def _dead_redis_cache() -> BaseCache:
    from tournaments.cache import FailOpenRedisCache

    # Nothing listens on a fresh free port: every call meets a connection error.
    url = f"redis://127.0.0.1:{free_port()}/0"
    return FailOpenRedisCache(url, {"OPTIONS": {"socket_connect_timeout": 0.2}})


def test_cache_fails_open_when_redis_is_down() -> None:
    cache = _dead_redis_cache()
    assert cache.get("standings", "fallback") == "fallback"
    assert cache.get("standings") is None
    cache.set("standings", 1)  # dropped, not raised
    assert cache.get_many(["a", "b"]) == {}
    assert cache.add("k", 1) is False
    assert cache.delete("k") is False


@pytest.mark.django_db(transaction=True)
def test_enqueue_never_fails_the_caller_when_the_broker_is_down(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A saved row stays saved and the call returns normally when publishing fails."""
    from celery import Celery
    from django.db import transaction

    from tournaments.models import BackgroundJob
    from tournaments.queueing import enqueue_after_commit

    dead = Celery("dead-broker", broker=f"redis://127.0.0.1:{free_port()}/0", set_as_current=False)
    dead.conf.broker_connection_timeout = 0.5
    dead.conf.broker_transport_options = {"socket_connect_timeout": 0.5, "max_retries": 0}
    dead.conf.task_publish_retry = False

    @dead.task(name="dead.noop")
    def noop(job_id: int) -> None:  # never runs
        raise AssertionError(job_id)

    with transaction.atomic():
        job = BackgroundJob.objects.create(kind="ping")
        enqueue_after_commit(noop, job.pk)
    assert BackgroundJob.objects.filter(pk=job.pk).exists()
    assert "could not enqueue dead.noop" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_without_redis_the_task_runs_in_process_after_commit() -> None:
    """The embedded default: no broker, the task runs eagerly once the job is committed."""
    from tournaments.models import BackgroundJob
    from tournaments.services import jobs

    job = jobs.start_ping_job()
    job.refresh_from_db()
    assert job.status == BackgroundJob.Status.DONE
    assert job.message == "pong"


def test_the_favicon_is_served_for_pages_that_name_none(client: Client) -> None:
    """Browsers ask for /favicon.ico: it leads to the static icon instead of a 404 page."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("spinner/favicon.svg")
