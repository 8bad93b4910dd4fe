"""A fixed-window rate limit for plain Django views (the API's views use DRF's throttles).

Rates are DRF's notation (``"240/min"``) and live beside the API's, in
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (one place to tune them). Counters are in the
cache: shared by every worker when the cache is Redis; a cache outage lets requests through
(the fail-open cache), never refuses them.

Wrong credentials (a table link's token, an API key) are counted per address, after the check
(:func:`wrong_credential`): beyond the scope's rate that address's wrong ones answer 429 with
``Retry-After``; a right credential is never counted and never refused, whichever address it
comes from (a venue's phones share one).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext

from tournaments.client_ip import client_address
from tournaments.errors import SpinnerError

__all__ = ["client_address"]  # the client's address (behind trusted proxies: tournaments.client_ip)

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate_of(scope: str) -> tuple[int, int] | None:
    """``(requests, seconds)`` for the scope, or None when it has no rate (no limit)."""
    config: Any = settings.REST_FRAMEWORK
    rates: dict[str, Any] = config.get("DEFAULT_THROTTLE_RATES", {})
    rate = rates.get(scope)
    if not rate:
        return None
    count, period = str(rate).split("/")
    return int(count), _PERIODS[period.strip()[0]]


def allow(scope: str, ident: str) -> tuple[bool, int]:
    """Count one request of ``ident`` in ``scope``: (allowed, seconds until the window ends)."""
    rate = rate_of(scope)
    if rate is None:
        return True, 0
    limit, seconds = rate
    now = time.time()
    window = int(now // seconds)
    key = f"ratelimit:{scope}:{ident}:{window}"
    cache.add(key, 0, timeout=seconds + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between add and incr (or the cache is down): let it through
        return True, 0
    wait = max(1, int((window + 1) * seconds - now))
    return count <= limit, wait


class WrongCredentialsThrottled(SpinnerError):
    """Too many wrong table links or API keys from one address: 429, wait ``retry_after``."""

    code = "throttled"
    status = 429

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message, details={"retry_after": retry_after})
        self.retry_after = retry_after


def wrong_credential(scope: str, request: Any) -> int:
    """Count one wrong credential (scope ``table_link_failures`` or ``api_key_failures``) from
    the request's address (a Django or DRF request): the seconds to wait when that address is
    beyond the scope's rate, else 0. Called only once the credential was found wrong."""
    ok, wait = allow(scope, client_address(request))
    return 0 if ok else wait


def refuse_wrong_link(request: Any, refusal: SpinnerError) -> SpinnerError:
    """The error for a wrong table link: ``refusal`` itself, or once the address sent too many
    wrong links, a :class:`WrongCredentialsThrottled` that still says the link is not valid."""
    wait = wrong_credential("table_link_failures", request)
    if not wait:
        return refusal
    message = gettext(
        "%(refusal)s Too many wrong table links came from this network: "
        "try again in %(seconds)s seconds."
    ) % {"refusal": refusal.message, "seconds": wait}
    return WrongCredentialsThrottled(message, retry_after=wait)


def with_retry_after(response: HttpResponseBase, exc: SpinnerError) -> HttpResponseBase:
    """``Retry-After`` on a response to a :class:`WrongCredentialsThrottled` (others unchanged)."""
    if isinstance(exc, WrongCredentialsThrottled):
        response["Retry-After"] = str(exc.retry_after)
    return response


def per_table_link(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> str:
    """Count per table link (a venue's phones share one address); the cache key holds a digest
    of the token, never the token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:32]


def throttled(
    scope: str, ident: Callable[..., str], *, methods: tuple[str, ...] = ()
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """Decorate a view: beyond the scope's rate, a 429 (JSON ``{code, message, details}`` for
    JSON callers, plain text otherwise) with ``Retry-After``. ``ident(request, *args,
    **kwargs)`` names the client counted; ``methods`` limits counting to those methods."""

    def decorate(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if methods and request.method not in methods:
                return view(request, *args, **kwargs)
            ok, wait = allow(scope, ident(request, *args, **kwargs))
            if ok:
                return view(request, *args, **kwargs)
            body = {
                "code": "throttled",
                "message": "Too many requests; try again shortly.",
                "details": {"retry_after": wait},
            }
            response: HttpResponse
            if request.path.startswith(("/t/", "/api/")) or "json" in (request.content_type or ""):
                response = JsonResponse(body, status=429)
            else:
                response = HttpResponse(body["message"], status=429, content_type="text/plain")
            response["Retry-After"] = str(wait)
            return response

        return wrapper

    return decorate
