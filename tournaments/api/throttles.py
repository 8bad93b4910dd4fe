"""Throttles for the endpoints table tokens use (scope ``table_token``).

A venue's phones often share one public address, so a table's requests are counted per side
link (each side of a table has its own), not per address; other clients per user or address as
DRF does, the address from :mod:`tournaments.client_ip`. Rates are read from
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` on each request (settings overrides apply).
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle as DRFAnonRateThrottle
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.throttling import UserRateThrottle as DRFUserRateThrottle

from tournaments.api.authentication import table_access
from tournaments.client_ip import client_address


class ClientAddressIdent:
    """The client's address as :func:`tournaments.client_ip.client_address` says (DRF's own
    believes any ``X-Forwarded-For``: a caller sending a new one each time is never throttled),
    and the scope's rate read on each request (DRF's classes read it once, at import)."""

    scope: str | None

    def get_ident(self, request: Request) -> str:
        return client_address(request)

    def get_rate(self) -> str | None:
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        rate = rates.get(self.scope or "")
        return str(rate) if rate else None


class AnonRateThrottle(ClientAddressIdent, DRFAnonRateThrottle):
    """DRF's, per client address."""


class UserRateThrottle(ClientAddressIdent, DRFUserRateThrottle):
    """DRF's, per account, and per client address for anonymous callers."""


class TableTokenThrottle(ClientAddressIdent, ScopedRateThrottle):
    """``ScopedRateThrottle`` keyed by the table for table tokens."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        access = table_access(request)
        if access is not None:
            return self.cache_format % {"scope": self.scope, "ident": access.scope}
        return super().get_cache_key(request, view)
