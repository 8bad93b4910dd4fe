"""A webhook delivery connects to the address it checked (issue 28): a DNS answer that changes
between the check and the connection (rebinding) never gets a delivery to 127.0.0.1, every form
of a loopback host is refused before any byte is sent, and a pinned connection keeps the URL's
``Host`` header, TLS server name and certificate check.

Real HTTP (and HTTPS) servers on loopback addresses record what reaches them; the only double is
the DNS lookup, passed as the delivery's resolve step. No test can reach the internet, so
127.0.0.2 plays the public receiver, let through by the delivery's test-only ``allow``; the
victim is a server on 127.0.0.1 at the same port, which must never be hit.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.conftest import free_port
from tests.tournaments.rounds_factory import make_director, make_event
from tests.tournaments.webhook_support import Receiver, self_signed
from tournaments import pinned_http
from tournaments.models import WebhookDelivery, WebhookEndpoint
from tournaments.services import webhook_deliveries, webhooks

pytestmark = pytest.mark.django_db

STAND_IN = "127.0.0.2"  # plays the public address the name first resolves to


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def victim(port: int) -> Iterator[Receiver]:
    """A service on 127.0.0.1: what a rebinding attack would reach."""
    found = Receiver(port=port).start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture
def public(port: int) -> Iterator[Receiver]:
    """The receiver at the address the check saw (same port as the victim)."""
    found = Receiver(port=port, address=STAND_IN).start()
    try:
        yield found
    finally:
        found.stop()


def endpoint_at(url: str, settings: Any, *receivers: Receiver) -> WebhookEndpoint:
    """An endpoint registered at ``url`` (plain http allowed while registering, as the test's
    servers have no TLS; then no host is exempt from the address check), its secret given to
    the receivers so they accept its deliveries."""
    event = make_event("pinned")
    host = url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
    settings.SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS = [host]
    endpoint, secret = webhooks.register_endpoint(event=event, actor=make_director(event), url=url)
    settings.SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS = []
    for receiver in receivers:
        receiver.secret = secret
    return endpoint


def delivery_for(endpoint: WebhookEndpoint, key: str = "pinned:1") -> str:
    row = WebhookDelivery.objects.create(
        endpoint=endpoint, kind="standings.updated", dedup_key=key, payload={"generation": 1}
    )
    return str(row.delivery_id)


def test_a_rebinding_resolver_never_gets_a_delivery_to_127_0_0_1(
    settings: Any, port: int, victim: Receiver, public: Receiver
) -> None:
    """The finding: the name answers a public address to the check, then 127.0.0.1 to whoever
    asks next. The delivery asks once and connects there; the server on 127.0.0.1 is never
    hit. (``rebind.example.test`` is in no real DNS: a client resolving again would fail.)"""
    asked: list[tuple[str, int]] = []

    def rebinding(host: str, at: int) -> list[str]:
        asked.append((host, at))
        return [STAND_IN] if len(asked) == 1 else ["127.0.0.1"]

    endpoint = endpoint_at(f"http://rebind.example.test:{port}/hook", settings, victim, public)
    outcome = webhook_deliveries.attempt_delivery(
        delivery_id=delivery_for(endpoint), resolve=rebinding, allow={STAND_IN}
    )
    assert outcome.status == "delivered"
    assert asked == [("rebind.example.test", port)]  # one lookup for the attempt
    assert victim.requests() == []
    (got,) = public.accepted()
    assert got.verified and got.host == f"rebind.example.test:{port}"

    # The next attempt looks up again, and 127.0.0.1 is now the answer: refused, not sent.
    second = delivery_for(endpoint, "pinned:2")
    again = webhook_deliveries.attempt_delivery(
        delivery_id=second, resolve=rebinding, allow={STAND_IN}
    )
    assert again.status == "retry"
    row = WebhookDelivery.objects.get(delivery_id=second)
    assert row.status == "pending" and row.last_status_code is None
    assert row.last_error == (
        "Refused: the endpoint's host resolves to 127.0.0.1, which is not a public address "
        "(loopback); deliveries go only to public addresses."
    )
    assert len(asked) == 2 and victim.requests() == [] and len(public.requests()) == 1


def test_one_loopback_answer_among_public_ones_refuses_the_delivery(
    settings: Any, port: int, victim: Receiver, public: Receiver
) -> None:
    endpoint = endpoint_at(f"http://mixed.example.test:{port}/hook", settings, victim, public)
    delivery_id = delivery_for(endpoint)
    outcome = webhook_deliveries.attempt_delivery(
        delivery_id=delivery_id,
        resolve=lambda host, at: [STAND_IN, "127.0.0.1"],
        allow={STAND_IN},
    )
    assert outcome.status == "retry"
    assert (
        "resolves to 127.0.0.1" in WebhookDelivery.objects.get(delivery_id=delivery_id).last_error
    )
    assert victim.requests() == [] and public.requests() == []


@pytest.mark.parametrize(
    ("host", "says"),
    [
        ("127.0.0.1", "127.0.0.1, which is not a public address (loopback)"),
        ("localhost", "which is not a public address (loopback)"),  # the system's own lookup
        ("2130706433", "four decimal numbers"),
        ("0x7f000001", "four decimal numbers"),
        ("0x7f.0.0.1", "four decimal numbers"),
        ("0177.0.0.1", "four decimal numbers"),
        ("127.1", "four decimal numbers"),
        ("[::ffff:127.0.0.1]", "which is not a public address (IPv4-mapped)"),
        ("[::127.0.0.1]", "(IPv4-compatible)"),
        ("[::1]", "::1, which is not a public address (loopback)"),
        ("[64:ff9b::7f00:1]", "(NAT64 of 127.0.0.1, loopback)"),
        ("[64:ff9b:1:7f00:0:100::]", "(NAT64 of 127.0.0.1, loopback)"),
        ("[2002:7f00:1::1]", "(6to4 of 127.0.0.1, loopback)"),
        ("[2001::7f00:1]", "(Teredo)"),
    ],
)
def test_every_form_of_a_loopback_host_is_refused_before_anything_is_sent(
    settings: Any, port: int, victim: Receiver, host: str, says: str
) -> None:
    """Endpoints kept from before this check (or let through by an operator's allow-list then)
    are checked again at every delivery, with the system's own DNS lookup."""
    endpoint = endpoint_at(f"http://{host}:{port}/hook", settings, victim)
    delivery_id = delivery_for(endpoint)
    assert webhook_deliveries.attempt_delivery(delivery_id=delivery_id).status == "retry"
    row = WebhookDelivery.objects.get(delivery_id=delivery_id)
    assert says in row.last_error and row.last_error.startswith("Refused:")
    assert victim.requests() == []


def test_a_pinned_https_request_sends_the_name_as_sni_and_checks_the_certificate(
    tmp_path: Path, port: int
) -> None:
    """The connection goes to 127.0.0.1, yet TLS names ``hook.example.test`` (SNI) and the
    certificate (for that name only, no address in it) is checked against the name."""
    tls = self_signed(tmp_path, "hook.example.test")
    receiver = Receiver("s3cret", port=port, tls=tls).start()
    try:
        body = b'{"id":"1"}'
        headers = {
            "X-Spinner-Signature": webhook_deliveries.signature("s3cret", int(time.time()), body)
        }
        url = f"https://hook.example.test:{port}/hook"
        kwargs: dict[str, Any] = {"body": body, "headers": headers, "timeout": (3.0, 5.0)}
        with pinned_http.post(url, addresses=["127.0.0.1"], verify=tls[0], **kwargs) as answer:
            assert answer.status_code == 200
        (got,) = receiver.accepted()
        assert got.verified and got.host == f"hook.example.test:{port}"
        assert receiver.server_names == ["hook.example.test"]

        # Another name at the same address: its certificate does not match, nothing is sent.
        wrong = f"https://other.example.test:{port}/hook"
        with (
            pytest.raises(requests.exceptions.SSLError, match=r"other\.example\.test"),
            pinned_http.post(wrong, addresses=["127.0.0.1"], verify=tls[0], **kwargs),
        ):
            pytest.fail("a certificate for another name is refused")
        # Verification is on by default: a certificate no authority signed is refused.
        with (
            pytest.raises(requests.exceptions.SSLError, match="CERTIFICATE_VERIFY_FAILED"),
            pinned_http.post(url, addresses=["127.0.0.1"], **kwargs),
        ):
            pytest.fail("an unknown authority is refused")
        assert receiver.server_names[1:] == ["other.example.test", "hook.example.test"]
        assert len(receiver.requests()) == 1
    finally:
        receiver.stop()


def test_a_delivery_over_https_checks_the_certificate_at_the_pinned_address(
    tmp_path: Path, settings: Any, port: int
) -> None:
    receiver = Receiver(port=port, tls=self_signed(tmp_path, "hook.example.test")).start()
    try:
        endpoint = endpoint_at(f"https://hook.example.test:{port}/hook", settings, receiver)
        delivery_id = delivery_for(endpoint)
        outcome = webhook_deliveries.attempt_delivery(
            delivery_id=delivery_id, resolve=lambda host, at: ["127.0.0.1"], allow={"127.0.0.1"}
        )
        assert outcome.status == "retry"
        row = WebhookDelivery.objects.get(delivery_id=delivery_id)
        assert (
            row.last_error.startswith("SSLError") and "CERTIFICATE_VERIFY_FAILED" in row.last_error
        )
        assert receiver.server_names == ["hook.example.test"] and receiver.requests() == []
    finally:
        receiver.stop()


def test_when_an_address_refuses_the_connection_the_next_one_is_tried(
    port: int, public: Receiver
) -> None:
    url = f"http://two.example.test:{port}/hook"
    kwargs: dict[str, Any] = {"body": b"{}", "headers": {}, "timeout": (3.0, 5.0)}
    with pinned_http.post(url, addresses=["127.0.0.3", STAND_IN], **kwargs) as answer:
        assert answer.status_code == 400  # the receiver's answer to an unsigned request
    (got,) = public.requests()
    assert got.host == f"two.example.test:{port}"
    with (
        pytest.raises(requests.exceptions.ConnectionError),
        pinned_http.post(url, addresses=["127.0.0.3", "127.0.0.4"], **kwargs),
    ):
        pytest.fail("nothing listens there")
    with (
        pytest.raises(ValueError, match="addresses that were checked"),
        pinned_http.post(url, addresses=[], **kwargs),
    ):
        pytest.fail("no address, no request")
