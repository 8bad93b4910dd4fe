"""Celery tasks: thin, taking ids, each calling one service; safe to run twice."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import jobs


@shared_task(name="tournaments.ping")
def ping(job_id: int) -> None:
    """Mark a background job done: proves a worker reaches the broker and the database."""
    jobs.complete_ping_job(job_id=job_id)


@shared_task(name="tournaments.generate_round")
def generate_round(job_id: int) -> None:
    """Pair the next round of the job's event as a draft (``BackgroundJob`` kind
    ``generate_round``); a second delivery finds the job done and does nothing."""
    from tournaments.services import rounds

    rounds.run_generate_round_job(job_id=job_id)


@shared_task(name="tournaments.request_standings_recompute")
def request_standings_recompute(event_id: int) -> None:
    """A confirmed or corrected result asks for the event's standings to be recomputed.

    For now it records the event as dirty (issue 8 builds the recompute on that record).
    """
    from tournaments.services import results

    results.mark_standings_dirty(event_id=event_id)
