"""Offline at the table: the network goes, the players enter and submit, the page is reloaded
(from the service worker's copy, the sheet from the browser's storage), the network returns and
the submission is delivered exactly once (its idempotency key was made once, with it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import poll
from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401
from tournaments.models import Claim, IdempotencyRecord

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]


def tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def outbox_size(page: Any, token: str) -> int:
    return int(
        page.evaluate(f"(JSON.parse(localStorage.getItem('spinner.outbox.{token}')) || []).length")
    )


def test_offline_entry_survives_a_reload_and_is_delivered_once(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "offline", rules="five-up", target=10)
    path = setup.path()
    token = path.split("/")[2]
    phone.goto(live_server.url + path)
    # The service worker has kept the page and its assets.
    expect(phone.locator("html[data-offline-ready='1']")).to_have_count(1)

    # Network off. Chromium's offline emulation may let a request through that the service
    # worker passes on to the network, so the API is also cut at the page: nothing reaches it.
    phone.context.set_offline(True)
    phone.route("**/api/**", lambda route: route.abort("internetdisconnected"))
    tap(phone, "Team A One (N)")
    tap(phone, "Team A One (N) scores 2 points")
    expect(phone.locator("#verdict")).to_contain_text("Not checked yet")
    expect(phone.locator("#net-status")).to_contain_text("No connection")
    tap(phone, "Team A One (N) dominoed")
    for seat, pips in ((1, "5"), (2, "0"), (3, "10")):
        phone.locator(f"#pips-{seat}").fill(pips)
    tap(phone, "Settle hand 1")
    tap(phone, "Submit as Team A")
    expect(phone.locator("#submitted")).to_contain_text("waiting for the connection")
    assert outbox_size(phone, token) == 1
    key = phone.evaluate(f"JSON.parse(localStorage.getItem('spinner.outbox.{token}'))[0].key")
    phone.screenshot(path=str(artifacts / "01-offline-submitted.png"), full_page=True)

    phone.reload()  # still offline: the page comes from the service worker's copy
    expect(phone.locator("#net-status")).to_contain_text("No connection")
    expect(phone.locator("#submitted")).to_be_visible()
    assert outbox_size(phone, token) == 1
    assert (
        phone.evaluate(f"JSON.parse(localStorage.getItem('spinner.outbox.{token}'))[0].key") == key
    )
    assert orm(lambda: Claim.objects.count()) == 0
    phone.screenshot(path=str(artifacts / "02-offline-reloaded.png"), full_page=True)

    phone.unroute("**/api/**")
    phone.context.set_offline(False)
    poll(lambda: outbox_size(phone, token) == 0)
    claims = orm(lambda: list(Claim.objects.all()))
    assert [(c.side, c.status, c.version) for c in claims] == [(0, "submitted", 1)]
    assert orm(lambda: IdempotencyRecord.objects.filter(key=key).count()) == 1
    expect(phone.locator("#claim-pending-A")).to_be_visible()
    expect(phone.locator("#verdict")).to_contain_text("no mistake so far")
    phone.screenshot(path=str(artifacts / "03-delivered.png"), full_page=True)

    phone.reload()  # nothing is sent twice
    expect(phone.locator("#claim-pending-A")).to_be_visible()
    assert outbox_size(phone, token) == 0
    assert orm(lambda: Claim.objects.count()) == 1


def test_a_lost_answer_is_retried_with_the_same_key_and_stored_once(
    live_server: Any, phone: Any
) -> None:
    """The submission reaches the server but its answer is lost on the way back: the outbox
    sends it again with the same Idempotency-Key, the server replays its first answer, and
    one claim is stored."""
    setup = orm(make_setup, "lost", rules="five-up", target=10)
    path = setup.path()
    token = path.split("/")[2]
    seen: list[dict[str, str]] = []

    def lose_first_answer(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        seen.append(dict(route.request.headers))
        answer = route.fetch()  # the server does the work...
        if len(seen) == 1:
            route.abort("connectionreset")  # ...and the phone never hears back
        else:
            route.fulfill(response=answer)

    phone.route("**/claims/", lose_first_answer)
    phone.goto(live_server.url + path)
    tap(phone, "Team A One (N)")
    tap(phone, "Team A One (N) scores 2 points")
    tap(phone, "Team A One (N) dominoed")
    for seat, pips in ((1, "5"), (2, "0"), (3, "10")):
        phone.locator(f"#pips-{seat}").fill(pips)
    tap(phone, "Settle hand 1")
    expect(phone.locator("#winner")).to_be_visible()
    tap(phone, "Submit as Team A")
    poll(lambda: outbox_size(phone, token) == 0)
    assert len(seen) == 2
    assert seen[0]["idempotency-key"] == seen[1]["idempotency-key"]
    assert orm(lambda: Claim.objects.count()) == 1
    assert orm(lambda: IdempotencyRecord.objects.count()) == 1
    expect(phone.locator("#claim-pending-A")).to_be_visible()
