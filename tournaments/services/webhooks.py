"""Webhooks (issue 19): the HTTPS endpoints a director registers for an event, and what is queued
for them when something happens there.

Vocabulary:
    endpoint   a URL and its secret, for one event, wanting some kinds (none listed: all)
    kind       what happened: ``round.published``, ``result.confirmed`` (a confirmation, a
               director's decision, override, forfeit or correction: each new result version),
               ``standings.updated`` (a new standings generation), ``event.finished``
    happening  one thing that happened, named by its ``dedup_key`` (``round.published:round:7``)
    delivery   one happening for one endpoint (``WebhookDelivery``), sent by the worker
               (``services/webhook_deliveries.py``) until delivered or given up

The services that make things happen call :func:`notify` once, inside their own transaction: it
only inserts delivery rows (one per matching active endpoint, at most once per happening: the
unique ``(endpoint, dedup_key)``) and asks for the delivery task once the transaction commits. No
request waits on a receiver.

Errors (``code``):
    not_event_director          only the event's directors manage its webhooks
    webhook_url_invalid         not an absolute http(s) URL (or one with a user name or password)
    webhook_https_required      plain http:// to a host not in SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS
    webhook_url_private         the host is an address that is not public (loopback, private...)
    webhook_url_taken           the event already has an endpoint at that URL
    webhook_kind_unknown        a kind that is not one of the four
    webhook_limit_reached       the event has MAX_ENDPOINTS endpoints already
    webhook_already_delivered   "retry now" on a delivery that was delivered
    webhook_delivery_pending    "retry now" on a delivery still being tried (it is sent anyway)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import public_addresses
from tournaments.errors import Conflict, NotAllowed, ValidationFailed
from tournaments.models import (
    Event,
    Match,
    MatchResult,
    Round,
    RoundSeat,
    WebhookDelivery,
    WebhookEndpoint,
)
from tournaments.permissions import can_direct
from tournaments.queueing import enqueue_after_commit
from tournaments.results_math import from_halves
from tournaments.services import audit
from tournaments.services.audit import Actor


class WebhookKind(models.TextChoices):
    """What an endpoint can be told about (the ``X-Spinner-Event`` header)."""

    ROUND_PUBLISHED = "round.published", _("A round is published")
    RESULT_CONFIRMED = "result.confirmed", _("A result is confirmed or corrected")
    STANDINGS_UPDATED = "standings.updated", _("The standings change")
    EVENT_FINISHED = "event.finished", _("The event finishes")


KINDS: tuple[str, ...] = tuple(WebhookKind.values)

DELIVER_TASK = "tournaments.deliver_webhook"
"""The task that sends one delivery (``tasks.py``), by its ``delivery_id``."""

MAX_ENDPOINTS = 10
"""Endpoints per event: enough for a website, a league and a scorer's app, with room to spare."""

MAX_URL_LENGTH = 500  # WebhookEndpoint.url's max_length


def _refuse(message: str, code: str, **details: Any) -> ValidationFailed:
    return ValidationFailed(message, code=code, details=details)


def check_url(url: str) -> str:
    """The URL as it will be called, or ``webhook_url_invalid`` / ``webhook_url_private`` /
    ``webhook_https_required``.

    https:// always; http:// only to a host listed in ``SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS`` (a
    receiver on the same machine, in development or a test). No user name or password in it:
    the page shows the URL, and the signature already proves who sends."""
    url = (url or "").strip()
    example = "https://example.org/spinner-hook"
    if not url or len(url) > MAX_URL_LENGTH or any(c.isspace() or ord(c) < 32 for c in url):
        raise _refuse(
            gettext(
                "Give the endpoint's full address, at most %(limit)s characters, such as "
                "%(example)s."
            )
            % {"limit": MAX_URL_LENGTH, "example": example},
            "webhook_url_invalid",
            url="invalid",
        )
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise _refuse(
            gettext(
                "The endpoint must be a web address starting with https://, such as %(example)s."
            )
            % {"example": example},
            "webhook_url_invalid",
            url="invalid",
        )
    if parts.username is not None or parts.password is not None:
        raise _refuse(
            gettext(
                "Leave the user name and password out of the address: deliveries are signed "
                "with the endpoint's secret instead."
            ),
            "webhook_url_invalid",
            url="credentials",
        )
    allowed = {h.lower() for h in getattr(settings, "SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS", [])}
    if parts.hostname.lower() not in allowed:
        _check_public_host(parts.hostname)
    if parts.scheme.lower() == "http" and parts.hostname.lower() not in allowed:
        raise _refuse(
            gettext("Deliveries go over HTTPS only: use %(url)s")
            % {"url": "https://" + url.split("://", 1)[1]},
            "webhook_https_required",
            url="https_required",
        )
    return url


