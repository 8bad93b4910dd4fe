"""Spinner's own Prometheus metrics, beside django-prometheus' requests and queries (served at
``/metrics``, ``views/ops.py``):

* ``spinner_results_confirmed_total``: results that became current (a confirmation, a
  director's decision, a forfeit), counted when their transaction commits;
* ``spinner_standings_recompute_lag_seconds``: how long the oldest event whose standings lag its
  results has waited (read at scrape time);
* ``spinner_queue_depth``: tasks waiting in the Celery queue (Redis), read at scrape time.

Under gunicorn with several workers, set ``PROMETHEUS_MULTIPROC_DIR`` (``docs/deploy.md``) so the
counter adds up across processes; the two gauges are read from the database and Redis whatever
process is scraped.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

from django.conf import settings
from django.db import transaction
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)

RESULTS_CONFIRMED = Counter(
    "spinner_results_confirmed", "Results that became current, counted at commit.", ["source"]
)


def count_result_after_commit(source: str) -> None:
    """In the result's transaction: count it once the transaction commits."""
    transaction.on_commit(lambda: RESULTS_CONFIRMED.labels(source=source).inc())


def queue_depth() -> float | None:
    """Messages waiting in our Celery queue (Redis lists, one per priority), None without
    Redis or when it does not answer."""
    if not settings.REDIS_URL:
        return None
    import redis

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
        from tournaments.selectors.health import standings_lag_seconds

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


_registered: list[SpinnerCollector] = []


def register() -> None:
    """Once per process (``apps.py``)."""
    if not _registered:
        collector = SpinnerCollector()
        REGISTRY.register(collector)
        _registered.append(collector)


def exposition() -> tuple[bytes, str]:
    """The text a scrape gets, and its content type: this process's registry, or, with
    ``PROMETHEUS_MULTIPROC_DIR``, every process's files merged, plus the gauges above."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        registry.register(SpinnerCollector())
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
