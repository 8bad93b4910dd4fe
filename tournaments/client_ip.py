"""The client's address, the one place it is worked out (issue 28).

Behind a reverse proxy every request comes from the proxy (``REMOTE_ADDR``), so the log in
guard, the rate limits and the API's throttles would count the whole world as one client. The
proxy names the client in ``X-Forwarded-For``, but anybody can send that header too. So the
header is believed only as far as it was written by proxies the operator named in
``SPINNER_TRUSTED_PROXIES`` (addresses or networks, e.g. ``127.0.0.1,10.0.0.0/8``): when the
peer is one of them, the hops of ``X-Forwarded-For`` are read from the right (each proxy appends
the address it saw), trusted proxies skipped, and the first address that is not a trusted proxy
is the client. A client's own ``X-Forwarded-For`` (sent to the proxy, which appends to it) is
left of that and never read. With no trusted proxies (the default), the header is ignored.

Used by :mod:`tournaments.rate_limit`, the API's throttles (:mod:`tournaments.api.throttles`)
and django-axes (``AXES_CLIENT_IP_CALLABLE``), hence the log in guard's ``axes_ip_address``.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@functools.lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError as exc:
            raise ImproperlyConfigured(
                f"SPINNER_TRUSTED_PROXIES: {entry!r} is not an address or network ({exc})"
            ) from exc
    return tuple(networks)


def trusted_proxies() -> tuple[Network, ...]:
    """The networks of ``SPINNER_TRUSTED_PROXIES`` (a list, or a comma-separated string)."""
    value: Any = getattr(settings, "SPINNER_TRUSTED_PROXIES", ())
    if isinstance(value, str):
        value = value.split(",")
    return _networks(tuple(str(v).strip() for v in value if str(v).strip()))


def parse_address(text: str) -> Address | None:
    """An address as a header or ``REMOTE_ADDR`` gives it (an IPv4-mapped IPv6 address as its
    IPv4 address; ``[v6]:port`` and ``v4:port`` forms too), or None."""
    text = text.strip()
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address | None, networks: Iterable[Network]) -> bool:
    return address is not None and any(address in network for network in networks)


def client_address(request: Any) -> str:
    """The client's address (a Django or DRF request): ``REMOTE_ADDR``, or behind trusted
    proxies the last address in ``X-Forwarded-For`` that is not one of them; "unknown" when
    there is none."""
    meta = request.META
    remote_text = str(meta.get("REMOTE_ADDR", "") or "")
    remote = parse_address(remote_text)
    networks = trusted_proxies()
    if not _trusted(remote, networks):
        return str(remote) if remote is not None else (remote_text or "unknown")
    client: Address | None = remote
    hops = [hop for hop in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",") if hop.strip()]
    for hop in reversed(hops):
        address = parse_address(hop)
        if address is None:
            break  # a trusted proxy handed on something that is no address: stop at that proxy
        client = address
        if not _trusted(address, networks):
            break
    return str(client)


def axes_client_address(request: Any) -> str | None:
    """:func:`client_address` for django-axes, which stores it in an address column: ``None``
    where the request carries no address (a test client's ``force_login``, a bare request), not
    the text "unknown" that PostgreSQL's ``inet`` refuses."""
    address = client_address(request)
    return address if parse_address(address) is not None else None
