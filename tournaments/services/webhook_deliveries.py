"""Sending webhook deliveries: signing, one attempt at a time, backoff, and the sweep.

The delivery task (``tasks.deliver_webhook``) calls :func:`attempt_delivery`, which:

1. *claims* the delivery in a short transaction: the row locked (``SKIP LOCKED``: an attempt
   already holding it means this one does nothing), still pending, its endpoint active, and due
   (``next_attempt_at`` passed); the attempt is counted and ``next_attempt_at`` moved a lease
   ahead, so a second copy of the task (an ``acks_late`` redelivery, the sweep) finds it not due;
2. POSTs the body, outside any transaction (no row stays locked while a receiver thinks), with
   connect and read timeouts, following no redirect, to an address its host was resolved to
   once and checked public (``public_addresses``), with the URL's Host and TLS name
   (``pinned_http``): a second DNS answer (rebinding) is never asked for;
3. *records* the outcome: any 2xx is delivered; anything else keeps the status code or error,
   and either schedules the next attempt (exponential backoff with jitter, returned so the task
   retries with that countdown) or, after the last allowed attempt, marks it failed.

A delivered or failed delivery is never sent again by the task (only a director's "retry now"
makes a failed one pending again). Delivery is at least once: a worker killed after the
receiver answered but before the outcome was recorded leaves the delivery pending, and the
sweep sends it again once its lease ends; receivers drop a ``X-Spinner-Delivery`` they already
processed (``docs/webhooks.md``).

The body is the same bytes on every attempt: ``{"id", "kind", "created_at", "data"}`` as compact
JSON with sorted keys. The signature header (as Stripe's scheme):
``X-Spinner-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret>``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import time
from collections.abc import Collection
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments import pinned_http, public_addresses
from tournaments.models import WebhookDelivery
from tournaments.queueing import send_task_safely
from tournaments.services.webhooks import DELIVER_TASK

logger = logging.getLogger(__name__)

EVENT_HEADER = "X-Spinner-Event"
DELIVERY_HEADER = "X-Spinner-Delivery"
SIGNATURE_HEADER = "X-Spinner-Signature"
USER_AGENT = "Spinner-Webhooks/1"

CONNECT_TIMEOUT = 3.0
READ_TIMEOUT = 5.0

LEASE_SECONDS = 60.0
"""An attempt in flight holds its delivery this long (far more than the timeouts allow); a
worker that died mid-attempt leaves it to the sweep after that."""

DUE_TOLERANCE_SECONDS = 1.0
"""A retry's countdown starts a moment after ``next_attempt_at`` is written: so much early is
still due."""

ERROR_CHARS = 500
"""How much of an error (or of a refusing receiver's answer) the log keeps."""

SWEEP_BATCH = 500


Status = Literal["delivered", "retry", "failed", "skipped"]


@dataclass(frozen=True)
class AttemptOutcome:
    """What one run of the task did: ``skipped`` (not due, not pending, gone, or held by another
    attempt), ``delivered``, ``retry`` (try again in ``retry_in`` seconds) or ``failed``."""

    status: Status
    retry_in: float | None = None


@dataclass(frozen=True)
class _Claimed:
    pk: int
    url: str
    secret: str
    kind: str
    delivery_id: str
    body: bytes


def body_of(delivery: WebhookDelivery) -> bytes:
    """The delivery's body: the same bytes on every attempt."""
    document = {
        "id": str(delivery.delivery_id),
        "kind": delivery.kind,
        "created_at": delivery.created_at,
        "data": delivery.payload,
    }
    text = json.dumps(document, cls=DjangoJSONEncoder, sort_keys=True, separators=(",", ":"))
    return text.encode("utf-8")


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Spinner-Signature`` value: ``t=<timestamp>,v1=<HMAC-SHA256 hex>`` over
    ``b"<timestamp>." + body``, keyed by the endpoint's secret."""
    signed = str(timestamp).encode("ascii") + b"." + body
    digest = hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def backoff_seconds(attempts: int, *, jitter: float | None = None) -> float:
    """How long to wait after the ``attempts``-th failed attempt: BACKOFF x FACTOR^(attempts-1),
    at most MAX_DELAY, plus up to a quarter more at random (so receivers coming back are not hit
    by every sender at once). The settings: ``SPINNER_WEBHOOK_BACKOFF_*``."""
    base = float(settings.SPINNER_WEBHOOK_BACKOFF_SECONDS)
    factor = float(settings.SPINNER_WEBHOOK_BACKOFF_FACTOR)
    ceiling = float(settings.SPINNER_WEBHOOK_BACKOFF_MAX_SECONDS)
    delay = min(ceiling, base * factor ** max(0, attempts - 1))
    spread = random.random() if jitter is None else jitter  # jitter, not a secret
    return delay * (1 + 0.25 * spread)


def _claim(delivery_id: str) -> _Claimed | None:
    """Take the delivery for one attempt (see the module doc), or None to do nothing."""
    now = timezone.now()
    with transaction.atomic():
        row = (
            WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("endpoint")
            .filter(delivery_id=delivery_id)
            .first()
        )
        if row is None or row.status != WebhookDelivery.Status.PENDING:
            return None
        if not row.endpoint.active:
            return None
        due = row.next_attempt_at is None or row.next_attempt_at <= now + timedelta(
            seconds=DUE_TOLERANCE_SECONDS
        )
        if not due:
            return None
        row.attempts += 1
        row.next_attempt_at = now + timedelta(seconds=LEASE_SECONDS)
        row.save(update_fields=["attempts", "next_attempt_at", "updated_at"])
        return _Claimed(
            pk=row.pk,
            url=row.endpoint.url,
            secret=row.endpoint.secret,
            kind=row.kind,
            delivery_id=str(row.delivery_id),
            body=body_of(row),
        )


def _addresses(
    url: str, resolve: public_addresses.Resolver, allow: Collection[str]
) -> public_addresses.Checked:
    """The receiver's host looked up once, every address checked public
    (``public_addresses.check_host``): the delivery connects to one of these, never to a second
    answer. A director's endpoint must not make the server call into its own network; hosts
    listed in ``SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS`` (a receiver on this machine, in development or
    a test) may, still at the addresses looked up."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    trusted = host in {h.lower() for h in getattr(settings, "SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS", [])}
    return public_addresses.check_host(host, port, resolve=resolve, trusted=trusted, allow=allow)


def _post(
    claimed: _Claimed,
    *,
    resolve: public_addresses.Resolver = public_addresses.system_resolver,
    allow: Collection[str] = (),
) -> tuple[int | None, str]:
    """POST the body, signed now, to an address its host resolved to and that was checked; the
    receiver's status code (None when none answered) and what went wrong (empty for a 2xx)."""
    checked = _addresses(claimed.url, resolve, allow)
    if checked.refused:
        return None, checked.refused[:ERROR_CHARS]
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_HEADER: claimed.kind,
        DELIVERY_HEADER: claimed.delivery_id,
        SIGNATURE_HEADER: signature(claimed.secret, timestamp, claimed.body),
    }
    try:
        with pinned_http.post(
            claimed.url,
            addresses=checked.addresses,
            body=claimed.body,
            headers=headers,
            timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
        ) as response:
            if 200 <= response.status_code < 300:
                return response.status_code, ""
            answer = response.raw.read(ERROR_CHARS, decode_content=True) or b""
            text = answer.decode("utf-8", "replace").strip()
            reason = f"HTTP {response.status_code} {response.reason or ''}".strip()
            return response.status_code, (f"{reason}: {text}" if text else reason)[:ERROR_CHARS]
    except requests.RequestException as exc:
        return None, f"{type(exc).__name__}: {exc}"[:ERROR_CHARS]


