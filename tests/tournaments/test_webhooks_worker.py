"""Webhook deliveries through a real Celery worker on Redis, writing to PostgreSQL, to a real
local receiver that checks every signature (``webhook_support.Receiver``).

The worker's retries are made short through its environment (``SPINNER_WEBHOOK_BACKOFF_*``), so
a receiver that is down for a while is waited out in seconds; every wait polls with a deadline.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import transaction

from tests.conftest import free_port, poll
from tests.tournaments.rounds_factory import make_director, make_event, make_field
from tests.tournaments.webhook_support import Receiver
from tournaments import tasks
from tournaments.models import MatchResult, Round, WebhookDelivery
from tournaments.services import decisions, round_generation, round_status, webhook_deliveries
from tournaments.services import webhooks as services

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

FAST_RETRIES = {
    "SPINNER_WEBHOOK_BACKOFF_SECONDS": "0.3",
    "SPINNER_WEBHOOK_BACKOFF_FACTOR": "1.5",
    "SPINNER_WEBHOOK_BACKOFF_MAX_SECONDS": "1.5",
    "SPINNER_WEBHOOK_MAX_ATTEMPTS": "60",
}


@pytest.fixture
def fast_retries(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """The worker (started after this) retries within seconds; both processes let the
    receiver on 127.0.0.1 be plain http."""
    for name, value in FAST_RETRIES.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS", "127.0.0.1")
    settings.SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS = ["127.0.0.1"]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()  # not started: its port is closed until the test starts it
    try:
        yield found
    finally:
        found.stop()


def alive(worker: Any) -> None:
    assert worker.poll() is None, "the worker died; see test-artifacts/worker-*.log"


@pytest.mark.django_db(transaction=True)
def test_each_happening_reaches_a_receiver_that_was_down_once_and_signed(
    postgres: None,
    celery_worker_process: Callable[[str], Any],
    fast_retries: None,
    receiver: Receiver,
) -> None:
    from spinner.celery import app

    event = make_event("hooked", swiss_rounds=2)
    boss = make_director(event)
    make_field(event, 4)
    endpoint, secret = services.register_endpoint(event=event, actor=boss, url=receiver.url)
    receiver.secret = secret
    rnd = round_generation.generate_round(event=event, actor=boss)
    worker = celery_worker_process(app.conf.task_default_queue)

    # Round 1 is published while the receiver is down (nothing listens on its port).
    round_status.publish_round(round=rnd, actor=boss)
    published = WebhookDelivery.objects.get(endpoint=endpoint, kind="round.published")

    def state() -> WebhookDelivery:
        alive(worker)
        return WebhookDelivery.objects.get(pk=published.pk)

    poll(lambda: state().attempts >= 3 and "ConnectionError" in state().last_error, timeout=60)
    assert state().status == "pending" and state().last_status_code is None
    # Then it answers, but 503 (starting up), and then it is up.
    receiver.answer = 503
    receiver.start()
    poll(lambda: [r.answered for r in receiver.requests()].count(503) >= 2, timeout=30)
    assert state().status == "pending" and state().last_status_code == 503
    receiver.answer = 200
    poll(lambda: state().status == "delivered", timeout=30)
    refusals = state().attempts - len(receiver.requests())
    assert refusals >= 3  # the attempts while its port was closed

    # A result is confirmed: its delivery, and the standings' (the worker recomputes them).
    match = rnd.matches.filter(is_bye=False).order_by("pk").first()
    assert match is not None
    decisions.override_result(
        match=match, reason="played", actor=boss, final_score={"scores": [305, 200]}
    )

    def all_delivered() -> bool:
        alive(worker)
        kinds = {d.kind: d.status for d in endpoint.deliveries.all()}
        return {"result.confirmed", "standings.updated"} <= set(kinds) and set(kinds.values()) == {
            "delivered"
        }

    poll(all_delivered, timeout=60)

    # Noticing the same happenings again queues nothing, and a delivered one is never resent.
    rows_before = endpoint.deliveries.count()
    with transaction.atomic():
        services.round_published(Round.objects.select_related("event").get(pk=rnd.pk))
        services.result_confirmed(match, MatchResult.objects.get(match=match, is_current=True))
    assert endpoint.deliveries.count() == rows_before
    again = webhook_deliveries.attempt_delivery(delivery_id=str(published.delivery_id))
    assert again.status == "skipped"

    # The receiver's count: every request correctly signed; each delivery accepted once.
    rows = list(endpoint.deliveries.all())
    assert all(r.verified for r in receiver.requests())
    accepted = receiver.accepted()
    assert Counter(r.delivery_id for r in accepted) == Counter(str(d.delivery_id) for d in rows)
    assert Counter(r.kind for r in accepted) == Counter(d.kind for d in rows)
    assert Counter(r.kind for r in accepted)["round.published"] == 1
    assert Counter(r.kind for r in accepted)["result.confirmed"] == 1
    # The retries of the round's delivery: the same id and the same bytes each time.
    tries = [r for r in receiver.requests() if r.delivery_id == str(published.delivery_id)]
    assert [r.answered for r in tries][-1] == 200 and 503 in [r.answered for r in tries]
    assert len({r.body for r in tries}) == 1


@contextmanager
def broker_down() -> Iterator[None]:
    """Publishing goes to a Redis where nothing listens (the broker is down), then back."""
    from spinner.celery import app

    saved = (app.conf.broker_url, app.conf.broker_transport_options)

    def reset_pools() -> None:
        app._pool = None
        app.amqp._producer_pool = None

    app.conf.broker_url = f"redis://127.0.0.1:{free_port()}/0"
    app.conf.broker_transport_options = {**saved[1], "socket_connect_timeout": 0.3}
    reset_pools()
    try:
        yield
    finally:
        app.conf.broker_url, app.conf.broker_transport_options = saved
        reset_pools()


@pytest.mark.django_db(transaction=True)
def test_the_sweep_sends_a_delivery_whose_message_was_lost(
    postgres: None,
    celery_worker_process: Callable[[str], Any],
    fast_retries: None,
    receiver: Receiver,
    caplog: pytest.LogCaptureFixture,
) -> None:
    from spinner.celery import app

    event = make_event("swept", swiss_rounds=2)
    boss = make_director(event)
    make_field(event, 4)
    endpoint, receiver.secret = services.register_endpoint(
        event=event, actor=boss, url=receiver.url
    )
    receiver.start()
    rnd = round_generation.generate_round(event=event, actor=boss)
    with broker_down():
        round_status.publish_round(round=rnd, actor=boss)  # the publishing itself succeeds
    assert "could not enqueue tournaments.deliver_webhook" in caplog.text
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert delivery.status == "pending" and delivery.attempts == 0

    # A worker (started after the outage) and the beat's sweep: delivered, once.
    worker = celery_worker_process(app.conf.task_default_queue)
    tasks.sweep_webhook_deliveries.delay()

    def delivered() -> bool:
        alive(worker)
        return WebhookDelivery.objects.get(pk=delivery.pk).status == "delivered"

    poll(delivered, timeout=60)
    assert [(r.delivery_id, r.verified) for r in receiver.requests()] == [
        (str(delivery.delivery_id), True)
    ]
