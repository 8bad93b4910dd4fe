"""Web Push for "my table": a browser's subscription posted for the followed entry (checked,
bounded, CSRF-protected, throttled), and the notice sent when a round is published, delivered to
a local stand-in for the push service that records each request: the test decrypts the body
with the subscription's own keys (aes128gcm), as the phone would. A 404 or 410 from the push
service deletes the subscription; any other failure is logged and leaves it."""

from __future__ import annotations

import base64
import json
import logging
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management import call_command
from django.test import Client
from py_vapid import Vapid

from tests.tournaments.follow_support import (
    draft_round,
    follow,
    make_followed_event,
    match_of,
    private_cache,
)
from tournaments.models import PushSubscription
from tournaments.services import push, round_status

pytestmark = pytest.mark.django_db(transaction=True)


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Browser:
    """A browser's push subscription keys, made as a browser makes them: a P-256 key pair (the
    public point is ``p256dh``) and a 16-byte authentication secret."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        point = self.private.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": endpoint,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.secret)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.private, auth_secret=self.secret, version="aes128gcm"
        )
        notice: dict[str, Any] = json.loads(plain)
        return notice


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes


class PushService:
    """A local stand-in for a push service (http.server on a free port): records every POST and
    answers by path: ``/gone/...`` 410, ``/missing/...`` 404, ``/broken/...`` 500,
    ``/moved/...`` a redirect, anything else 201 (accepted)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append(Received(self.path, headers, body))
                status = {"gone": 410, "missing": 404, "broken": 500, "moved": 302}.get(
                    self.path.strip("/").split("/")[0], 201
                )
                self.send_response(status)
                if status == 302:
                    self.send_header("Location", "/accepted/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service(settings: Any) -> Iterator[PushService]:
    """The stand-in push service, and the settings that let a subscription name it (plain HTTP
    on 127.0.0.1: tests only), with a fresh VAPID key pair."""
    private_cache(settings)
    service = PushService()
    public, private = push.new_vapid_keys()
    settings.SPINNER_VAPID_PUBLIC_KEY = public
    settings.SPINNER_VAPID_PRIVATE_KEY = private
    settings.SPINNER_VAPID_SUBJECT = "mailto:director@example.org"
    settings.SPINNER_PUSH_ALLOW_HTTP = True
    settings.SPINNER_PUSH_HOSTS = ["127.0.0.1"]
    try:
        yield service
    finally:
        service.close()


def subscribe(client: Client, slug: str, subscription: Any, **headers: Any) -> Any:
    return client.post(
        f"/events/{slug}/me/push/",
        data=json.dumps(subscription),
        content_type="application/json",
        **headers,
    )


def test_a_published_round_reaches_the_phone_encrypted_with_its_keys(
    push_service: PushService,
) -> None:
    field = make_followed_event()
    phones = {"en": (Client(), Browser()), "es": (Client(HTTP_ACCEPT_LANGUAGE="es"), Browser())}
    for language, (client, browser) in phones.items():
        follow(client, field.event, field.ramirez)
        sent = subscribe(
            client, field.event.slug, browser.subscription(f"{push_service.url}/p/{language}")
        )
        assert sent.status_code == 201, sent.content
    assert dict(PushSubscription.objects.values_list("endpoint", "language")) == {
        f"{push_service.url}/p/en": "en",
        f"{push_service.url}/p/es": "es",
    }

    rnd = round_status.publish_round(round=draft_round(field), actor=field.director)
    # The task ran after the commit (eagerly here) and POSTed one notice per subscription.
    assert sorted(r.path for r in push_service.received) == ["/p/en", "/p/es"]
    match = match_of(rnd, field.ramirez)
    other = match.entry_b if match.entry_a_id == field.ramirez.pk else match.entry_a
    assert other is not None and match.table is not None
    for request in push_service.received:
        language = request.path.rsplit("/", 1)[1]
        assert request.headers["content-encoding"] == "aes128gcm"
        assert int(request.headers["ttl"]) > 0
        # Signed with the server's VAPID key, for this push service.
        assert request.headers["authorization"].startswith("vapid t=")
        assert f"k={push.settings.SPINNER_VAPID_PUBLIC_KEY}" in request.headers["authorization"]
        assert Vapid.verify(request.headers["authorization"])
        notice = phones[language][1].decrypt(request.body)
        assert notice["title"] == field.event.name
        assert notice["url"] == f"/events/{field.event.slug}/me/"
        assert notice["tag"] == f"spinner-{field.event.slug}-round-1"
        assert str(match.table.number) in notice["body"] and other.name in notice["body"]
        if language == "en":
            assert notice["body"] == f"Round 1: table {match.table.number}, vs {other.name}"
        else:
            assert notice["body"] == f"Ronda 1: mesa {match.table.number}, contra {other.name}"

    # Run twice (a redelivered task): nothing is sent again.
    assert push.send_round_pairings(round_id=rnd.pk) == push.SendOutcome()
    assert len(push_service.received) == 2


def test_gone_subscriptions_are_deleted_and_other_failures_logged(
    push_service: PushService, caplog: pytest.LogCaptureFixture
) -> None:
    field = make_followed_event()
    client = Client()
    follow(client, field.event, field.ramirez)
    for path in ("gone/1", "missing/1", "broken/1", "moved/1", "fine/1"):
        sent = subscribe(
            client, field.event.slug, Browser().subscription(f"{push_service.url}/{path}")
        )
        assert sent.status_code == 201
    draft = draft_round(field)
    with caplog.at_level(logging.WARNING, logger="tournaments.services.push"):
        round_status.publish_round(round=draft, actor=field.director)
    assert sorted(r.path for r in push_service.received) == [
        "/broken/1",
        "/fine/1",
        "/gone/1",
        "/missing/1",
        "/moved/1",  # never followed to where it points
    ]
    kept = sorted(
        p.rsplit("/", 2)[1] for p in PushSubscription.objects.values_list("endpoint", flat=True)
    )
    assert kept == ["broken", "fine", "moved"]
    assert sum("push to subscription" in r.getMessage() for r in caplog.records) == 2
    # Not retried for ever: a second run sends only to those that failed, once more.
    outcome = push.send_round_pairings(round_id=draft.pk)
    assert outcome == push.SendOutcome(sent=0, gone=0, failed=2)


def test_a_subscription_is_checked_and_bounded(push_service: PushService, settings: Any) -> None:
    field = make_followed_event()
    client = Client()
    good = Browser().subscription(f"{push_service.url}/p/1")
    slug = field.event.slug
    assert subscribe(client, slug, good).json()["code"] == "not_following"
    follow(client, field.event, field.ramirez)

    def code(subscription: Any) -> str:
        answer = subscribe(client, slug, subscription)
        assert answer.status_code in (400, 404), answer.content
        return str(answer.json()["code"])

    assert code({**good, "endpoint": "http://10.0.0.7/p/1"}) == "push_endpoint_invalid"
    assert code({**good, "endpoint": "file:///etc/passwd"}) == "push_endpoint_invalid"
    assert code({**good, "endpoint": f"{push_service.url}/{'x' * 1000}"}) == "push_endpoint_invalid"
    assert code({**good, "keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}}) == (
        "push_keys_invalid"
    )
    assert code({**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "c2hvcnQ"}}) == (
        "push_keys_invalid"
    )
    assert code({"endpoint": good["endpoint"]}) == "invalid"
    assert code({**good, "padding": "x" * 5000}) == "invalid"
    assert code(["not", "an", "object"]) == "invalid"
    assert PushSubscription.objects.count() == 0

    # Real push services only, over HTTPS: plain HTTP is the tests' allowance.
    settings.SPINNER_PUSH_ALLOW_HTTP = False
    assert code(good) == "push_endpoint_invalid"
    settings.SPINNER_PUSH_HOSTS = ["fcm.googleapis.com"]
    fcm = {**good, "endpoint": "https://fcm.googleapis.com/fcm/send/abc"}
    assert subscribe(client, slug, fcm).status_code == 201
    # An entry keeps its newest ten.
    for n in range(12):
        more = {**good, "endpoint": f"https://fcm.googleapis.com/fcm/send/{n}"}
        assert subscribe(client, slug, more).status_code == 201
    assert PushSubscription.objects.filter(entry=field.ramirez).count() == push.MAX_PER_ENTRY
    stop = client.post(
        f"/events/{slug}/me/push/stop/",
        data=json.dumps({**good, "endpoint": "https://fcm.googleapis.com/fcm/send/11"}),
        content_type="application/json",
    )
    assert stop.json() == {"removed": 1}
    # Without VAPID keys there is no push at all.
    settings.SPINNER_VAPID_PRIVATE_KEY = ""
    assert code(fcm) == "push_disabled"


def test_subscribing_needs_the_csrf_token_and_is_throttled(
    push_service: PushService, settings: Any
) -> None:
    field = make_followed_event()
    client = Client(enforce_csrf_checks=True)
    page = client.get(f"/events/{field.event.slug}/me/", {"q": "ramirez"})
    token = page.cookies["csrftoken"].value
    follow_response = client.post(
        f"/events/{field.event.slug}/me/follow/",
        {"entry": field.ramirez.pk, "csrfmiddlewaretoken": token},
    )
    assert follow_response.status_code == 302
    subscription = Browser().subscription(f"{push_service.url}/p/1")
    assert subscribe(client, field.event.slug, subscription).status_code == 403
    assert (
        subscribe(client, field.event.slug, subscription, HTTP_X_CSRFTOKEN=token).status_code == 201
    )

    # One subscription counted already: two more within the window, then 429.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"push_subscribe": "3/hour"},
    }
    statuses = [
        subscribe(client, field.event.slug, subscription, HTTP_X_CSRFTOKEN=token).status_code
        for _ in range(3)
    ]
    assert statuses == [201, 201, 429]


def test_the_page_offers_notifications_only_with_vapid_keys(
    push_service: PushService, settings: Any
) -> None:
    field = make_followed_event()
    client = Client()
    follow(client, field.event, field.ramirez)
    page = client.get(f"/events/{field.event.slug}/me/").content.decode()
    assert 'id="push"' in page and settings.SPINNER_VAPID_PUBLIC_KEY in page
    settings.SPINNER_VAPID_PUBLIC_KEY = ""
    page = client.get(f"/events/{field.event.slug}/me/").content.decode()
    assert 'id="push"' not in page and 'id="my-table"' in page


def test_vapid_keys_prints_a_pair_that_signs(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines() if "=" in line)
    vapid = Vapid.from_string(private_key=lines["SPINNER_VAPID_PRIVATE_KEY"])
    public = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    assert b64url(public) == lines["SPINNER_VAPID_PUBLIC_KEY"]
    headers = vapid.sign({"sub": "mailto:a@example.org", "aud": "https://fcm.googleapis.com"})
    assert Vapid.verify(headers["Authorization"])
