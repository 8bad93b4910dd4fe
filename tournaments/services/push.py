"""Web Push: with the player's consent, "my table" subscribes their browser to their entry's
news, and when a round is published each subscribed entry is sent its table ("Round 3: table 12,
vs X") in the language the subscription was made in.

Settings (``spinner/settings.py``): ``SPINNER_VAPID_PUBLIC_KEY`` and
``SPINNER_VAPID_PRIVATE_KEY`` (``manage.py vapid_keys`` prints a fresh pair), and
``SPINNER_VAPID_SUBJECT`` (a ``mailto:`` or ``https:`` address the push services may write to).
Without the keys there is no push: the page offers none, and it still updates on its own.

A subscription's endpoint is where this server will POST, so it is checked: HTTPS, on one of the
push services' hosts (``SPINNER_PUSH_HOSTS``; ``SPINNER_PUSH_ALLOW_HTTP`` is for tests), never
followed through a redirect. Its keys are checked to be what a browser makes (a P-256 point and a
16-byte secret). An entry keeps at most :data:`MAX_PER_ENTRY` subscriptions (the newest).

Sending (:func:`send_round_pairings`, the task's body): a 404 or 410 from the push service means
the subscription is gone (it is deleted); any other failure is logged and left (no retry: the
open page updates anyway). Safe to run twice: a subscription sent its round is remembered in the
cache for a day, and the notification's tag makes a duplicate replace the first, silently.

Errors (``code``):
    push_disabled           this server has no VAPID keys
    push_endpoint_invalid   not an HTTPS address of a known push service
    push_keys_invalid       the keys are not a browser's P-256 key and 16-byte secret
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from tournaments.errors import NotFound, ValidationFailed
from tournaments.models import Entry, Event, Match, PushSubscription, Round
from tournaments.queueing import enqueue_after_commit

logger = logging.getLogger(__name__)

SEND_TASK = "tournaments.send_round_push"
MAX_PER_ENTRY = 10
MAX_ENDPOINT = 1000
SEND_TIMEOUT = 5
TTL_SECONDS = 3600
"""A push service keeps an undelivered notice this long (a round's pairings age fast)."""
SENT_SECONDS = 24 * 3600


def _b64url_text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def new_vapid_keys() -> tuple[str, str]:
    """A fresh VAPID key pair, ``(public, private)`` in base64url: the public key as a browser's
    ``applicationServerKey`` takes it (the uncompressed P-256 point), the private key as the raw
    32-byte scalar (what ``SPINNER_VAPID_PRIVATE_KEY`` holds)."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return _b64url_text(public), _b64url_text(private)


def enabled() -> bool:
    """True when this server has VAPID keys (then the page offers notifications)."""
    return bool(settings.SPINNER_VAPID_PUBLIC_KEY and settings.SPINNER_VAPID_PRIVATE_KEY)


def disabled() -> NotFound:
    """The error for a push request to a server without VAPID keys."""
    return NotFound(_("Notifications are not offered on this server."), code="push_disabled")


def _invalid_endpoint() -> ValidationFailed:
    return ValidationFailed(
        _("The browser gave no address of a known push service: no notice can be sent to it."),
        code="push_endpoint_invalid",
        details={"field": "endpoint"},
    )


def check_endpoint(url: str) -> str:
    """``url`` if it is an HTTPS address on one of ``SPINNER_PUSH_HOSTS`` (or a subdomain)."""
    url = url.strip()
    if not url or len(url) > MAX_ENDPOINT:
        raise _invalid_endpoint()
    parts = urlsplit(url)
    schemes = ("https", "http") if settings.SPINNER_PUSH_ALLOW_HTTP else ("https",)
    host = (parts.hostname or "").lower()
    if parts.scheme not in schemes or not host or parts.username or parts.password:
        raise _invalid_endpoint()
    if not any(host == h or host.endswith(f".{h}") for h in settings.SPINNER_PUSH_HOSTS):
        raise _invalid_endpoint()
    return url


def _b64url(value: str, limit: int) -> bytes | None:
    if not value or len(value) > limit:
        return None
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def check_keys(p256dh: str, auth: str) -> tuple[str, str]:
    """The subscription's keys, stripped, if they are a P-256 public key (65 bytes) and a
    16-byte secret in base64url, as every browser makes them."""
    p256dh, auth = p256dh.strip(), auth.strip()
    point, secret = _b64url(p256dh, 100), _b64url(auth, 50)
    valid = point is not None and secret is not None and len(secret) == 16
    if valid and point is not None:
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        except ValueError:
            valid = False
    if not valid:
        raise ValidationFailed(
            _("The browser's subscription keys are not valid: turn notifications on again."),
            code="push_keys_invalid",
            details={"field": "keys"},
        )
    return p256dh, auth


def subscription_language(language: str) -> str:
    """The language a notice is sent in: one of the site's, else none (the default)."""
    return language if language in dict(settings.LANGUAGES) else ""


@transaction.atomic
def subscribe(
    *, entry: Entry, endpoint: str, p256dh: str, auth: str, language: str = ""
) -> PushSubscription:
    """Store (or refresh) a browser's subscription to ``entry``'s news; the entry keeps its
    newest :data:`MAX_PER_ENTRY`. Raises ``push_disabled``, ``push_endpoint_invalid``,
    ``push_keys_invalid``."""
    if not enabled():
        raise disabled()
    endpoint = check_endpoint(endpoint)
    p256dh, auth = check_keys(p256dh, auth)
    sub, _created = PushSubscription.objects.update_or_create(
        entry=entry,
        endpoint=endpoint,
        defaults={
            "event_id": entry.event_id,
            "p256dh": p256dh,
            "auth": auth,
            "language": subscription_language(language),
        },
    )
    keep = (
        PushSubscription.objects.filter(entry=entry)
        .order_by("-pk")
        .values_list("pk", flat=True)[:MAX_PER_ENTRY]
    )
    PushSubscription.objects.filter(entry=entry).exclude(pk__in=list(keep)).delete()
    return sub


@transaction.atomic
def unsubscribe(*, entry: Entry, endpoint: str) -> int:
    """Forget a browser's subscription to ``entry`` (the player turned notifications off);
    how many were removed."""
    deleted, _rows = PushSubscription.objects.filter(
        entry=entry, endpoint=endpoint.strip()[:MAX_ENDPOINT]
    ).delete()
    return deleted


def announce_round(rnd: Round) -> None:
    """In the publishing transaction: once it commits, send the round's tables to the
    subscribed entries (one task for the round; nothing without VAPID keys)."""
    if enabled():
        enqueue_after_commit(SEND_TASK, rnd.pk)


def round_notice(rnd: Round, match: Match, entry_id: int) -> dict[str, str]:
    """The notice for one entry of ``match``, in the active language: ``title``, ``body``,
    ``url`` (its "my table" page) and ``tag`` (one per round: a second notice of the same round
    replaces the first on the phone instead of ringing twice)."""
    event = rnd.event
    values: dict[str, Any] = {"number": rnd.number}
    if match.is_bye or match.entry_b is None:
        body = _("Round %(number)s: you have a bye.") % values
    else:
        other = match.entry_b if match.entry_a_id == entry_id else match.entry_a
        values.update(table=match.table.number if match.table else "?", opponent=other.name)
        body = _("Round %(number)s: table %(table)s, vs %(opponent)s") % values
    return {
        "title": event.name,
        "body": body,
        "url": reverse("public:follow", args=[event.slug]),
        "tag": f"spinner-{event.slug}-round-{rnd.number}",
    }


@dataclass(frozen=True)
class SendOutcome:
    """What one run sent: notices delivered, subscriptions found gone (deleted), failures."""

    sent: int = 0
    gone: int = 0
    failed: int = 0


def _sent_key(round_id: int, sub_id: int) -> str:
    return f"push:sent:{round_id}:{sub_id}"


def _send_one(
    sub: PushSubscription, notice: dict[str, str], vapid: Vapid, session: requests.Session
) -> str:
    """POST one encrypted notice: ``"sent"``, ``"gone"`` (deleted) or ``"failed"`` (logged)."""
    try:
        webpush(
            subscription_info={
                "endpoint": sub.endpoint,
                "keys": {"p256dh": sub.p256dh, "auth": sub.auth},
            },
            data=json.dumps(notice),
            vapid_private_key=vapid,
            vapid_claims={"sub": settings.SPINNER_VAPID_SUBJECT},
            ttl=TTL_SECONDS,
            timeout=SEND_TIMEOUT,
            headers={"Urgency": "high"},
            requests_session=session,
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in (404, 410):
            PushSubscription.objects.filter(pk=sub.pk).delete()
            return "gone"
        logger.warning("push to subscription %s failed: %s", sub.pk, status or exc)
        return "failed"
    except (requests.RequestException, ValueError) as exc:
        logger.warning("push to subscription %s failed: %s", sub.pk, type(exc).__name__)
        return "failed"
    return "sent"


def send_round_pairings(*, round_id: int) -> SendOutcome:
    """Send every subscribed entry of the round's event its table in the round (its
    subscription's language). Nothing when the round is gone or not public any more."""
    rnd = Round.objects.select_related("event").filter(pk=round_id).first()
    if (
        rnd is None
        or not enabled()
        or rnd.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY)
    ):
        return SendOutcome()
    event = rnd.event
    if event.status == Event.Status.DRAFT or not event.public_pairings:
        return SendOutcome()
    matches: dict[int, Match] = {}
    rows = Match.objects.filter(round=rnd, game_no=1).select_related("table", "entry_a", "entry_b")
    for m in rows:
        matches[m.entry_a_id] = m
        if m.entry_b_id:
            matches[m.entry_b_id] = m
    subs = PushSubscription.objects.filter(event=event, entry_id__in=list(matches))
    vapid = Vapid.from_string(private_key=settings.SPINNER_VAPID_PRIVATE_KEY)
    counts = {"sent": 0, "gone": 0, "failed": 0}
    with requests.Session() as session:
        session.max_redirects = 0  # an endpoint is never followed elsewhere
        for sub in subs.order_by("pk"):
            if cache.get(_sent_key(rnd.pk, sub.pk)):
                continue
            with translation.override(sub.language or settings.LANGUAGE_CODE):
                notice = round_notice(rnd, matches[sub.entry_id], sub.entry_id)
            outcome = _send_one(sub, notice, vapid, session)
            counts[outcome] += 1
            if outcome == "sent":
                cache.set(_sent_key(rnd.pk, sub.pk), 1, timeout=SENT_SECONDS)
    return SendOutcome(**counts)
