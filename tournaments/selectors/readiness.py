"""``/readyz``'s checks beside django-health-check's own (database, Redis): the replica's lag
and the workers' heartbeat. Each raises the library's ``ServiceUnavailable`` with a message safe
to show (no address, no credential)."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.conf import settings
from django.db import connections
from health_check.base import HealthCheck
from health_check.checks import Database
from health_check.contrib.redis import Redis
from health_check.exceptions import ServiceUnavailable
from redis.asyncio import Redis as AsyncRedis

from tournaments import replica
from tournaments.selectors.health import worker_health


@dataclasses.dataclass
class ReplicaLag(HealthCheck):  # type: ignore[misc]
    """The streaming replica answers and is at most ``SPINNER_REPLICA_MAX_LAG_SECONDS`` behind."""

    def run(self) -> None:
        lag = replica.replica_lag()
        if lag is None:
            raise ServiceUnavailable("The replica does not answer.")
        limit = float(settings.SPINNER_REPLICA_MAX_LAG_SECONDS)
        if lag > limit:
            raise ServiceUnavailable(f"The replica is {lag:.1f} s behind (limit {limit:g} s).")


@dataclasses.dataclass
class WorkerHeartbeat(HealthCheck):  # type: ignore[misc]
    """A Celery worker ran the heartbeat task recently (``selectors.health``)."""

    def run(self) -> None:
        try:
            health = worker_health()
        finally:
            connections["default"].close()  # the check's own thread: keep no connection open
        if health.down:
            raise ServiceUnavailable(health.message)


def _redis_client() -> Any:
    return AsyncRedis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)


def readiness_checks(*, balancer: bool = False) -> list[Any]:
    """What ``/readyz`` checks here: the primary, and where configured the replica and its lag,
    Redis, and (with a broker) a worker's heartbeat.

    ``balancer`` (``/readyz?scope=balancer``): the primary alone, what this process needs to
    serve. The others are shared by every web process and each degrades gracefully (the cache
    fails open, public reads fall back to the primary, results wait for a worker): a balancer
    draining every process for one of them would turn a degraded service into none."""
    checks: list[Any] = [(Database, {"alias": "default"})]
    if balancer:
        return checks
    if replica.has_replica():
        checks += [(Database, {"alias": replica.REPLICA}), ReplicaLag]
    if settings.REDIS_URL:
        checks.append((Redis, {"client_factory": _redis_client}))
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        checks.append(WorkerHeartbeat)
    return checks
