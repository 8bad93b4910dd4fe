"""Celery tasks: thin, taking ids, each calling one service; safe to run twice."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import jobs


@shared_task(name="tournaments.ping")
def ping(job_id: int) -> None:
    """Mark a background job done: proves a worker reaches the broker and the database."""
    jobs.complete_ping_job(job_id=job_id)
