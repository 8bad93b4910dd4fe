"""The real parts together: a Celery worker process on the real Redis writes to PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import poll


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_completes_a_job_in_postgres(
    postgres: None, celery_worker_process: Callable[[str], Any]
) -> None:
    from spinner.celery import app
    from tournaments.models import BackgroundJob
    from tournaments.services import jobs as services

    worker = celery_worker_process(app.conf.task_default_queue)
    job = services.start_ping_job()

    def done() -> bool:
        assert worker.poll() is None, "the worker process died; see test-artifacts/worker-*.log"
        return BackgroundJob.objects.get(pk=job.pk).status == BackgroundJob.Status.DONE

    poll(done, timeout=60)
    assert BackgroundJob.objects.get(pk=job.pk).message == "pong"