def _check_public_host(host: str) -> None:
    """Refuse now what delivery would refuse anyway, when the address alone shows it: an IPv4
    address spelled other than as four decimal numbers, or an address that is not public
    (``public_addresses``). A name is looked up at each delivery, not here."""
    if public_addresses.spelling_problem(host):
        raise _refuse(
            gettext(
                "Write the address as four decimal numbers, such as 203.0.113.7, or use the "
                "receiver's name, such as %(example)s."
            )
            % {"example": "https://example.org/spinner-hook"},
            "webhook_url_invalid",
            url="address_spelling",
        )
    address = public_addresses.parse(host)
    if address is not None and not public_addresses.is_public(address):
        raise _refuse(
            gettext(
                "%(address)s is not a public address: deliveries go only to receivers on the "
                "internet, never to this server's own network. Use the receiver's public name "
                "or address."
            )
            % {"address": str(address)},
            "webhook_url_private",
            url="private",
        )


def check_kinds(kinds: Iterable[str]) -> list[str]:
    """The kinds in their canonical order, each once (empty: every kind), or
    ``webhook_kind_unknown`` naming the unknown ones."""
    wanted = {str(kind).strip() for kind in kinds if str(kind).strip()}
    unknown = sorted(wanted - set(KINDS))
    if unknown:
        raise _refuse(
            gettext("Unknown kind(s): %(unknown)s. Choose from %(kinds)s.")
            % {"unknown": ", ".join(unknown), "kinds": ", ".join(KINDS)},
            "webhook_kind_unknown",
            unknown=unknown,
            kinds=list(KINDS),
        )
    return [kind for kind in KINDS if kind in wanted]


def _require_director(actor: Actor, event: Event) -> User:
    if not isinstance(actor, User) or not can_direct(actor, event):
        raise NotAllowed(
            gettext("Only the event's directors manage its webhooks."),
            code="not_event_director",
            details={"event": event.slug},
        )
    return actor


def _check_url_free(event: Event, url: str, *, but: int | None = None) -> None:
    taken = WebhookEndpoint.objects.filter(event=event, url=url)
    if but is not None:
        taken = taken.exclude(pk=but)
    if taken.exists():
        raise Conflict(
            gettext("This event already sends its webhooks to that address."),
            code="webhook_url_taken",
            details={"url": "taken"},
        )


def _described(endpoint: WebhookEndpoint) -> dict[str, Any]:
    """What the audit log keeps of an endpoint (never its secret)."""
    return {"url": endpoint.url, "kinds": endpoint.kinds, "active": endpoint.active}


