"""Celery tasks: thin, taking ids, each calling one service; safe to run twice."""

from __future__ import annotations

from typing import Any

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

    Makes sure the event is marked dirty (idempotent), then asks for a coalesced recompute
    (``tournaments.services.live.request_recompute``: at most one waiting task per event).
    """
    from tournaments.services import live, results

    results.mark_standings_dirty(event_id=event_id)
    live.request_recompute(event_id=event_id)


# --- live standings (area ``live``): thin; every one is safe to run twice ----------------------


@shared_task(name="tournaments.recompute_event_standings")
def recompute_event_standings(event_id: int) -> str:
    """Recompute an event's standings, coalesced (see ``tournaments.services.live``)."""
    from tournaments.services import live

    return live.run_requested_recompute(event_id=event_id).status


@shared_task(name="tournaments.reconcile_standings")
def reconcile_standings() -> dict[int, str]:
    """Periodic (beat): recompute every event whose standings lag its results."""
    from tournaments.services import heartbeat, live

    heartbeat.log_if_worker_down()
    return live.reconcile_standings()


@shared_task(name="tournaments.worker_heartbeat", bind=True)
def worker_heartbeat(self: Any) -> None:
    """Periodic (beat): the worker running it records that it takes work."""
    from tournaments.services import heartbeat

    heartbeat.record_heartbeat(worker=self.request.hostname or "worker")


@shared_task(name="tournaments.run_live_job")
def run_live_job(job_id: int) -> None:
    """Propose a tiebreak round or seed the play-off (a ``BackgroundJob`` the director waits on)."""
    from tournaments.services import live

    live.run_job(job_id=job_id)
