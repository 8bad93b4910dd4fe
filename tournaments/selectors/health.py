"""Is a worker taking work? Read from the heartbeat (``tournaments.services.heartbeat``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max, Min
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import time_zones
from tournaments.models import StandingsState, WorkerHeartbeat


@dataclass(frozen=True)
class WorkerHealth:
    down: bool
    last_beat: datetime | None  # the newest beat of any worker
    message: str  # empty when nothing is wrong


def worker_health(*, now: datetime | None = None) -> WorkerHealth:
    """``down`` when no worker has run the heartbeat within the stale threshold.

    With eager tasks (no broker configured, development) there is no worker to watch: never
    down. A worker that never beat is down "since it was expected" (no time to give).
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return WorkerHealth(down=False, last_beat=None, message="")
    now = now or timezone.now()
    last = WorkerHeartbeat.objects.aggregate(last=Max("beat_at"))["last"]
    stale = timedelta(seconds=settings.SPINNER_HEARTBEAT_STALE_SECONDS)
    if last is not None and now - last <= stale:
        return WorkerHealth(down=False, last_beat=last, message="")
    if last is None:
        return WorkerHealth(
            down=True,
            last_beat=None,
            message=gettext("Standings worker down: no worker has reported."),
        )
    since = time_zones.label(last)  # in the event's zone on its pages, labelled
    return WorkerHealth(
        down=True,
        last_beat=last,
        message=gettext("Standings worker down since %(since)s.") % {"since": since},
    )


def standings_lag_seconds(*, now: datetime | None = None) -> float:
    """How long the oldest event whose standings lag its results has waited for a recompute
    (0 when none lags). One query."""
    oldest = StandingsState.objects.filter(dirty=True, dirty_since__isnull=False).aggregate(
        oldest=Min("dirty_since")
    )["oldest"]
    if oldest is None:
        return 0.0
    waited: float = ((now or timezone.now()) - oldest).total_seconds()
    return max(0.0, waited)
