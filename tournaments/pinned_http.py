"""An HTTP request to an address that was already checked, never to a fresh DNS answer (issue 28).

A check that resolves a name and a client that resolves it again can be told two different
things (DNS rebinding: a public address for the check, 127.0.0.1 for the connection). Here the
caller passes the addresses it checked (``public_addresses.check_host``) and the connection goes
to one of them: :class:`PinnedAdapter` gives urllib3 the address as the pool's host, and for
HTTPS the URL's host as the TLS server name (SNI) and the name the certificate must match, so the
certificate is checked exactly as it would be without the pin. The ``Host`` header is the URL's.

Environment proxies are ignored (``trust_env`` off): a proxy would resolve the name itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import ConnectTimeoutError, MaxRetryError

MAX_ADDRESSES = 4
"""How many of the checked addresses are tried, in order, while none accepts the connection."""


class PinnedAdapter(HTTPAdapter):
    """Connects to ``address`` whatever the URL's host would resolve to now."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__(pool_connections=1, pool_maxsize=1, max_retries=0)

    def build_connection_pool_key_attributes(
        self, request: requests.PreparedRequest, verify: Any, cert: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        name = host_params["host"]
        host_params["host"] = self.address
        if host_params["scheme"] == "https":
            pool_kwargs["server_hostname"] = name  # SNI
            pool_kwargs["assert_hostname"] = name  # the certificate's name
        return host_params, pool_kwargs


def host_header(url: str) -> str:
    """The ``Host`` header a client sends for ``url``: its host and any port it gives."""
    return urlsplit(url).netloc.rsplit("@", 1)[-1]


def _never_connected(exc: requests.RequestException) -> bool:
    """True when nothing was sent: the connection itself failed (refused, unreachable, timed
    out), so another of the host's addresses may be tried."""
    cause = exc.args[0] if exc.args else None
    return isinstance(cause, MaxRetryError) and isinstance(cause.reason, ConnectTimeoutError)


@contextmanager
def post(
    url: str,
    *,
    addresses: Sequence[str],
    body: bytes,
    headers: Mapping[str, str],
    timeout: tuple[float, float],
    verify: bool | str = True,
) -> Iterator[requests.Response]:
    """POST ``body`` to ``url`` over a connection to one of ``addresses`` (tried in order while
    none accepts the connection), following no redirect; the response is streamed, and closed
    with the connection when the block ends. ``verify`` as ``requests`` takes it (a CA bundle's
    path in a test)."""
    if not addresses:
        raise ValueError("post() needs the addresses that were checked")
    sent = {**headers, "Host": host_header(url)}
    last: requests.RequestException | None = None
    for address in addresses[:MAX_ADDRESSES]:
        with requests.Session() as session:
            session.trust_env = False
            adapter = PinnedAdapter(address)
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            try:
                response = session.post(
                    url,
                    data=body,
                    headers=sent,
                    timeout=timeout,
                    allow_redirects=False,
                    stream=True,
                    verify=verify,
                )
            except requests.RequestException as exc:
                if not _never_connected(exc):
                    raise
                last = exc
                continue
            with response:
                yield response
            return
    assert last is not None
    raise last
