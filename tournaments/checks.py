"""Spinner's own system checks (``manage.py check``), registered by ``apps.TournamentsConfig``.

``check --deploy`` fails while ``/metrics`` would be public in production: ``DEBUG`` off, no
``SPINNER_METRICS_TOKEN`` (the scraper's bearer token), and the operator has not said that
``/metrics`` is reachable only from a private network (``SPINNER_METRICS_PRIVATE=1``). Its
figures (request counts by view, queue depth, results confirmed) are no one's business outside.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register
from django.core.exceptions import ImproperlyConfigured

from tournaments.client_ip import trusted_proxies

METRICS_PUBLIC = "spinner.E101"


@register(Tags.security, deploy=True)
def metrics_not_public(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """``/metrics`` needs a token in production, unless it is on a private network."""
    token = str(getattr(settings, "SPINNER_METRICS_TOKEN", "") or "")
    private = bool(getattr(settings, "SPINNER_METRICS_PRIVATE", False))
    if settings.DEBUG or token or private:
        return []
    return [
        Error(
            "/metrics is public: SPINNER_METRICS_TOKEN is not set.",
            hint=(
                "Set SPINNER_METRICS_TOKEN to a long random string and give Prometheus "
                "'Authorization: Bearer <token>' (its scrape config's authorization), or, if "
                "only your monitoring network reaches /metrics (the proxy refuses it from "
                "outside), set SPINNER_METRICS_PRIVATE=1. See docs/deploy.md."
            ),
            id=METRICS_PUBLIC,
        )
    ]


TRUSTED_PROXIES_INVALID = "spinner.E102"


@register(Tags.security)
def trusted_proxies_valid(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """``SPINNER_TRUSTED_PROXIES`` names addresses or networks only (``tournaments.client_ip``):
    a typo fails at start, not at the first request."""
    try:
        trusted_proxies()
    except ImproperlyConfigured as exc:
        return [
            Error(
                str(exc),
                hint="List addresses or networks, comma-separated: 127.0.0.1,10.0.0.0/8.",
                id=TRUSTED_PROXIES_INVALID,
            )
        ]
    return []