@transaction.atomic
def register_endpoint(
    *, event: Event, actor: Actor, url: str, kinds: Sequence[str] = ()
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint for ``event`` and its secret (64 hex characters, from ``secrets``): show
    the secret to the director once; every delivery is signed with it. Audited."""
    user = _require_director(actor, event)
    url = check_url(url)
    chosen = check_kinds(kinds)
    Event.objects.select_for_update().filter(pk=event.pk).first()  # one registration at a time
    if WebhookEndpoint.objects.filter(event=event).count() >= MAX_ENDPOINTS:
        raise Conflict(
            gettext("An event has at most %(limit)s webhook endpoints: remove one first.")
            % {"limit": MAX_ENDPOINTS},
            code="webhook_limit_reached",
            details={"limit": MAX_ENDPOINTS},
        )
    _check_url_free(event, url)
    secret = secrets.token_hex(32)
    endpoint = WebhookEndpoint.objects.create(
        event=event, url=url, secret=secret, kinds=chosen, created_by=user
    )
    audit.record(
        event=event, actor=user, action="webhook.add", obj=endpoint, after=_described(endpoint)
    )
    return endpoint, secret


@transaction.atomic
def update_endpoint(
    *,
    endpoint: WebhookEndpoint,
    actor: Actor,
    url: str | None = None,
    kinds: Sequence[str] | None = None,
    active: bool | None = None,
) -> WebhookEndpoint:
    """Change an endpoint's URL, kinds or whether it is active (a paused endpoint is queued
    nothing new and sent nothing until it is active again). Audited with before and after."""
    endpoint = (
        WebhookEndpoint.objects.select_for_update(of=("self",))
        .select_related("event")
        .get(pk=endpoint.pk)
    )
    user = _require_director(actor, endpoint.event)
    before = _described(endpoint)
    if url is not None:
        endpoint.url = check_url(url)
        _check_url_free(endpoint.event, endpoint.url, but=endpoint.pk)
    if kinds is not None:
        endpoint.kinds = check_kinds(kinds)
    if active is not None:
        endpoint.active = active
    after = _described(endpoint)
    if after != before:
        endpoint.save(update_fields=["url", "kinds", "active"])
        audit.record(
            event=endpoint.event,
            actor=user,
            action="webhook.update",
            obj=endpoint,
            before=before,
            after=after,
        )
    return endpoint


@transaction.atomic
def remove_endpoint(*, endpoint: WebhookEndpoint, actor: Actor) -> None:
    """Delete an endpoint and its deliveries' log (nothing more is sent to it). Audited."""
    event = endpoint.event
    user = _require_director(actor, event)
    audit.record(
        event=event,
        actor=user,
        action="webhook.remove",
        obj=endpoint,
        before=_described(endpoint),
    )
    WebhookEndpoint.objects.filter(pk=endpoint.pk).delete()


@transaction.atomic
def retry_delivery(*, delivery: WebhookDelivery, actor: Actor) -> WebhookDelivery:
    """The director's "retry now": a failed delivery is sent again at once, with a fresh
    allowance of attempts. ``webhook_already_delivered`` for one that was delivered,
    ``webhook_delivery_pending`` for one still being tried (a second attempt alongside would only
    send it twice). Audited."""
    delivery = (
        WebhookDelivery.objects.select_for_update(of=("self",))
        .select_related("endpoint__event")
        .get(pk=delivery.pk)
    )
    event = delivery.endpoint.event
    user = _require_director(actor, event)
    if delivery.status == WebhookDelivery.Status.DELIVERED:
        raise Conflict(
            gettext("This delivery was delivered: there is nothing to retry."),
            code="webhook_already_delivered",
            details={"delivery": str(delivery.delivery_id)},
        )
    if delivery.status == WebhookDelivery.Status.PENDING:
        raise Conflict(
            gettext("This delivery is still being tried; it is sent again on its own."),
            code="webhook_delivery_pending",
            details={"delivery": str(delivery.delivery_id), "attempts": delivery.attempts},
        )
    before = {"status": delivery.status, "attempts": delivery.attempts}
    delivery.status = WebhookDelivery.Status.PENDING
    delivery.attempts = 0
    delivery.next_attempt_at = timezone.now()
    delivery.save(update_fields=["status", "attempts", "next_attempt_at", "updated_at"])
    audit.record(
        event=event,
        actor=user,
        action="webhook.retry",
        obj=delivery,
        before=before,
        after={"status": delivery.status, "kind": delivery.kind},
    )
    enqueue_after_commit(DELIVER_TASK, str(delivery.delivery_id))
    return delivery


def notify(
    *,
    event_id: int,
    kind: str,
    dedup_key: str,
    payload: Callable[[], dict[str, Any]],
) -> int:
    """In the caller's transaction: queue the happening ``dedup_key`` for every active endpoint
    of the event that wants ``kind``; returns how many deliveries were queued now.

    ``payload`` makes the body's ``data``; it is called only when some endpoint wants the
    happening, so an event without webhooks pays one query and nothing else. A happening
    already queued for an endpoint is not queued again (``get_or_create`` on the unique
    ``(endpoint, dedup_key)``), however often the code that noticed it runs. Each new delivery's
    task is sent once the transaction commits (a broker outage: the sweep sends it later)."""
    if kind not in KINDS:  # pragma: no cover - the callers pass the constants
        raise ValueError(f"unknown webhook kind {kind!r}")
    endpoints = [
        endpoint
        # by key: the same order as the model's ("event", "pk") within one event, without
        # joining the event to sort
        for endpoint in WebhookEndpoint.objects.filter(event_id=event_id, active=True).order_by(
            "pk"
        )
        if not endpoint.kinds or kind in endpoint.kinds
    ]
    if not endpoints:
        return 0
    data = payload()
    queued = 0
    for endpoint in endpoints:
        delivery, created = WebhookDelivery.objects.get_or_create(
            endpoint=endpoint,
            dedup_key=dedup_key,
            defaults={"kind": kind, "payload": data, "next_attempt_at": timezone.now()},
        )
        if created:
            queued += 1
            enqueue_after_commit(DELIVER_TASK, str(delivery.delivery_id))
    return queued


