"""'My table' in Chromium at 390x844, in Spanish (the phone's language): a player finds their
table by name, follows it and keeps the page open; the director publishes round 1 from the
director's pages in another browser; the player's page shows the table without a reload, then
the round clock once the round starts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from tests.conftest import poll
from tests.tournaments.follow_support import (
    draft_round,
    make_followed_event,
    match_of,
    private_cache,
)
from tournaments.models import Round
from tournaments.services import push, round_status

pytestmark = pytest.mark.browser

POLL_DEADLINE_MS = 30_000  # the page polls every 10 s


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    private_cache(settings)


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.django_db(transaction=True)
def test_a_player_follows_their_table_and_sees_it_appear_when_published(
    live_server: Any, spanish_phone: Any, browser: Any, artifacts: Path
) -> None:
    field = make_followed_event("primavera", name="Open de Primavera")
    event = field.event
    phone = spanish_phone

    # From the event's page: "find my table", a name typed without its accents.
    phone.goto(f"{live_server.url}/events/{event.slug}/")
    phone.get_by_role("link", name="Buscar mi mesa (se actualiza en directo)").click()
    phone.get_by_label("Tu nombre").fill("jose ramirez")
    phone.get_by_role("button", name="Buscar").click()
    expect(phone.locator(".follow-found li")).to_have_count(1)
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "1-found.png"), full_page=True)
    phone.get_by_role("button", name="Seguir a Los Ramírez").click()

    live = phone.locator("#my-table")
    expect(live).to_contain_text("Esperando a que se publique la ronda 1")
    expect(phone.get_by_role("heading", name="Los Ramírez")).to_be_visible()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "2-waiting.png"), full_page=True)
    phone.evaluate("window.__notReloaded = true")

    # The director, in another browser, generates and publishes round 1 from their pages.
    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    director = desk.new_page()
    director.set_default_timeout(15_000)
    try:
        director.goto(f"{live_server.url}/director/events/{event.slug}/rounds/")
        director.get_by_label("Username").fill(field.director.username)
        director.get_by_label("Password").fill("pw-for-tests-123")
        director.get_by_role("button", name="Log in").click()
        director.get_by_role("button", name="Generate the next round").click()
        director.get_by_role("button", name="Publish round 1").click()
        director.get_by_role("button", name="Yes, publish round 1").click()
        director.get_by_text("Round 1 is published.").wait_for()
    finally:
        desk.close()

    # The player's page shows the table by itself (htmx polls; no reload), in Spanish.
    rnd = Round.objects.get(event=event, number=1)
    match = match_of(rnd, field.ramirez)
    other = match.entry_b if match.entry_a_id == field.ramirez.pk else match.entry_a
    assert match.table is not None and other is not None
    expect(live.locator(".my-table-no")).to_have_text(
        re.compile(rf"Mesa\s+{match.table.number}$"), timeout=POLL_DEADLINE_MS
    )
    expect(live.locator(".my-opponent")).to_have_text(f"contra {other.name}")
    expect(live).to_contain_text("La ronda aún no ha empezado.")
    expect(live.locator(".my-seats li.mine")).to_have_count(2)
    expect(live.locator(".my-seats")).to_contain_text("Norte")
    assert phone.evaluate("window.__notReloaded === true")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "3-table.png"), full_page=True)

    # The round starts: the clock appears and counts down on the phone.
    round_status.start_round(round=rnd, actor=field.director)
    clock = live.locator(".clock-time")
    expect(clock).to_have_attribute("data-clock-state", "running", timeout=POLL_DEADLINE_MS)
    expect(live.locator(".clock-label")).to_have_text("Tiempo restante")
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=5_000)  # it counts down by itself
    # A poll with nothing new keeps the page as it is (the clock is not set back).
    phone.evaluate("document.getElementById('my-table').__same = true")
    with phone.expect_response(
        lambda r: r.url.endswith(f"/me/{field.ramirez.pk}/live/"), timeout=POLL_DEADLINE_MS
    ):
        pass
    assert phone.evaluate("document.getElementById('my-table').__same === true")
    assert phone.evaluate("window.__notReloaded === true")
    phone.screenshot(path=str(artifacts / "4-clock.png"), full_page=True)

    # Stop following: the search comes back.
    phone.get_by_role("button", name="Dejar de seguir").click()
    expect(phone.get_by_role("heading", name="Buscar mi mesa")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_the_phone_pages_worker_shows_the_pushed_table(
    live_server: Any, browser: Any, settings: Any, artifacts: Path
) -> None:
    """With VAPID keys the page offers notifications; tapping asks the browser, registers the
    phone page's worker (/t/sw.js) with this page's scope and subscribes. This Chromium has no
    push service, so subscribing fails and the page says so (it still updates by itself). The
    worker's push handler is then fed the server's own notice through DevTools (as the browser's
    push service would hand it over, decrypted) and shows it."""
    public, private = push.new_vapid_keys()
    settings.SPINNER_VAPID_PUBLIC_KEY, settings.SPINNER_VAPID_PRIVATE_KEY = public, private
    field = make_followed_event("aviso")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
    context.grant_permissions(["notifications"], origin=live_server.url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/events/{field.event.slug}/me/?q=ramirez")
        page.get_by_role("button", name="Seguir a Los Ramírez").click()
        devtools = context.new_cdp_session(page)
        registrations: list[dict[str, Any]] = []
        devtools.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda e: registrations.extend(e["registrations"]),
        )
        devtools.send("ServiceWorker.enable")
        page.get_by_role("button", name="Avisarme cuando se publiquen los emparejamientos").click()
        expect(page.get_by_role("button", name="Desactivar los avisos")).to_be_hidden()
        expect(page.locator("#push-status")).to_have_text(
            "Este navegador no pudo activar los avisos. "
            "Deja esta página abierta: se actualiza sola."
        )
        no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / "push-refused.png"), full_page=True)
        scope = f"{live_server.url}/events/{field.event.slug}/me/"
        mine = poll(lambda: [r for r in registrations if r["scopeURL"] == scope])

        rnd = round_status.publish_round(round=draft_round(field), actor=field.director)
        match = match_of(rnd, field.ramirez)
        with translation.override("es"):
            notice = push.round_notice(rnd, match, field.ramirez.pk)
        devtools.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": f"{live_server.url}/",
                "registrationId": mine[0]["registrationId"],
                "data": json.dumps(notice),
            },
        )
        shown = poll(
            lambda: page.evaluate(
                "navigator.serviceWorker.getRegistration(location.pathname)"
                ".then(r => r.getNotifications())"
                ".then(ns => ns.map(n => [n.title, n.body, n.tag, n.data.url]))"
            )
        )
        assert shown == [[notice["title"], notice["body"], notice["tag"], notice["url"]]]
        assert notice["body"].startswith("Ronda 1: mesa ")
        # Stopping also turns this phone's notices off (none here), then leaves.
        page.get_by_role("button", name="Dejar de seguir").click()
        expect(page.get_by_role("heading", name="Buscar mi mesa")).to_be_visible()
    finally:
        context.close()
