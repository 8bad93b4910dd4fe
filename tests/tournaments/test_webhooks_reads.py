"""Webhooks' reads: the endpoints list and its deliveries, the audit log's sentences, a round
never published (and queued) twice, and beat's sweep. The services: ``test_webhooks.py``."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db.models import Q

from tests.tournaments.rounds_factory import make_director, make_event, make_field
from tests.tournaments.webhook_support import refused, registered
from tournaments import tasks
from tournaments.models import Round, WebhookDelivery
from tournaments.selectors import webhooks as selectors
from tournaments.services import round_generation, round_status, webhooks

pytestmark = pytest.mark.django_db


def test_the_endpoints_list_reads_the_last_delivery_in_one_query(
    django_assert_num_queries: Any,
) -> None:
    event = make_event("reads")
    boss = make_director(event)
    quiet, _ = registered(event, boss, "https://example.org/quiet")
    busy, _ = registered(event, boss, "https://example.org/busy")
    for n, status in enumerate(["delivered", "failed", "failed", "pending"]):
        WebhookDelivery.objects.create(
            endpoint=busy,
            kind="standings.updated",
            dedup_key=f"k{n}",
            status=status,
            last_status_code=200 if status == "delivered" else 500,
        )
    with django_assert_num_queries(1):
        rows = selectors.list_endpoints(event)
    assert [r.pk for r in rows] == [quiet.pk, busy.pk]
    assert rows[0].last_status is None and not rows[0].failed_count
    assert rows[1].last_status == "pending" and rows[1].failed_count == 2
    with django_assert_num_queries(1):
        assert len(list(selectors.deliveries_of(busy, status="failed"))) == 2
    missing = uuid.uuid4()
    refused("webhook_delivery_not_found", selectors.delivery_of, endpoint=busy, delivery_id=missing)
    refused("webhook_delivery_not_found", selectors.delivery_of, endpoint=busy, delivery_id="x")
    refused("webhook_not_found", selectors.endpoint_of, event=make_event("x"), endpoint_id=busy.pk)


def test_the_audit_log_says_who_changed_the_webhooks() -> None:
    from tournaments.presenters import audit as presenters
    from tournaments.selectors import registration

    event = make_event("audited")
    boss = make_director(event)
    endpoint, _ = registered(event, boss, "https://example.org/audited")
    webhooks.remove_endpoint(endpoint=endpoint, actor=boss)
    entries, matches, rounds = registration.audit_names(event)
    names = presenters.AuditNames(entries=entries, matches=matches)
    lines = presenters.audit_lines(registration.list_audit(event=event), event, names, rounds)
    sentences = [line.sentence for line in lines]
    assert sentences[:2] == [
        f"{boss.username} removed the webhook endpoint https://example.org/audited",
        f"{boss.username} added the webhook endpoint https://example.org/audited",
    ]


def test_a_finished_round_is_not_published_again(django_capture_on_commit_callbacks: Any) -> None:
    # A round moves forward only: publishing twice is refused, so it is never queued twice.
    event = make_event("twice")
    boss = make_director(event)
    make_field(event, 4)
    endpoint, _ = registered(event, boss, "https://example.org/twice")
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    refused("round_not_draft", round_status.publish_round, round=rnd, actor=boss)
    assert endpoint.deliveries.count() == 1
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    assert not endpoint.deliveries.filter(~Q(kind="round.published")).exists()


def test_beat_sweeps_the_webhook_deliveries(settings: Any) -> None:
    from spinner.celery import app

    job = settings.CELERY_BEAT_SCHEDULE["sweep-webhooks"]
    assert job["task"] == "tournaments.sweep_webhook_deliveries"
    assert job["schedule"] == settings.SPINNER_WEBHOOK_SWEEP_SECONDS
    tasks.sweep_webhook_deliveries  # noqa: B018 - registers the tasks module's names
    assert job["task"] in app.tasks
