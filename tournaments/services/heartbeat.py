"""The workers' heartbeat (issue 15): a periodic task proves a worker takes work.

Celery beat sends ``tournaments.worker_heartbeat`` every ``SPINNER_HEARTBEAT_SECONDS``; the
worker that runs it records the time (``WorkerHeartbeat``, one row per worker). The selector
``tournaments.selectors.health.worker_health`` says the standings worker is down when no worker
has beaten for ``SPINNER_HEARTBEAT_STALE_SECONDS``; the reconcile logs it, and the director's
event page shows it.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from tournaments.models import WorkerHeartbeat
from tournaments.selectors.health import worker_health

logger = logging.getLogger(__name__)


def record_heartbeat(*, worker: str) -> WorkerHeartbeat:
    beat, _ = WorkerHeartbeat.objects.update_or_create(
        worker=worker[:200], defaults={"beat_at": timezone.now()}
    )
    return beat


def log_if_worker_down() -> bool:
    """For the reconcile: warn when the heartbeat says the workers stopped; True when down."""
    health = worker_health()
    if health.down:
        logger.warning("%s", health.message)
    return health.down
