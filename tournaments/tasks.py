"""Celery tasks: thin, taking ids, each calling one service; safe to run twice.

Tasks are the top of the house: services never import this module (they enqueue a task by its
name through ``tournaments.queueing``), so the services a task calls are imported inside its
body, the one place in the app where an import sits in a function for a layering reason.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import shared_task
from celery.beat import PersistentScheduler

logger = logging.getLogger(__name__)


class HeartbeatScheduler(PersistentScheduler):
    """Celery beat's scheduler (``CELERY_BEAT_SCHEDULER``): the file-backed default, which also
    records beat's own heartbeat every ``SPINNER_HEARTBEAT_SECONDS`` from the beat process
    itself (``heartbeat.record_beat``), so that the desk tells a dead beat from a dead worker.
    A database out of reach is logged and tried again at the next tick: beat keeps sending."""

    _next_beat = 0.0

    def tick(self, *args: Any, **kwargs: Any) -> float:
        wait: float = super().tick(*args, **kwargs)
        from django.conf import settings  # the app's settings are read once beat runs

        every = float(settings.SPINNER_HEARTBEAT_SECONDS)
        if time.monotonic() >= self._next_beat:
            self._next_beat = time.monotonic() + every
            self.record_beat()
        return max(0.0, min(wait, self._next_beat - time.monotonic()))

    def record_beat(self) -> None:
        from django.db import close_old_connections

        from tournaments.services import heartbeat  # tasks sit above services

        close_old_connections()  # beat is long-lived: drop a connection the server ended
        try:
            heartbeat.record_beat()
        except Exception:  # the database out of reach: beat must keep sending all the same
            logger.warning("beat could not record its heartbeat", exc_info=True)
            close_old_connections()


@shared_task(name="tournaments.ping")
def ping(job_id: int) -> None:
    """Mark a background job done: proves a worker reaches the broker and the database."""
    from tournaments.services import jobs  # tasks sit above services

    jobs.complete_ping_job(job_id=job_id)


@shared_task(name="tournaments.run_director_job")
def run_director_job(job_id: int) -> None:
    """Run a director's background job (generate a round, propose a tiebreak round, seed the
    play-off) through the one job runner; a second delivery finds the job done and does nothing."""
    from tournaments.services import director_jobs  # tasks sit above services

    director_jobs.run_director_job(job_id=job_id)


@shared_task(name="tournaments.generate_round")
def generate_round(job_id: int) -> None:
    """Kept for messages queued before ``run_director_job`` existed: the same runner."""
    from tournaments.services import director_jobs  # tasks sit above services

    director_jobs.run_director_job(job_id=job_id)


@shared_task(name="tournaments.run_live_job")
def run_live_job(job_id: int) -> None:
    """Kept for messages queued before ``run_director_job`` existed: the same runner."""
    from tournaments.services import director_jobs  # tasks sit above services

    director_jobs.run_director_job(job_id=job_id)


@shared_task(name="tournaments.request_standings_recompute")
def request_standings_recompute(event_id: int) -> None:
    """A confirmed or corrected result asks for the event's standings to be recomputed: a
    coalesced recompute (``tournaments.services.standings.request_recompute``: at most one
    waiting task per event). The result's own transaction marked the standings dirty
    (``results.note_results_changed``); this task takes no lock on that row (500 of them in a
    burst each waited for the confirmations holding it, and the recompute queued behind them)."""
    from tournaments.services import standings  # tasks sit above services

    standings.request_recompute(event_id=event_id)


@shared_task(name="tournaments.recompute_event_standings")
def recompute_event_standings(event_id: int) -> str:
    """Recompute an event's standings, coalesced (see ``tournaments.services.standings``)."""
    from tournaments.services import standings  # tasks sit above services

    return standings.run_requested_recompute(event_id=event_id).status


@shared_task(name="tournaments.reconcile_standings")
def reconcile_standings() -> dict[int, str]:
    """Periodic (beat): recompute every event whose standings lag its results."""
    from tournaments.services import heartbeat, standings  # tasks sit above services

    heartbeat.log_if_worker_down()
    return standings.reconcile_standings()


@shared_task(name="tournaments.reconcile_ratings")
def reconcile_ratings() -> bool:
    """Periodic (beat): run the re-rate a lost message left waiting (see
    ``ratings.rerate_forgotten_marks``). True when it sent the task."""
    from tournaments.services import ratings  # tasks sit above services

    return ratings.rerate_forgotten_marks()


@shared_task(name="tournaments.worker_heartbeat", bind=True)
def worker_heartbeat(self: Any) -> None:
    """Periodic (beat): the worker running it records that it takes work."""
    from tournaments.services import heartbeat  # tasks sit above services

    heartbeat.record_heartbeat(worker=self.request.hostname or "worker")


@shared_task(name="tournaments.purge_idempotency_records")
def purge_idempotency_records() -> int:
    """Periodic (beat): delete idempotency records past their time to live."""
    from tournaments.services import idempotency  # tasks sit above services

    return idempotency.purge_idempotency_records()


@shared_task(name="tournaments.advance_playoff")
def advance_playoff(event_id: int) -> int | None:
    """A bracket match was decided: advance the play-off if its round is complete (the next
    round as a draft). Idempotent: the event row is locked, and a second run finds nothing to
    do. Returns the new round's number, or None."""
    from tournaments.services import playoff_rounds  # tasks sit above services

    rnd = playoff_rounds.advance_when_ready(event_id=event_id)
    return None if rnd is None else rnd.number


@shared_task(name="tournaments.rerate_players")
def rerate_players(job_id: int) -> int | None:
    """A rated result changed: re-rate from the earliest pending mark (coalesced: the run claims
    every pending mark; a second delivery finds none and does nothing). Returns the rounds
    rated, or None."""
    from tournaments.services import ratings  # tasks sit above services

    outcome = ratings.run_requested_rerate()
    return None if outcome is None else outcome.rounds


@shared_task(name="tournaments.deliver_webhook", bind=True, max_retries=None)
def deliver_webhook(self: Any, delivery_id: str) -> str:
    """One attempt at a webhook delivery (``delivery_id``: its uuid). A failed attempt is tried
    again after the backoff (Celery's ``retry`` with that countdown; our own attempts counter,
    not Celery's, says when to give up). A delivered, failed, removed or not-yet-due delivery
    is left alone, so a second copy of the message does nothing. Run eagerly (development, no
    worker) there is no retry in the same process: the sweep or "retry now" sends it again."""
    from tournaments.services import webhook_deliveries  # tasks sit above services

    outcome = webhook_deliveries.attempt_delivery(delivery_id=delivery_id)
    if outcome.retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status


@shared_task(name="tournaments.sweep_webhook_deliveries")
def sweep_webhook_deliveries() -> int:
    """Periodic (beat): send again every pending webhook delivery that is due."""
    from tournaments.services import webhook_deliveries  # tasks sit above services

    return webhook_deliveries.sweep_due_deliveries()


@shared_task(name="tournaments.send_round_push")
def send_round_push(round_id: int) -> dict[str, int]:
    """A round was published: send each subscribed entry its table (Web Push). Safe to run
    twice (what was sent is remembered; a duplicate notice replaces the first)."""
    from tournaments.services import push  # tasks sit above services

    outcome = push.send_round_pairings(round_id=round_id)
    return {"sent": outcome.sent, "gone": outcome.gone, "failed": outcome.failed}
