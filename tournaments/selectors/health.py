"""Is a worker taking work, and is beat sending it? Read from the heartbeats
(``tournaments.services.heartbeat``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max, Min, Q
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import time_zones
from tournaments.models import StandingsState, WorkerHeartbeat

# The heartbeat row beat writes itself (``tournaments.tasks.HeartbeatScheduler``). Celery names
# every worker ``name@host``: a key without "@" is never a worker's.
BEAT_KEY = "beat"


@dataclass(frozen=True)
class WorkerHealth:
    down: bool  # the worker, or beat, is down
    last_beat: datetime | None  # the newest beat of any worker
    message: str  # empty when nothing is wrong
    fault: str = ""  # "worker_down" or "beat_down" (the desk's notice), empty when up
    beat_at: datetime | None = None  # beat's own last heartbeat


def _since(label: str, at: datetime) -> str:
    return label % {"since": time_zones.label(at)}  # in the event's zone on its pages, labelled


def worker_health(*, now: datetime | None = None) -> WorkerHealth:
    """``down`` when no worker has run the heartbeat within the stale threshold.

    Beat sends the workers' heartbeat, so a dead beat stops it too: beat records its own, and
    when both are stale the fault named is beat's (``fault`` ``beat_down``), not the worker's. A
    beat that never recorded one (started with another scheduler) is not judged. With eager
    tasks (no broker configured, development) there is nothing to watch: never down. A worker
    that never beat is down "since it was expected" (no time to give).
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return WorkerHealth(down=False, last_beat=None, message="")
    now = now or timezone.now()
    beats = WorkerHeartbeat.objects.aggregate(
        last=Max("beat_at", filter=~_beat_row()), beat=Max("beat_at", filter=_beat_row())
    )
    last, beat = beats["last"], beats["beat"]
    stale = timedelta(seconds=settings.SPINNER_HEARTBEAT_STALE_SECONDS)
    if last is not None and now - last <= stale:
        return WorkerHealth(down=False, last_beat=last, message="", beat_at=beat)
    if beat is not None and now - beat > stale:
        message = _since(gettext("Scheduler (beat) down since %(since)s."), beat)
        return WorkerHealth(True, last, message, fault="beat_down", beat_at=beat)
    if last is None:
        message = (
            gettext("Standings worker down: no worker has reported.")
            if beat is not None
            else gettext(
                "Standings worker and scheduler (beat) down: no worker has reported, nor has beat."
            )
        )
        return WorkerHealth(True, None, message, fault="worker_down", beat_at=beat)
    message = _since(gettext("Standings worker down since %(since)s."), last)
    return WorkerHealth(True, last, message, fault="worker_down", beat_at=beat)


def _beat_row() -> Q:
    return Q(worker=BEAT_KEY)


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
