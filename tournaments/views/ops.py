"""The operators' endpoints (namespace ``ops``): ``/healthz`` (the process is alive: no
dependency asked), ``/readyz`` (it can serve: database, replica and its lag, Redis, a worker's
heartbeat, by django-health-check; 500 when one fails) and ``/metrics`` (Prometheus).

A load balancer sends traffic to a web process while ``/readyz`` answers 200; a supervisor
restarts one whose ``/healthz`` stops answering. ``/metrics`` is for the monitoring network only:
with ``SPINNER_METRICS_TOKEN`` set it asks for ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hmac
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from health_check.views import HealthCheckView

from tournaments.selectors import metrics as spinner_metrics
from tournaments.selectors.readiness import readiness_checks


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Alive: answers without asking the database or anything else."""
    return HttpResponse("ok\n", content_type="text/plain")


class ReadinessView(HealthCheckView):  # type: ignore[misc]
    """django-health-check's view over :func:`readiness_checks` (JSON with
    ``Accept: application/json`` or ``?format=json``)."""

    def get_checks(self) -> Any:
        self.checks = readiness_checks()
        return super().get_checks()


readyz = ReadinessView.as_view()


@require_safe
@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus' text format: django-prometheus' request and database metrics and Spinner's
    own (``tournaments/metrics.py``, ``selectors/metrics.py``)."""
    token = getattr(settings, "SPINNER_METRICS_TOKEN", "")
    if token:
        sent = request.headers.get("Authorization", "")
        if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
            return HttpResponse("metrics need the bearer token\n", status=401)
    body, content_type = spinner_metrics.exposition()
    return HttpResponse(body, content_type=content_type)
