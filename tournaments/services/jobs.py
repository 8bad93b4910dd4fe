"""Background jobs a person waits for, and the pipeline health check."""

from __future__ import annotations

from django.db import transaction

from tournaments.models import BackgroundJob
from tournaments.queueing import enqueue_after_commit


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
