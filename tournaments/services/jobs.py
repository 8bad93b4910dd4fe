"""Background jobs a person waits for: the one runner of every director job, and the pipeline
health check.

Every director job (generate a round, propose a tiebreak round, seed the play-off) is started by
:func:`start_job` (in the caller's transaction: the job row, its audit entry, and the task sent by
name once it commits) and run by :func:`run_job`, with one rule:

- the job's work and its "done" (message and result) are committed together, so a redelivered
  message finds the job done and does nothing (a job already done or failed is left as it is);
- an application error (:class:`~tournaments.errors.SpinnerError`) fails the job with its code,
  message and details;
- anything else fails it with ``internal_error`` (the traceback is logged): never stuck "running";
- a job the broker refuses is failed at once, so the page says so and a retry is allowed.

The work of each kind is named in ``services.director_jobs`` (above the domain services).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournaments.errors import SpinnerError
from tournaments.models import BackgroundJob, Event
from tournaments.queueing import enqueue_after_commit
from tournaments.services import audit
from tournaments.services.audit import Actor

logger = logging.getLogger(__name__)


RUN_TASK = "tournaments.run_director_job"
"""The task that runs every director job (by name: services never import the tasks module)."""

FINISHED = (BackgroundJob.Status.DONE, BackgroundJob.Status.FAILED)

Work = Callable[[BackgroundJob, Event, User | None], tuple[str, dict[str, Any]]]
"""A job's work: given the locked job, its event and its actor, do it and return the finished
job's message and result (in the runner's transaction)."""


@transaction.atomic
def start_ping_job() -> BackgroundJob:
    """Create a job and ask a worker to complete it (a health check of the whole pipeline)."""
    job = BackgroundJob.objects.create(kind="ping")
    enqueue_after_commit("tournaments.ping", job.pk)
    return job


@transaction.atomic
def complete_ping_job(*, job_id: int) -> BackgroundJob:
    job = BackgroundJob.objects.select_for_update().get(pk=job_id)
    if job.status != BackgroundJob.Status.DONE:
        job.status = BackgroundJob.Status.DONE
        job.progress = 100
        job.message = "pong"
        job.save(update_fields=["status", "progress", "message", "updated_at"])
    return job


def update_job(
    *, job_id: int, status: str | None = None, progress: int | None = None, message: str = ""
) -> None:
    """Record a job's progress (outside any caller's transaction, so a page sees it at once)."""
    fields: dict[str, object] = {"message": message}
    if status is not None:
        fields["status"] = status
    if progress is not None:
        fields["progress"] = max(0, min(100, progress))
    BackgroundJob.objects.filter(pk=job_id).update(**fields)


def start_job(
    *,
    event: Event,
    kind: str,
    actor: Actor,
    params: dict[str, Any] | None = None,
    message: str = "",
    audit_action: str = "",
    audit_after: Any = None,
) -> BackgroundJob:
    """Create a director job, record it in the audit log and send it to a worker once the
    transaction commits (at once outside one); a refused message fails the job at once."""
    with transaction.atomic():
        job = BackgroundJob.objects.create(
            event=event,
            kind=kind,
            params={**(params or {}), "actor_id": actor.pk if isinstance(actor, User) else None},
            message=message,
        )
        audit.record(
            event=event,
            actor=actor,
            action=audit_action or f"{kind}.start",
            obj=job,
            after=audit_after,
        )
        enqueue_after_commit(RUN_TASK, job.pk, on_failure=lambda: job_not_sent(job.pk))
    return job


def job_not_sent(job_id: int) -> None:
    """The broker refused the job: fail it at once so the page says so and a retry is allowed."""
    update_job(
        job_id=job_id,
        status=BackgroundJob.Status.FAILED,
        message="The job queue could not be reached: nothing was done. Try again in a moment.",
    )


def run_job(*, job_id: int, work: Work, running: str = "") -> BackgroundJob:
    """Run a director job by the one rule (see the module doc); safe to run twice.

    ``running`` is the progress message shown while the work runs (written outside the work's
    transaction, so the page sees it at once).
    """
    job = BackgroundJob.objects.get(pk=job_id)
    if job.status in FINISHED:
        return job
    update_job(
        job_id=job_id,
        status=BackgroundJob.Status.RUNNING,
        progress=30,
        message=running or job.message,
    )
    actor_id = job.params.get("actor_id")
    actor = User.objects.filter(pk=actor_id).first() if actor_id else None
    try:
        with transaction.atomic():
            locked = BackgroundJob.objects.select_for_update().get(pk=job_id)
            if locked.status in FINISHED:
                return locked
            assert locked.event_id is not None
            event = Event.objects.get(pk=locked.event_id)
            message, result = work(locked, event, actor)
            _finish(locked, BackgroundJob.Status.DONE, message, result)
            return locked
    except SpinnerError as exc:
        _fail(job_id, exc.message, exc.as_dict())
    except Exception:
        logger.exception("background job %s (%s) failed", job_id, job.kind)
        _fail(
            job_id,
            "The job failed unexpectedly; the error is in the server log.",
            {"code": "internal_error"},
        )
    return BackgroundJob.objects.get(pk=job_id)


def _finish(job: BackgroundJob, status: str, message: str, result: dict[str, Any]) -> None:
    job.status = status
    job.progress = 100
    job.message = message
    job.result = result
    job.save(update_fields=["status", "progress", "message", "result", "updated_at"])


def _fail(job_id: int, message: str, result: dict[str, Any]) -> None:
    BackgroundJob.objects.filter(pk=job_id).update(
        status=BackgroundJob.Status.FAILED,
        progress=100,
        message=message,
        result=result,
        updated_at=timezone.now(),
    )
