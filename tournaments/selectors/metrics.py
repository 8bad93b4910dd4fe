"""The metrics read at scrape time (``/metrics``, ``views/ops.py``), beside the counter of
``tournaments/metrics.py`` and django-prometheus' own: the standings' recompute lag (the
database) and the Celery queue's depth (Redis).

The collector is registered with prometheus_client's registry once, when this module is first
imported (the ``/metrics`` view imports it).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import redis
from django.conf import settings
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from tournaments.selectors.health import standings_lag_seconds

logger = logging.getLogger(__name__)


def queue_depth() -> float | None:
    """Messages waiting in our Celery queue (Redis lists, one per priority), None without
    Redis or when it does not answer."""
    if not settings.REDIS_URL:
        return None
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5
        )
        names = [queue] + [f"{queue}\x06\x16{p}" for p in range(1, 10)]
        with client.pipeline() as pipe:
            for name in names:
                pipe.llen(name)
            return float(sum(pipe.execute()))
    except redis.RedisError:
        return None


class SpinnerCollector(Collector):
    """The gauges read at scrape time."""

    def describe(self) -> Iterator[GaugeMetricFamily]:
        """Their names, without reading anything (registering asks for them)."""
        yield GaugeMetricFamily("spinner_standings_recompute_lag_seconds", "")
        yield GaugeMetricFamily("spinner_queue_depth", "")

    def collect(self) -> Iterator[GaugeMetricFamily]:
        lag = GaugeMetricFamily(
            "spinner_standings_recompute_lag_seconds",
            "How long the oldest event whose standings lag its results has waited.",
        )
        try:
            lag.add_metric([], standings_lag_seconds())
        except Exception:  # a scrape never fails for the database: the gauge is left out
            logger.warning("standings lag unavailable for /metrics", exc_info=True)
        yield lag
        depth = queue_depth()
        if depth is not None:
            yield GaugeMetricFamily(
                "spinner_queue_depth", "Tasks waiting in the Celery queue.", value=depth
            )


REGISTRY.register(SpinnerCollector())  # once per process: a module is imported once


def exposition() -> tuple[bytes, str]:
    """The text a scrape gets, and its content type: this process's registry, or, with
    ``PROMETHEUS_MULTIPROC_DIR``, every process's files merged, plus the gauges above."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        registry.register(SpinnerCollector())
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
