"""Celery tasks: thin, taking ids, each calling one service; safe to run twice."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import jobs


@shared_task(name="tournaments.ping")
def ping(job_id: int) -> None:
    """Mark a background job done: proves a worker reaches the broker and the database."""
    jobs.complete_ping_job(job_id=job_id)


@shared_task(name="tournaments.request_standings_recompute")
def request_standings_recompute(event_id: int) -> None:
    """A confirmed or corrected result asks for the event's standings to be recomputed.

    For now it records the event as dirty (issue 8 builds the recompute on that record).
    """
    from tournaments.services import results

    results.mark_standings_dirty(event_id=event_id)
