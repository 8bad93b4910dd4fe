"""Webhooks' services: registering an endpoint (its checks, its secret, its audit), the four
happenings queued once per endpoint where they happen, and the delivery task against a real
local receiver (``webhook_support.Receiver``) that checks each signature: signed, sent once,
backed off and given up, retried by the director, swept when its message was lost.

Tasks run eagerly here (in the test's thread); ``test_webhooks_worker.py`` runs a real worker.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone, translation

from tests.tournaments.live_support import latest_generation
from tests.tournaments.rounds_factory import make_director, make_event, make_field, settle_round
from tests.tournaments.webhook_support import Receiver, refused, registered, verify_signature
from tournaments import tasks
from tournaments.models import AuditEntry, Event, MatchResult, WebhookDelivery
from tournaments.public_addresses import system_resolver as sr
from tournaments.services import (
    decisions,
    finish,
    round_generation,
    round_status,
    webhook_deliveries,
    webhooks,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def local_http(settings: Any) -> None:
    settings.SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS = ["127.0.0.1", "localhost"]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver().start()
    try:
        yield found
    finally:
        found.stop()


# --- Registering ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("", "webhook_url_invalid"),
        ("example.org/hook", "webhook_url_invalid"),
        ("ftp://example.org/hook", "webhook_url_invalid"),
        ("https://", "webhook_url_invalid"),
        ("https://example.org:port/hook", "webhook_url_invalid"),
        ("https://user:secret@example.org/hook", "webhook_url_invalid"),
        ("https://example.org/a b", "webhook_url_invalid"),
        ("https://example.org/" + "x" * 500, "webhook_url_invalid"),
        ("javascript:alert(1)", "webhook_url_invalid"),
        ("http://example.org/hook", "webhook_https_required"),
        ("http://localhost:8080/hook", "webhook_https_required"),  # not allowed by default
        # An address that is not public, or an IPv4 address spelled otherwise (issue 28).
        ("https://127.0.0.1/hook", "webhook_url_private"),
        ("http://127.0.0.1:8080/hook", "webhook_url_private"),
        ("https://[::1]/hook", "webhook_url_private"),
        ("https://169.254.169.254/latest/meta-data", "webhook_url_private"),
        ("https://10.0.0.5/hook", "webhook_url_private"),
        ("https://100.64.1.1/hook", "webhook_url_private"),
        ("https://[::ffff:127.0.0.1]/hook", "webhook_url_private"),
        ("https://[64:ff9b::7f00:1]/hook", "webhook_url_private"),
        ("https://[2002:7f00:1::1]/hook", "webhook_url_private"),
        ("https://[fe80::1%25eth0]/hook", "webhook_url_private"),
        ("https://2130706433/hook", "webhook_url_invalid"),
        ("https://0x7f.0.0.1/hook", "webhook_url_invalid"),
        ("https://0177.0.0.1/hook", "webhook_url_invalid"),
        ("https://127.1/hook", "webhook_url_invalid"),
    ],
)
def test_an_address_that_is_not_https_is_refused_with_its_code(url: str, code: str) -> None:
    event = make_event("hooks")
    boss = make_director(event)
    error = refused(code, webhooks.register_endpoint, event=event, actor=boss, url=url)
    assert error.details["url"]
    assert not event.webhooks.exists()


def test_a_public_address_or_an_allowed_host_may_be_registered(settings: Any) -> None:
    event = make_event("hooks")
    boss = make_director(event)
    for url in ("https://93.184.215.14/hook", "https://[2606:4700:4700::1111]/hook"):
        assert registered(event, boss, url)[0].url == url
    error = refused(
        "webhook_url_private", registered, event=event, boss=boss, url="https://10.0.0.5/"
    )
    assert "10.0.0.5 is not a public address" in error.message
    with translation.override("es"):
        spelled = refused(
            "webhook_url_invalid", registered, event=event, boss=boss, url="https://0x7f.1/"
        )
        assert "cuatro números decimales" in spelled.message
        private = refused(
            "webhook_url_private", registered, event=event, boss=boss, url="https://[::1]/"
        )
        assert private.message.startswith("::1 no es una dirección pública")
    settings.SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS = ["10.0.0.5"]  # the operator's own receiver
    assert registered(event, boss, "http://10.0.0.5/hook")[0].url == "http://10.0.0.5/hook"


def test_an_endpoint_gets_a_secret_shown_once_and_an_audit_entry_without_it(
    settings: Any,
) -> None:
    settings.SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS = ["localhost"]
    event = make_event("hooks")
    boss = make_director(event)
    endpoint, secret = registered(
        event, boss, "  https://club.example.org/hook  ", ("standings.updated", "round.published")
    )
    assert endpoint.url == "https://club.example.org/hook"
    assert endpoint.kinds == ["round.published", "standings.updated"]  # canonical order
    assert len(secret) == 64 and int(secret, 16) >= 0 and endpoint.secret == secret
    other, other_secret = registered(event, boss, "http://localhost:9000/hook")
    assert other.kinds == [] and other_secret != secret  # empty: every kind
    entry = AuditEntry.objects.get(event=event, action="webhook.add", object_id=str(endpoint.pk))
    assert entry.actor == boss and entry.after["url"] == endpoint.url
    assert secret not in json.dumps([entry.before, entry.after])


def test_registering_refuses_unknown_kinds_a_taken_address_too_many_and_strangers() -> None:
    event = make_event("hooks")
    boss = make_director(event)
    error = refused(
        "webhook_kind_unknown",
        webhooks.register_endpoint,
        event=event,
        actor=boss,
        url="https://example.org/a",
        kinds=["round.published", "round.started"],
    )
    assert error.details["unknown"] == ["round.started"]
    registered(event, boss, "https://example.org/a")
    refused(
        "webhook_url_taken",
        webhooks.register_endpoint,
        event=event,
        actor=boss,
        url="https://example.org/a",
    )
    for n in range(1, webhooks.MAX_ENDPOINTS):
        registered(event, boss, f"https://example.org/{n}")
    refused(
        "webhook_limit_reached",
        webhooks.register_endpoint,
        event=event,
        actor=boss,
        url="https://example.org/one-more",
    )
    stranger = User.objects.create_user("stranger")
    other = make_event("other-hooks")
    refused(
        "not_event_director",
        webhooks.register_endpoint,
        event=other,
        actor=stranger,
        url="https://example.org/x",
    )


def test_an_update_and_a_removal_are_checked_and_audited() -> None:
    event = make_event("hooks")
    boss = make_director(event)
    endpoint, _ = registered(event, boss, "https://example.org/a")
    registered(event, boss, "https://example.org/b")
    refused(
        "webhook_url_taken",
        webhooks.update_endpoint,
        endpoint=endpoint,
        actor=boss,
        url="https://example.org/b",
    )
    refused(
        "webhook_https_required",
        webhooks.update_endpoint,
        endpoint=endpoint,
        actor=boss,
        url="http://example.org/a",
    )
    webhooks.update_endpoint(endpoint=endpoint, actor=boss, kinds=["event.finished"], active=False)
    endpoint.refresh_from_db()
    assert endpoint.kinds == ["event.finished"] and not endpoint.active
    update = AuditEntry.objects.get(event=event, action="webhook.update")
    assert update.before["active"] is True and update.after["active"] is False
    webhooks.remove_endpoint(endpoint=endpoint, actor=boss)
    assert not event.webhooks.filter(pk=endpoint.pk).exists()
    assert AuditEntry.objects.filter(event=event, action="webhook.remove").count() == 1


# --- The four happenings --------------------------------------------------------------------


def kinds_of(endpoint: Any) -> Counter[str]:
    return Counter(endpoint.deliveries.values_list("kind", flat=True))


def test_each_happening_is_queued_once_for_each_endpoint_that_wants_it() -> None:
    event = make_event("happenings", swiss_rounds=1)
    boss = make_director(event)
    make_field(event, 4)
    every, _ = registered(event, boss, "https://example.org/every")
    results, _ = registered(event, boss, "https://example.org/results", ("result.confirmed",))
    paused, _ = registered(event, boss, "https://example.org/paused")
    webhooks.update_endpoint(endpoint=paused, actor=boss, active=False)

    rnd = round_generation.generate_round(event=event, actor=boss)
    assert not WebhookDelivery.objects.exists()  # a draft is no happening
    round_status.publish_round(round=rnd, actor=boss)
    settle_round(rnd, boss)  # two results (director's), then the standings recompute
    match = rnd.matches.filter(is_bye=False).first()
    assert match is not None
    current = MatchResult.objects.get(match=match, is_current=True)
    decisions.correct_result(
        match=match,
        reason="scores swapped",
        actor=boss,
        expected_version=current.version,
        final_score={"scores": [current.score_b_halves // 2, current.score_a_halves // 2]},
    )
    from tournaments.services.standings import recompute_standings

    recompute_standings(event_id=event.pk)
    round_status.close_round(round=rnd, actor=boss)
    finish.finish_event(event=event, actor=boss)

    generations = latest_generation(event)  # every generation written (older ones pruned)
    assert generations >= 2  # after the results, and after the correction
    assert kinds_of(every) == Counter(
        {
            "round.published": 1,
            "result.confirmed": 3,  # two results and the correction's new version
            "standings.updated": generations,
            "event.finished": 1,
        }
    )
    assert kinds_of(results) == Counter({"result.confirmed": 3})
    assert not paused.deliveries.exists()
    keys = set(every.deliveries.values_list("dedup_key", flat=True))
    assert f"result.confirmed:match:{match.pk}:v2" in keys
    assert f"round.published:round:{rnd.pk}" in keys

    # Noticing a happening again queues nothing more.
    with transaction.atomic():
        webhooks.round_published(rnd)
        webhooks.result_confirmed(match, MatchResult.objects.get(match=match, is_current=True))
        webhooks.event_finished(Event.objects.get(pk=event.pk))
    assert every.deliveries.count() == sum(kinds_of(every).values())
    assert kinds_of(results) == Counter({"result.confirmed": 3})


def test_the_payloads_are_small_public_and_link_to_the_api(settings: Any) -> None:
    settings.SPINNER_BASE_URL = "https://spinner.example.org"
    event = make_event("payloads", swiss_rounds=1)
    boss = make_director(event)
    make_field(event, 4)
    endpoint, _ = registered(event, boss, "https://example.org/every")
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    settle_round(rnd, boss)
    round_status.close_round(round=rnd, actor=boss)
    finish.finish_event(event=event, actor=boss)
    payloads = {d.kind: d.payload for d in endpoint.deliveries.order_by("pk")}

    published = payloads["round.published"]
    assert published["event"] == "payloads" and published["round"]["number"] == 1
    assert published["links"]["matches"] == (
        "https://spinner.example.org/api/events/payloads/rounds/1/matches/"
    )
    confirmed = payloads["result.confirmed"]
    match = rnd.matches.get(pk=confirmed["match"]["id"])
    result = MatchResult.objects.get(match=match, is_current=True)
    assert confirmed["result"]["scores"] == [result.score_a_halves / 2, result.score_b_halves / 2]
    assert confirmed["match"]["entries"] == [match.entry_a_id, match.entry_b_id]
    assert confirmed["links"]["match"] == f"https://spinner.example.org/api/matches/{match.pk}/"
    updated = payloads["standings.updated"]
    assert updated["links"]["standings"].endswith("/api/events/payloads/standings/")
    finished = payloads["event.finished"]
    event.refresh_from_db()
    # The places up to third (shared places included), from the frozen placings.
    assert finished["podium"] == [
        {"place": p["place"], "entry_id": p["entry_id"], "name": p["name"]}
        for p in event.placings
        if p["place"] <= 3
    ]
    assert finished["podium"][0]["place"] == 1
    text = json.dumps(payloads)
    assert "/t/" not in text and "@" not in text  # no table links, no e-mail addresses
    assert all(len(json.dumps(p)) < 1000 for p in payloads.values())


def test_an_event_without_endpoints_pays_one_query(django_assert_num_queries: Any) -> None:
    event = make_event("quiet")
    with django_assert_num_queries(1):
        queued = webhooks.notify(
            event_id=event.pk,
            kind="standings.updated",
            dedup_key="standings.updated:generation:1",
            payload=lambda: pytest.fail("no payload is built without an endpoint"),
        )
    assert queued == 0


# --- Sending --------------------------------------------------------------------------------


def published_with_hook(
    event_slug: str, receiver: Receiver, capture: Any, kinds: tuple[str, ...] = ("round.published",)
) -> tuple[Any, str, WebhookDelivery]:
    """An event whose round 1 is published with an endpoint at the receiver (which checks with
    the secret the director was shown); the task runs (eagerly) when the publishing commits.
    Returns the endpoint, its secret and the delivery."""
    event = make_event(event_slug)
    boss = make_director(event)
    make_field(event, 4)
    endpoint, secret = registered(event, boss, receiver.url, kinds)
    receiver.secret = secret
    rnd = round_generation.generate_round(event=event, actor=boss)
    with capture(execute=True):
        round_status.publish_round(round=rnd, actor=boss)
    return endpoint, secret, WebhookDelivery.objects.get(endpoint=endpoint)


def test_a_delivery_is_signed_sent_and_never_sent_again(
    local_http: None, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    _, secret, delivery = published_with_hook(
        "signed", receiver, django_capture_on_commit_callbacks
    )
    got = receiver.requests()
    assert len(got) == 1 and got[0].verified and got[0].answered == 200
    body, header = got[0].body, got[0].signature
    assert not verify_signature(secret, body + b" ", header)  # a changed body fails
    assert not verify_signature("0" * 64, body, header)  # another secret fails
    stamp = int(header.split(",")[0].removeprefix("t="))
    assert not verify_signature(secret, body, header, now=stamp + 301)  # a replay, later, fails
    document = got[0].document
    assert document["id"] == got[0].delivery_id == str(delivery.delivery_id)
    assert document["kind"] == got[0].kind == "round.published"
    assert document["data"] == delivery.payload
    assert delivery.status == "delivered" and delivery.delivered_at is not None
    assert delivery.attempts == 1 and delivery.last_status_code == 200
    assert delivery.last_error == "" and delivery.next_attempt_at is None

    # However often the task runs again (a redelivered message, the sweep), nothing is sent.
    for _ in range(2):
        assert tasks.deliver_webhook.delay(str(delivery.delivery_id)).get() == "skipped"
    assert len(receiver.requests()) == 1
    delivery.refresh_from_db()
    assert delivery.attempts == 1


def test_a_refused_delivery_keeps_the_answer_and_is_sent_again_in_the_same_bytes(
    local_http: None, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    receiver.answer = 500
    _, _, delivery = published_with_hook("resent", receiver, django_capture_on_commit_callbacks)
    assert delivery.status == "pending" and delivery.attempts == 1
    assert (
        delivery.last_status_code == 500
        and delivery.last_error == "HTTP 500 Internal Server Error: no"
    )
    receiver.answer = 200
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    assert tasks.deliver_webhook.delay(str(delivery.delivery_id)).get() == "delivered"
    first, second = receiver.requests()
    assert first.body == second.body and first.delivery_id == second.delivery_id
    assert [first.answered, second.answered] == [500, 200]
    delivery.refresh_from_db()
    assert delivery.status == "delivered" and delivery.attempts == 2
    assert delivery.last_status_code == 200 and delivery.last_error == ""


def test_failures_back_off_then_fail_and_the_director_retries(
    local_http: None, receiver: Receiver, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.SPINNER_WEBHOOK_MAX_ATTEMPTS = 3
    settings.SPINNER_WEBHOOK_BACKOFF_SECONDS = 10
    settings.SPINNER_WEBHOOK_BACKOFF_FACTOR = 3
    receiver.answer = 503
    endpoint, _, delivery = published_with_hook(
        "backoff", receiver, django_capture_on_commit_callbacks
    )
    delivery_id = str(delivery.delivery_id)

    def due_now() -> None:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())

    delivery.refresh_from_db()
    assert delivery.attempts == 1 and delivery.status == "pending"
    due_now()
    before = timezone.now()
    outcome = webhook_deliveries.attempt_delivery(delivery_id=delivery_id)
    assert outcome.status == "retry" and outcome.retry_in is not None
    assert 30 <= outcome.retry_in <= 30 * 1.25  # the second wait: 10 x 3, plus jitter
    delivery.refresh_from_db()
    assert delivery.next_attempt_at is not None
    assert delivery.next_attempt_at >= before + timedelta(seconds=30)
    assert delivery.last_status_code == 503 and delivery.last_error.startswith("HTTP 503")
    # Not due yet: a second copy of the task does nothing.
    assert webhook_deliveries.attempt_delivery(delivery_id=delivery_id).status == "skipped"
    due_now()
    assert webhook_deliveries.attempt_delivery(delivery_id=delivery_id).status == "failed"
    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.attempts == 3
    assert delivery.next_attempt_at is None
    assert len(receiver.requests()) == 3 and all(r.verified for r in receiver.requests())
    due_now()
    assert webhook_deliveries.attempt_delivery(delivery_id=delivery_id).status == "skipped"

    # The director's "retry now": sent again at once, delivered now the receiver is back.
    boss = endpoint.event.directors.get()
    receiver.answer = 204
    with django_capture_on_commit_callbacks(execute=True):
        webhooks.retry_delivery(delivery=delivery, actor=boss)
    delivery.refresh_from_db()
    assert delivery.status == "delivered" and delivery.attempts == 1
    assert delivery.last_status_code == 204
    assert AuditEntry.objects.filter(action="webhook.retry").count() == 1
    refused("webhook_already_delivered", webhooks.retry_delivery, delivery=delivery, actor=boss)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(status="pending")
    refused("webhook_delivery_pending", webhooks.retry_delivery, delivery=delivery, actor=boss)


def test_a_receiver_that_is_not_there_is_recorded_as_no_answer(
    local_http: None, django_capture_on_commit_callbacks: Any
) -> None:
    closed = Receiver()  # never started: nothing listens on its port
    _, _, delivery = published_with_hook("refused", closed, django_capture_on_commit_callbacks)
    assert delivery.status == "pending" and delivery.attempts == 1
    assert delivery.last_status_code is None
    assert "ConnectionError" in delivery.last_error


def test_a_redirect_is_not_followed(
    local_http: None, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    receiver.answer = 302  # with a Location back to the receiver
    _, _, delivery = published_with_hook("redirect", receiver, django_capture_on_commit_callbacks)
    assert delivery.status == "pending" and delivery.last_status_code == 302
    assert [r.answered for r in receiver.requests()] == [302]  # nothing followed it


def test_a_host_on_a_private_address_is_never_called_unless_allowed(
    local_http: None, receiver: Receiver, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """An endpoint whose host resolves to a private address (here loopback, where the receiver
    listens) is not called: a director's webhook must not reach into the server's network."""
    endpoint, _, delivery = published_with_hook(
        "private", receiver, django_capture_on_commit_callbacks
    )
    assert delivery.status == "delivered"  # 127.0.0.1 is allow-listed for the tests
    settings.SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS = ["localhost"]  # no longer 127.0.0.1
    assert "resolves to 127.0.0.1" in webhook_deliveries._addresses(receiver.url, sr, ()).refused
    again = WebhookDelivery.objects.create(
        endpoint=endpoint, kind="standings.updated", dedup_key="private:again", payload={}
    )
    calls = len(receiver.requests())
    outcome = webhook_deliveries.attempt_delivery(delivery_id=str(again.delivery_id))
    again.refresh_from_db()
    assert outcome.status != "delivered" and again.status == "pending"
    assert "resolves to 127.0.0.1, which is not a public address (loopback)" in again.last_error
    assert len(receiver.requests()) == calls  # never called


def test_the_sweep_sends_what_is_due_and_only_that(
    local_http: None, receiver: Receiver, settings: Any
) -> None:
    event = make_event("swept")
    boss = make_director(event)
    endpoint, secret = registered(event, boss, receiver.url)
    receiver.secret = secret
    paused, _ = registered(event, boss, receiver.url + "?paused")
    # Queued without their messages ever sent (the commit hooks do not run here: a lost message).
    for key in ("a", "b", "c"):
        webhooks.notify(
            event_id=event.pk,
            kind="standings.updated",
            dedup_key=f"standings.updated:generation:{key}",
            payload=lambda: {"event": event.slug},
        )
    webhooks.update_endpoint(endpoint=paused, actor=boss, active=False)
    later = WebhookDelivery.objects.get(endpoint=endpoint, dedup_key__endswith=":c")
    WebhookDelivery.objects.filter(pk=later.pk).update(
        next_attempt_at=timezone.now() + timedelta(hours=1)
    )
    assert receiver.requests() == []
    assert tasks.sweep_webhook_deliveries.delay().get() == 2
    delivered = WebhookDelivery.objects.filter(endpoint=endpoint, status="delivered")
    assert sorted(d.dedup_key[-1] for d in delivered) == ["a", "b"]
    assert {r.delivery_id for r in receiver.accepted()} == {str(d.delivery_id) for d in delivered}
    assert paused.deliveries.filter(status="pending").count() == 3  # paused: not swept
    assert tasks.sweep_webhook_deliveries.delay().get() == 0  # nothing else is due


def test_a_removed_endpoint_is_sent_nothing_more(
    local_http: None, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    receiver.answer = 503
    endpoint, _, delivery = published_with_hook(
        "removed", receiver, django_capture_on_commit_callbacks
    )
    boss = endpoint.event.directors.get()
    webhooks.remove_endpoint(endpoint=endpoint, actor=boss)
    assert not WebhookDelivery.objects.filter(pk=delivery.pk).exists()
    outcome = webhook_deliveries.attempt_delivery(delivery_id=str(delivery.delivery_id))
    assert outcome.status == "skipped" and len(receiver.requests()) == 1


def test_the_backoff_spreads_eight_attempts_over_about_a_day(settings: Any) -> None:
    assert settings.SPINNER_WEBHOOK_MAX_ATTEMPTS == 8
    waits = [webhook_deliveries.backoff_seconds(n, jitter=0) for n in range(1, 8)]
    assert waits == sorted(waits) and waits[0] == settings.SPINNER_WEBHOOK_BACKOFF_SECONDS
    assert max(waits) <= settings.SPINNER_WEBHOOK_BACKOFF_MAX_SECONDS
    assert 12 * 3600 <= sum(waits) <= 24 * 3600
    most = [webhook_deliveries.backoff_seconds(n, jitter=1) for n in range(1, 8)]
    assert all(m == w * 1.25 for m, w in zip(most, waits, strict=True))


def test_the_signature_is_hmac_sha256_of_the_timestamp_and_the_body() -> None:
    # The documented example (docs/webhooks.md), computed independently with hashlib.
    import hashlib
    import hmac

    body = b'{"id":"x"}'
    expected = hmac.new(b"s3cret", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert webhook_deliveries.signature("s3cret", 1700000000, body) == f"t=1700000000,v1={expected}"


# --- The integrator's check (the reads: test_webhooks_reads.py) -----------------------------


def test_the_documented_check_accepts_a_real_delivery_and_nothing_else(
    local_http: None, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "webhooks.md").read_text()
    snippet = docs.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {}
    exec(compile(snippet, "docs/webhooks.md", "exec"), namespace)  # the integrator's code
    verify = namespace["verify"]
    _, secret, _ = published_with_hook("documented", receiver, django_capture_on_commit_callbacks)
    (got,) = receiver.requests()
    assert verify(secret, got.body, got.signature)
    assert not verify(secret, got.body.replace(b"round", b"rounds", 1), got.signature)
    assert not verify(secret[::-1], got.body, got.signature)
    assert not verify(secret, got.body, "v1=" + got.signature.split("v1=")[1])
