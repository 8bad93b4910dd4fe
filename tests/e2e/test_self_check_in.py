"""Self check-in in Chromium (issue 18): the director turns it on and prints the poster; a player
on a Spanish phone (390x844, es-ES) opens the poster's address, finds their entry by a name typed
without accents, types a wrong code (a clear error, the code kept), then the right one, and is
checked in, the time in the event's zone; the desk marks the entry as checked in by themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_desk import log_in
from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tests.tournaments.api_support import private_cache
from tests.tournaments.rounds_factory import make_director, make_event
from tournaments.models import Entry, Event
from tournaments.presenters.cards import qr_svg
from tournaments.services import entries as entry_services
from tournaments.services.entries import PlayerSpec

__all__ = ["clean_teardown"]


@pytest.fixture
def own_cache(settings: Any) -> Iterator[None]:
    with private_cache(settings):  # the throttle's counters start at zero
        yield


@pytest.mark.django_db(transaction=True)
def test_a_player_checks_in_from_the_posters_address_on_a_spanish_phone(
    live_server: Any,
    browser: Any,
    phone: Any,
    artifacts: Path,
    clean_teardown: None,
    own_cache: None,
) -> None:
    event = make_event("feria-fives", status=Event.Status.REGISTRATION, time_zone="America/Chicago")
    boss = make_director(event, "dana")
    entry = entry_services.register_entry(
        actor=boss,
        event=event,
        players=[PlayerSpec("José Ramírez", "Club"), PlayerSpec("Ana Peña", "Club")],
        team_name="Los Seises",
    )

    # The director turns self check-in on and opens the printable poster.
    log_in(phone, f"{live_server.url}/director/events/{event.slug}/")
    card = phone.locator("#self-check-in")
    card.get_by_role("button", name="Turn self check-in on").click()
    phone.wait_for_url(re.compile(r"#self-check-in$"))
    assert "Self check-in is on." in phone.locator(".messages").inner_text()
    phone.screenshot(path=str(artifacts / "01-director-card.png"), full_page=True)
    card.get_by_role("link", name="Poster with the QR code").click()
    poster_url = phone.locator(".poster-url").inner_text().strip()
    assert poster_url == f"{live_server.url}/events/{event.slug}/check-in/"
    # The QR code on the poster is exactly the code of that address.
    drawn = phone.locator(".poster-qr svg path").get_attribute("d")
    expected = re.search(r' d="([^"]+)"', qr_svg(poster_url))
    assert expected is not None and drawn == expected.group(1)
    phone.screenshot(path=str(artifacts / "02-poster.png"), full_page=True)

    # A player's phone, in Spanish, opens the poster's address.
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=1,
        locale="es-ES",
        extra_http_headers={"Accept-Language": "es-ES,es;q=0.9"},
    )
    player = context.new_page()
    player.set_default_timeout(15_000)
    try:
        player.goto(poster_url)
        assert player.get_by_role("heading", name="Acreditarse").is_visible()
        player.get_by_label("Tu nombre").fill("jose ramirez")
        player.get_by_label("Tu nombre").press("Enter")
        pick = player.locator("a.check-in-pick", has_text="Los Seises")
        pick.wait_for()
        assert "José Ramírez" in pick.inner_text()
        no_sideways_scroll(player)
        player.screenshot(path=str(artifacts / "03-found.png"), full_page=True)
        pick.click()

        # A wrong code: a clear error in Spanish, and what was typed is still there.
        code = player.get_by_label("Tu código de acreditación")
        code.fill("zzz-999")
        player.get_by_role("button", name="Acreditarse").click()
        alert = player.get_by_role("alert")
        alert.wait_for()
        assert alert.get_attribute("data-code") == "check_in_code_wrong"
        assert "Ese código no es el de Los Seises" in alert.inner_text()
        assert code.input_value() == "zzz-999"
        no_sideways_scroll(player)
        player.screenshot(path=str(artifacts / "04-wrong-code.png"), full_page=True)

        # The right code, typed in lower case with a space.
        right = entry.check_in_code.lower()
        code.fill(f"{right[:3]} {right[3:]}")
        player.get_by_role("button", name="Acreditarse").click()
        done = player.locator(".check-in-done")
        done.wait_for()
        assert "Inscripción acreditada" in done.inner_text()
        assert re.search(r"Acreditación: \d\d:\d\d C[SD]T\.", done.inner_text())
        no_sideways_scroll(player)
        player.screenshot(path=str(artifacts / "05-checked-in.png"), full_page=True)

        # The help for players is a tap away, in Spanish too.
        player.get_by_role("link", name="Ayuda: acreditarse y jugar").click()
        assert player.get_by_role("heading", name="Ayuda para jugadores").is_visible()
        no_sideways_scroll(player)
        player.screenshot(path=str(artifacts / "06-help.png"), full_page=True)
    finally:
        context.close()

    fresh = Entry.objects.get(pk=entry.pk)
    assert fresh.status == Entry.Status.CHECKED_IN and fresh.checked_in_by_self

    # The desk marks it, and counts it.
    phone.goto(f"{live_server.url}/director/events/{event.slug}/entries/")
    row = phone.locator(f"#entry-{entry.pk}")
    assert "by themselves" in row.inner_text()
    assert "(1 by themselves)" in phone.locator("#checked-count").inner_text()
    phone.screenshot(path=str(artifacts / "07-desk.png"), full_page=True)
