"""The director's webhook pages in Chromium at 390x844: a plain-http address and a private one
refused with what to do, an endpoint added and its secret shown once, and a failed delivery
retried from the log to a real local receiver that checks the signature with that secret.

Screenshots go to the test's artifacts folder (with SPINNER_UPDATE_SCREENS=1 also to
docs/screens/webhooks/)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import poll
from tests.e2e.test_csp import WATCH
from tests.e2e.test_desk import log_in
from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tests.tournaments.rounds_factory import make_director, make_event
from tests.tournaments.webhook_support import Receiver

__all__ = ["clean_teardown"]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "webhooks"


def shot(page: Any, artifacts: Path, name: str) -> None:
    """A screenshot of the page, which broke no Content-Security-Policy rule."""
    assert page.evaluate("window.__csp") == [], name
    page.screenshot(path=str(artifacts / name), full_page=True)
    if os.environ.get("SPINNER_UPDATE_SCREENS") == "1":
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENS / name), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_a_director_adds_an_endpoint_and_retries_a_failed_delivery_on_a_phone(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None, settings: Any
) -> None:
    from tournaments.models import WebhookDelivery, WebhookEndpoint

    settings.SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS = ["127.0.0.1"]
    receiver = Receiver().start()
    phone.context.add_init_script(WATCH)  # records any Content-Security-Policy violation
    try:
        event = make_event("hooked-open")
        make_director(event, "dana")
        log_in(phone, f"{live_server.url}/director/events/{event.slug}/")
        phone.get_by_role("link", name="Webhooks").click()
        expect(phone.get_by_role("heading", name="Webhooks", exact=True)).to_be_visible()

        # A tired director types plain http: refused, saying what to do, nothing lost.
        phone.get_by_label("Endpoint address").fill("http://club.example.org/spinner")
        phone.get_by_label("The standings change").uncheck()
        phone.get_by_role("button", name="Add the endpoint").click()
        expect(phone.get_by_text("Deliveries go over HTTPS only")).to_be_visible()
        expect(phone.get_by_label("Endpoint address")).to_have_value(
            "http://club.example.org/spinner"
        )
        expect(phone.get_by_label("The standings change")).not_to_be_checked()
        expect(phone.get_by_label("A round is published")).to_be_checked()
        no_sideways_scroll(phone)
        shot(phone, artifacts, "01-https-required.png")

        # Then the club computer's address on the venue's network: not public, refused (issue 28).
        phone.get_by_label("Endpoint address").fill("https://192.168.1.20/spinner")
        phone.get_by_role("button", name="Add the endpoint").click()
        expect(phone.get_by_text("192.168.1.20 is not a public address")).to_be_visible()
        expect(phone.get_by_label("Endpoint address")).to_have_value("https://192.168.1.20/spinner")
        expect(phone.get_by_label("The standings change")).not_to_be_checked()
        no_sideways_scroll(phone)
        shot(phone, artifacts, "01-private-address.png")

        # The local receiver's address (allowed as plain http here): added, its secret shown once.
        phone.get_by_label("Endpoint address").fill(receiver.url)
        phone.get_by_role("button", name="Add the endpoint").click()
        secret = phone.locator("#webhook-secret")
        expect(secret).to_be_visible()
        receiver.secret = secret.inner_text().strip()
        endpoint = WebhookEndpoint.objects.get(event=event)
        assert receiver.secret == endpoint.secret and len(receiver.secret) == 64
        no_sideways_scroll(phone)
        shot(phone, artifacts, "02-secret-once.png")
        phone.goto(f"{live_server.url}/director/events/{event.slug}/webhooks/")
        expect(phone.locator("#webhook-secret")).to_have_count(0)  # shown once only
        expect(phone.locator("li.endpoint")).to_contain_text(
            "round.published, result.confirmed, event.finished"  # as ticked
        )

        # A delivery that failed while the receiver was away, in the log: retried from there.
        failed = WebhookDelivery.objects.create(
            endpoint=endpoint,
            kind="result.confirmed",
            dedup_key="result.confirmed:match:1:v1",
            payload={"event": event.slug},
            status="failed",
            attempts=8,
            last_error="ConnectionError: HTTPConnectionPool(host='127.0.0.1'): Max retries "
            "exceeded with url: /hook (Caused by NewConnectionError: Connection refused)",
        )
        phone.goto(f"{live_server.url}/director/events/{event.slug}/webhooks/")
        phone.get_by_role("link", name="Deliveries").click()
        card = phone.locator(f'li.delivery[data-delivery="{failed.delivery_id}"]')
        expect(card).to_contain_text("Failed")
        no_sideways_scroll(phone)
        shot(phone, artifacts, "03-failed-delivery.png")
        card.get_by_role("button", name="Retry now").click()
        expect(phone.get_by_text("Sent again")).to_be_visible()
        poll(lambda: WebhookDelivery.objects.get(pk=failed.pk).status == "delivered")
        phone.reload()
        expect(card).to_contain_text("Delivered")
        shot(phone, artifacts, "04-delivered.png")
        assert [(r.delivery_id, r.verified) for r in receiver.requests()] == [
            (str(failed.delivery_id), True)
        ]
    finally:
        receiver.stop()
