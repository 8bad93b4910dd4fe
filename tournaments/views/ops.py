"""The operators' endpoints (namespace ``ops``): ``/healthz`` (the process is alive: no
dependency asked), ``/readyz`` (it can serve: database, replica and its lag, Redis, a worker's
heartbeat, by django-health-check; 503 when one fails) and ``/metrics`` (Prometheus).

A load balancer sends traffic to a web process while ``/readyz?scope=balancer`` answers 200; a
supervisor restarts one whose ``/healthz`` stops answering. Both answer whatever the request accepts
(curl's ``*/*``, no ``Accept`` at all, a browser's ``text/html``, a balancer's probe): plain
text naming each check's state, or JSON when the request asks for JSON. ``scope=balancer``
checks only the primary database (what this process needs to serve; ``selectors.readiness``):
a balancer must not drain every process for a shared dependency that degrades gracefully; the
whole ``/readyz`` is for monitoring. ``/metrics`` is for the monitoring network only:
with ``SPINNER_METRICS_TOKEN`` set it asks for ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import asyncio
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


def wants_json(request: HttpRequest) -> bool:
    """JSON when the request names it (``Accept: application/json``, ``+json``, or
    ``?format=json``); plain text for anything else, a malformed ``Accept`` included."""
    if request.GET.get("format") == "json":
        return True
    return "json" in request.headers.get("Accept", "").lower()


class ReadinessView(HealthCheckView):  # type: ignore[misc]
    """django-health-check's checks (:func:`readiness_checks`), answered as plain text
    (``Database(alias='default'): OK``, one line a check) or JSON: 200 when every check
    passes, 503 when one fails. The library's own negotiation is not used: it answers an HTML
    page (a template this project does not install: 500) to ``*/*`` and 406 to anything else
    it does not know."""

    def get_checks(self) -> Any:
        balancer = self.request.GET.get("scope") == "balancer"
        self.checks = readiness_checks(balancer=balancer)
        return super().get_checks()

    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        with self.get_executor() as executor:
            self.results = await asyncio.gather(
                *(check.get_result(executor) for check in self.get_checks())
            )
        status = 503 if any(result.error for result in self.results) else 200
        if wants_json(request):
            return self.render_to_response_json(status)  # type: ignore[no-any-return]
        return self.render_to_response_text(status)  # type: ignore[no-any-return]


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
