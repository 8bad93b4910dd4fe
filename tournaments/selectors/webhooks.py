"""Reads for webhooks: an event's endpoints with their last delivery, one endpoint, and its
deliveries' log. Fixed query counts (pinned in ``tests/tournaments/test_webhooks.py``)."""

from __future__ import annotations

import uuid

from django.db.models import Count, OuterRef, QuerySet, Subquery

from tournaments.errors import NotFound
from tournaments.models import Event, WebhookDelivery, WebhookEndpoint

DELIVERIES_SHOWN = 50
"""The director's page shows an endpoint's latest deliveries, this many."""


def list_endpoints(event: Event) -> list[WebhookEndpoint]:
    """The event's endpoints, oldest first, each annotated with its latest delivery's
    ``last_kind``, ``last_status``, ``last_status_code``, ``last_at`` (None when nothing was
    queued yet) and ``failed_count``. One query."""
    latest = WebhookDelivery.objects.filter(endpoint=OuterRef("pk")).order_by("-pk")
    failed = (
        WebhookDelivery.objects.filter(endpoint=OuterRef("pk"), status="failed")
        .order_by()
        .values("endpoint")
    )
    rows = (
        WebhookEndpoint.objects.filter(event=event)
        .annotate(
            last_kind=Subquery(latest.values("kind")[:1]),
            last_status=Subquery(latest.values("status")[:1]),
            last_status_code=Subquery(latest.values("last_status_code")[:1]),
            last_at=Subquery(latest.values("updated_at")[:1]),
            failed_count=Subquery(failed.annotate(n=Count("pk")).values("n")[:1]),
        )
        .order_by("pk")
    )
    return list(rows)


def endpoint_of(event: Event, endpoint_id: int) -> WebhookEndpoint:
    """The event's endpoint ``endpoint_id`` (``webhook_not_found`` otherwise). One query."""
    endpoint = (
        WebhookEndpoint.objects.select_related("event").filter(event=event, pk=endpoint_id).first()
    )
    if endpoint is None:
        raise NotFound(
            "This event has no such webhook endpoint.",
            code="webhook_not_found",
            details={"webhook": endpoint_id},
        )
    return endpoint


def deliveries_of(endpoint: WebhookEndpoint, *, status: str = "") -> QuerySet[WebhookDelivery]:
    """An endpoint's deliveries, newest first (only those of ``status`` if given)."""
    rows = WebhookDelivery.objects.filter(endpoint=endpoint).order_by("-pk")
    return rows.filter(status=status) if status else rows


def delivery_of(endpoint: WebhookEndpoint, delivery_id: str) -> WebhookDelivery:
    """The endpoint's delivery by its uuid (``webhook_delivery_not_found`` otherwise)."""
    try:
        wanted: uuid.UUID | None = uuid.UUID(str(delivery_id))
    except ValueError:
        wanted = None
    delivery = (
        WebhookDelivery.objects.select_related("endpoint__event")
        .filter(endpoint=endpoint, delivery_id=wanted)
        .first()
        if wanted is not None
        else None
    )
    if delivery is None:
        raise NotFound(
            "This endpoint has no such delivery.",
            code="webhook_delivery_not_found",
            details={"delivery": str(delivery_id)},
        )
    return delivery
