"""What reaches outside Spinner: the webhooks a director registers for an event (issue 19) and
the players' browser push subscriptions (issue 18).

Thin models like those of ``tournaments.models``, which re-exports them (import them from there).
Deliveries are made by Celery jobs after commit (``services/webhooks.py``, ``services/push.py``).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class WebhookEndpoint(models.Model):
    """An HTTPS endpoint a director registered for one event: which kinds of event it wants
    (``round.published``, ``result.confirmed``, ``standings.updated``, ``event.finished``; empty:
    all) and the secret its deliveries are signed with (HMAC-SHA256 over timestamp and body)."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64)
    kinds = models.JSONField(default=list, blank=True)
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "pk"]

    def __str__(self) -> str:
        return f"{self.url} for {self.event_id}"


class WebhookDelivery(models.Model):
    """One notification to one endpoint, retried with backoff until delivered or given up.

    ``dedup_key`` names what happened (e.g. ``result.confirmed:match:12:v1``), so the same
    happening is queued once per endpoint however many times the code that noticed it runs;
    ``delivery_id`` is sent to the receiver, which can drop a retry it already processed.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    delivery_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(max_length=40)
    dedup_key = models.CharField(max_length=200)
    payload = models.JSONField(default=dict)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "dedup_key"], name="webhook_delivery_once_per_happening"
            ),
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.kind} to {self.endpoint_id}: {self.status}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription to one entry's news (pairings published), made with
    the player's consent from "my table"; removed when the push service says it is gone."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    language = models.CharField(max_length=8, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "endpoint"], name="push_subscription_once_per_entry"
            ),
            models.CheckConstraint(condition=~Q(endpoint=""), name="push_endpoint_not_empty"),
        ]

    def __str__(self) -> str:
        return f"push for {self.entry_id}"
