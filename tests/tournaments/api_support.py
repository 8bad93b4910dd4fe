"""Clients for the API tests: a table's token, a director's DRF token, anonymous."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tournaments.models import Round, Table
from tournaments.services.api_tokens import create_api_token
from tournaments.services.table_links import table_token


def table_client(rnd: Round, number: int, side: int = 0) -> APIClient:
    """A client with one side's link of table ``number`` (side A's unless told): a side's link
    claims only as that side and confirms only the other side's claim."""
    client = APIClient()
    table = Table.objects.get(event=rnd.event, number=number)
    token = table_token(round_=rnd, table=table, side=side)
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return client


def user_client(user: User) -> APIClient:
    client = APIClient()
    _, key = create_api_token(user=user)  # stored hashed: the key is known only here
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def key_client(user: User, **narrowed: Any) -> APIClient:
    """A client with a new API key of ``user``, narrowed as told (``scope``, ``events``,
    ``expires_at``: ``create_api_token``'s keywords)."""
    client = APIClient()
    _, secret = create_api_token(user=user, **narrowed)
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    return client


def key() -> str:
    return uuid.uuid4().hex


def post(client: APIClient, url: str, data: Any, **headers: str) -> Any:
    """POST JSON with a fresh idempotency key unless one is given (``Idempotency-Key=...``)."""
    extra = {"HTTP_IDEMPOTENCY_KEY": key()}
    for name, value in headers.items():
        extra["HTTP_" + name.upper().replace("-", "_")] = value
    return client.post(url, data, format="json", **extra)


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The one error body, with this status and code."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    body: dict[str, Any] = response.json()
    assert set(body) == {"code", "message", "details"}, body
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return body


@contextmanager
def private_cache(settings: Any) -> Iterator[None]:
    """A local-memory cache of the test's own (throttle counters start at zero), never the
    machine's Redis: clearing that would wipe other programs' data."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"results-test-{uuid.uuid4().hex}",
        }
    }
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
