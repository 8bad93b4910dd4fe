"""Reads for a user's API keys page: their keys (newest first) and the events a key may be
limited to, each in a fixed number of queries."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from tournaments.models import ApiToken, Event


def is_expired(token: ApiToken, now: dt.datetime | None = None) -> bool:
    """Has the key passed its ``expires_at`` (None: it never expires)?"""
    return token.expires_at is not None and token.expires_at <= (now or timezone.now())


@dataclass(frozen=True)
class ApiKeyRow:
    """One key as its owner's page lists it: never the key itself, which is not stored."""

    token: ApiToken
    events: list[Event]
    expired: bool

    @property
    def active(self) -> bool:
        return self.token.revoked_at is None and not self.expired


def list_api_keys(user: User) -> list[ApiKeyRow]:
    """The user's keys, newest first, with their events. Two queries."""
    now = timezone.now()
    tokens = (
        ApiToken.objects.filter(user=user)
        .prefetch_related(Prefetch("events", queryset=Event.objects.order_by("name")))
        .order_by("-created_at", "-pk")
    )
    return [
        ApiKeyRow(
            token=t,
            events=list(t.events.all()),
            expired=is_expired(t, now),
        )
        for t in tokens
    ]


def scopable_events(user: User) -> QuerySet[Event]:
    """The events a key of this user may be limited to: those the user directs (a superuser:
    every event), newest first. One query when read."""
    events = Event.objects.all()
    if not user.is_superuser:
        events = events.filter(directors=user)
    return events.order_by("-start_date", "name")
