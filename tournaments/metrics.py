"""Spinner's own Prometheus counter, counted where results are written (the gauges read at
scrape time are in ``selectors/metrics.py``; all are served at ``/metrics``, ``views/ops.py``):

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

from django.db import transaction
from prometheus_client import Counter

RESULTS_CONFIRMED = Counter(
    "spinner_results_confirmed", "Results that became current, counted at commit.", ["source"]
)


def count_result_after_commit(source: str) -> None:
    """In the result's transaction: count it once the transaction commits."""
    transaction.on_commit(lambda: RESULTS_CONFIRMED.labels(source=source).inc())