# --- The happenings' payloads: small, public-safe, with links to the API -------------------


def _link(name: str, *args: Any) -> str:
    base = getattr(settings, "SPINNER_BASE_URL", "http://127.0.0.1:8000").rstrip("/")
    return base + reverse(name, args=args)


def round_published(rnd: Round) -> None:
    """Notify that ``rnd`` (just published, in the publishing transaction) is published."""
    event = rnd.event

    def payload() -> dict[str, Any]:
        return {
            "event": event.slug,
            "round": {
                "number": rnd.number,
                "kind": rnd.kind,
                "published_at": rnd.published_at.isoformat() if rnd.published_at else None,
            },
            "links": {
                "page": _link("public:round", event.slug, rnd.number),
                "matches": _link("api:round-matches", event.slug, rnd.number),
            },
        }

    notify(
        event_id=event.pk,
        kind=WebhookKind.ROUND_PUBLISHED,
        dedup_key=f"round.published:round:{rnd.pk}",
        payload=payload,
    )


def result_confirmed(match: Match, result: MatchResult) -> None:
    """Notify that ``match`` has a new current result (a confirmation, a director's decision or
    a correction: each version once). Scores are raw points, as the API's results give them."""
    event = match.round.event

    def payload() -> dict[str, Any]:
        body: dict[str, Any] = {
            "event": event.slug,
            "round": match.round.number,
            "match": {"id": match.pk, "entries": [match.entry_a_id, match.entry_b_id]},
            "result": {
                "version": result.version,
                "source": result.source,
                "scores": [from_halves(result.score_a_halves), from_halves(result.score_b_halves)],
                "winner_side": result.winner_side,
                "forfeit": result.forfeit,
                "verified": result.verified,
            },
            "links": {
                "match": _link("api:match-detail", match.pk),
                "page": _link("public:match", event.slug, match.pk),
            },
        }
        if result.scores_halves is not None:  # a table of many: every seat, its score and place
            seats = RoundSeat.objects.filter(match=match).order_by("side")
            body["match"]["entries"] = list(seats.values_list("entry_id", flat=True))
            body["result"]["scores"] = [from_halves(h) for h in result.scores_halves]
            body["result"]["placings"] = result.placings
        return body

    notify(
        event_id=event.pk,
        kind=WebhookKind.RESULT_CONFIRMED,
        dedup_key=f"result.confirmed:match:{match.pk}:v{result.version}",
        payload=payload,
    )


def standings_updated(*, event_id: int, generation: int) -> None:
    """Notify that the event's standings have a new generation (in the recompute's
    transaction)."""

    def payload() -> dict[str, Any]:
        slug = Event.objects.values_list("slug", flat=True).get(pk=event_id)
        return {
            "event": slug,
            "generation": generation,
            "links": {
                "standings": _link("api:event-standings", slug),
                "page": _link("public:standings", slug),
            },
        }

    notify(
        event_id=event_id,
        kind=WebhookKind.STANDINGS_UPDATED,
        dedup_key=f"standings.updated:generation:{generation}",
        payload=payload,
    )


def event_finished(event: Event) -> None:
    """Notify that ``event`` is finished, with its podium from the frozen placings."""

    def payload() -> dict[str, Any]:
        podium = [
            {key: place.get(key) for key in ("place", "entry_id", "name")}
            for place in event.placings or []
            if isinstance(place, dict)
            and isinstance(place.get("place"), int)
            and place["place"] <= 3
        ]
        return {
            "event": event.slug,
            "finished_at": event.finished_at.isoformat() if event.finished_at else None,
            "podium": podium,
            "links": {
                "export": _link("api:event-export", event.slug),
                "page": _link("public:event", event.slug),
            },
        }

    notify(
        event_id=event.pk,
        kind=WebhookKind.EVENT_FINISHED,
        dedup_key="event.finished",
        payload=payload,
    )
