"""Idempotency records kept for a bounded time (issue 15).

The API keeps each write's answer under its ``Idempotency-Key`` (``tournaments.api.idempotency``)
so that a retried request gets the same answer. A retry comes within minutes; the records are
kept ``SPINNER_IDEMPOTENCY_TTL_SECONDS`` (a day by default) and Celery beat's
``purge-idempotency`` job deletes older ones, so they never pile up. A key sent again after its
record is gone runs as a new request: the claims' own versions (``If-Match``) and equal-claim
retries still store nothing twice.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from tournaments.models import IdempotencyRecord


def purge_idempotency_records(*, ttl_seconds: float | None = None) -> int:
    """Delete the records older than the time to live; returns how many went."""
    ttl = settings.SPINNER_IDEMPOTENCY_TTL_SECONDS if ttl_seconds is None else ttl_seconds
    cutoff = timezone.now() - timedelta(seconds=ttl)
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
