"""The workers' heartbeat (issue 15): a periodic task proves a worker takes work.

Celery beat sends ``tournaments.worker_heartbeat`` every ``SPINNER_HEARTBEAT_SECONDS``; the
worker that runs it records the time (``WorkerHeartbeat``, one row per worker). The selector
``tournaments.selectors.health.worker_health`` says the standings worker is down when no worker
has beaten for ``SPINNER_HEARTBEAT_STALE_SECONDS``; the reconcile logs it, and the director's
event page shows it.

Beat records its own heartbeat too, from its own process (``record_beat``, called by the
scheduler ``tournaments.tasks.HeartbeatScheduler`` every ``SPINNER_HEARTBEAT_SECONDS``): a dead
beat sends no worker heartbeat either, and the desk then says "Scheduler (beat) down", not
"Standings worker down" (issue 28: with beat down the reconcile never runs, so a recompute lost
to a Redis blip is not repaired; restarting the worker would not help).
"""

from __future__ import annotations

import logging

from django.utils import timezone

from tournaments.models import WorkerHeartbeat
from tournaments.selectors.health import BEAT_KEY, worker_health

logger = logging.getLogger(__name__)


def record_heartbeat(*, worker: str) -> WorkerHeartbeat:
    beat, _ = WorkerHeartbeat.objects.update_or_create(
        worker=worker[:200], defaults={"beat_at": timezone.now()}
    )
    return beat


def record_beat() -> WorkerHeartbeat:
    """Beat's own heartbeat (its row's key is never a worker's name)."""
    return record_heartbeat(worker=BEAT_KEY)


def log_if_worker_down() -> bool:
    """For the reconcile: warn when the heartbeat says the workers stopped; True when down."""
    health = worker_health()
    if health.down:
        logger.warning("%s", health.message)
    return health.down