def _record(claimed: _Claimed, code: int | None, error: str) -> AttemptOutcome:
    """Keep the attempt's outcome; schedule the next attempt or give up."""
    now = timezone.now()
    with transaction.atomic():
        row = WebhookDelivery.objects.select_for_update().filter(pk=claimed.pk).first()
        if row is None:  # the endpoint was removed meanwhile
            return AttemptOutcome("skipped")
        row.last_status_code = code
        row.last_error = error
        outcome: AttemptOutcome
        if code is not None and 200 <= code < 300:
            row.status = WebhookDelivery.Status.DELIVERED
            row.delivered_at = now
            row.next_attempt_at = None
            outcome = AttemptOutcome("delivered")
        elif row.attempts >= int(settings.SPINNER_WEBHOOK_MAX_ATTEMPTS):
            row.status = WebhookDelivery.Status.FAILED
            row.next_attempt_at = None
            outcome = AttemptOutcome("failed")
        else:
            wait = backoff_seconds(row.attempts)
            row.next_attempt_at = now + timedelta(seconds=wait)
            outcome = AttemptOutcome("retry", retry_in=wait)
        row.save(
            update_fields=[
                "status",
                "last_status_code",
                "last_error",
                "next_attempt_at",
                "delivered_at",
                "updated_at",
            ]
        )
    return outcome


def attempt_delivery(
    *,
    delivery_id: str,
    resolve: public_addresses.Resolver = public_addresses.system_resolver,
    allow: Collection[str] = (),
) -> AttemptOutcome:
    """One attempt at the delivery ``delivery_id`` (its uuid), if it is due; safe to run twice
    and concurrently (see the module doc). ``resolve`` is the DNS lookup (the system's; a test
    passes its own) and ``allow`` addresses to take as public, for tests only."""
    claimed = _claim(delivery_id)
    if claimed is None:
        return AttemptOutcome("skipped")
    code, error = _post(claimed, resolve=resolve, allow=allow)
    if error:
        logger.info("webhook %s to %s: %s", claimed.delivery_id, claimed.url, error)
    return _record(claimed, code, error)


def sweep_due_deliveries() -> int:
    """Periodic (beat): send the task again for every pending delivery of an active endpoint
    that is due (its message lost, its worker restarted, its lease over). Duplicates are
    harmless: an attempt claims the delivery first. Returns how many were sent."""
    due = (
        WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING, endpoint__active=True)
        .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=timezone.now()))
        .order_by("next_attempt_at")
        .values_list("delivery_id", flat=True)[:SWEEP_BATCH]
    )
    sent = 0
    for delivery_id in list(due):
        sent += send_task_safely(DELIVER_TASK, str(delivery_id))
    return sent
