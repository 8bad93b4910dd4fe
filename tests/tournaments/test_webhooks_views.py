"""The director's webhook pages (test client): the list with each endpoint's last delivery,
adding one (its secret shown once; a wrong address keeps what was typed), pausing, removing
after a confirmation, the deliveries' log with "retry now"; staff read, strangers get 404."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.rounds_factory import make_director, make_event
from tournaments.models import AuditEntry, Event, WebhookDelivery, WebhookEndpoint
from tournaments.services import webhooks

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def base(event: Event) -> str:
    return f"/director/events/{event.slug}/webhooks/"


def test_the_event_pages_link_to_the_webhooks() -> None:
    event = make_event("linked")
    boss = make_director(event)
    page = client_for(boss).get(f"/director/events/{event.slug}/")
    assert page.status_code == 200
    assert f'href="{base(event)}"' in page.content.decode()


def test_adding_an_endpoint_shows_its_secret_once() -> None:
    event = make_event("pages")
    boss = make_director(event)
    client = client_for(boss)
    empty = client.get(base(event))
    assert empty.status_code == 200 and "No endpoint yet." in empty.content.decode()
    added = client.post(
        base(event),
        {"url": "https://club.example.org/hook", "kinds": ["round.published", "event.finished"]},
    )
    assert added.status_code == 200
    endpoint = WebhookEndpoint.objects.get(event=event)
    assert endpoint.kinds == ["round.published", "event.finished"]
    text = added.content.decode()
    assert endpoint.secret in text and 'id="webhook-secret"' in text
    again = client.get(base(event)).content.decode()
    assert endpoint.secret not in again  # shown once
    assert "https://club.example.org/hook" in again and "round.published, event.finished" in again
    assert AuditEntry.objects.filter(event=event, action="webhook.add").count() == 1
    # The same form sent again (a reload) does not add a second endpoint.
    twice = client.post(base(event), {"url": "https://club.example.org/hook"})
    assert "already sends its webhooks to that address" in twice.content.decode()
    assert WebhookEndpoint.objects.filter(event=event).count() == 1


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("http://club.example.org/hook", "over HTTPS only"),
        ("club.example.org/hook", "starting with https://"),
        ("https://user:pw@club.example.org/hook", "user name and password"),
        ("https://192.168.1.20/hook", "192.168.1.20 is not a public address"),
        ("https://2130706433/hook", "four decimal numbers"),
    ],
)
def test_a_wrong_address_says_what_to_fix_and_keeps_what_was_typed(typed: str, says: str) -> None:
    event = make_event("typo")
    boss = make_director(event)
    page = client_for(boss).post(base(event), {"url": typed, "kinds": ["standings.updated"]})
    assert page.status_code == 200
    text = page.content.decode()
    assert says in text
    assert f'value="{typed}"' in text  # what was typed is still there
    assert 'value="standings.updated" id="id_kinds_2" checked' in text  # and what was ticked
    assert 'value="round.published" id="id_kinds_0" checked' not in text
    assert not WebhookEndpoint.objects.filter(event=event).exists()


def test_pause_resume_and_remove_after_a_confirmation() -> None:
    event = make_event("remove")
    boss = make_director(event)
    endpoint, _ = webhooks.register_endpoint(event=event, actor=boss, url="https://x.example/h")
    client = client_for(boss)
    paused = client.post(f"{base(event)}{endpoint.pk}/active/", {"active": "0"}, follow=True)
    assert "Paused" in paused.content.decode()
    assert not WebhookEndpoint.objects.get(pk=endpoint.pk).active
    client.post(f"{base(event)}{endpoint.pk}/active/", {"active": "1"})
    assert WebhookEndpoint.objects.get(pk=endpoint.pk).active
    ask = client.post(f"{base(event)}{endpoint.pk}/remove/")
    assert (
        ask.status_code == 200
        and "Remove the endpoint https://x.example/h?" in ask.content.decode()
    )
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()  # asked, not done
    done = client.post(f"{base(event)}{endpoint.pk}/remove/", {"confirm": "yes"})
    assert done.status_code == 302 and done["Location"] == base(event)
    assert not WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()


def test_the_deliveries_log_and_retry_now(django_capture_on_commit_callbacks: Any) -> None:
    event = make_event("log")
    boss = make_director(event)
    endpoint, _ = webhooks.register_endpoint(event=event, actor=boss, url="https://x.example/h")
    failed = WebhookDelivery.objects.create(
        endpoint=endpoint,
        kind="result.confirmed",
        dedup_key="a",
        status="failed",
        attempts=8,
        last_status_code=500,
        last_error="HTTP 500 Internal Server Error: boom",
    )
    delivered = WebhookDelivery.objects.create(
        endpoint=endpoint, kind="round.published", dedup_key="b", status="delivered", attempts=1
    )
    client = client_for(boss)
    listing = client.get(base(event)).content.decode()
    assert "round.published" in listing and "1 failed" in listing  # the last one, and the count
    page = client.get(f"{base(event)}{endpoint.pk}/")
    text = page.content.decode()
    assert str(failed.delivery_id) in text and str(delivered.delivery_id) in text
    assert "HTTP 500 Internal Server Error: boom" in text
    assert text.count("Retry now") == 1  # for the failed one only
    only_failed = client.get(f"{base(event)}{endpoint.pk}/?status=failed").content.decode()
    assert str(delivered.delivery_id) not in only_failed
    with django_capture_on_commit_callbacks() as sent:
        retried = client.post(f"{base(event)}{endpoint.pk}/deliveries/{failed.delivery_id}/retry/")
    tasks = [c for c in sent if c.__qualname__.startswith("enqueue_after_commit")]
    assert retried.status_code == 302 and len(tasks) == 1  # the task, after commit
    failed.refresh_from_db()
    assert failed.status == "pending" and failed.attempts == 0
    again = client.post(
        f"{base(event)}{endpoint.pk}/deliveries/{delivered.delivery_id}/retry/", follow=True
    )
    assert "was delivered: there is nothing to retry" in again.content.decode()


def test_staff_read_strangers_get_404_and_visitors_log_in() -> None:
    event = make_event("roles")
    boss = make_director(event)
    endpoint, _ = webhooks.register_endpoint(event=event, actor=boss, url="https://x.example/h")
    staff = client_for(User.objects.create_user("stella", is_staff=True))
    page = staff.get(base(event))
    assert page.status_code == 200
    assert "https://x.example/h" in page.content.decode()
    assert "Add an endpoint" not in page.content.decode()  # no forms for read-only staff
    refused = staff.post(base(event), {"url": "https://y.example/h"})
    assert refused.status_code == 403
    assert staff.post(f"{base(event)}{endpoint.pk}/remove/", {"confirm": "yes"}).status_code == 403
    assert WebhookEndpoint.objects.filter(event=event).count() == 1
    other = make_event("other")
    stranger = client_for(make_director(other, "olga"))
    assert stranger.get(base(event)).status_code == 404
    assert stranger.get(f"{base(event)}{endpoint.pk}/").status_code == 404
    # Another event's endpoint through this event's address: 404 too.
    mine = client_for(make_director(other, "otto"))
    assert mine.get(f"{base(other)}{endpoint.pk}/").status_code == 404
    visitor = Client().get(base(event))
    assert visitor.status_code == 302 and "/login/" in visitor["Location"]
