"""The generation job through a real Celery worker on Redis, writing to PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import poll
from tests.tournaments.rounds_factory import make_director, make_event, make_field


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_generates_the_round(
    postgres: None, celery_worker_process: Callable[[str], Any]
) -> None:
    from spinner.celery import app
    from tournaments.models import BackgroundJob, Round, RoundSeat
    from tournaments.services import round_generation

    event = make_event()
    boss = make_director(event)
    make_field(event, 11)
    worker = celery_worker_process(app.conf.task_default_queue)
    job = round_generation.start_round_generation(event=event, actor=boss)
    assert BackgroundJob.objects.get(pk=job.pk).status == BackgroundJob.Status.PENDING

    def finished() -> BackgroundJob | None:
        assert worker.poll() is None, "the worker died; see test-artifacts/worker-*.log"
        current = BackgroundJob.objects.get(pk=job.pk)
        return current if current.status in ("done", "failed") else None

    done = poll(finished, timeout=60)
    assert done.status == BackgroundJob.Status.DONE, done.message
    assert done.progress == 100 and done.result["round"] == 1
    rnd = Round.objects.get(event=event, number=1)
    assert rnd.status == Round.Status.DRAFT
    assert rnd.matches.filter(is_bye=False).count() == 5
    assert rnd.matches.filter(is_bye=True).count() == 1
    assert RoundSeat.objects.filter(round=rnd).count() == 11
