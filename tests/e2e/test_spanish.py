"""Issue 18 in Debian's Chromium at 390x844 with a Spanish browser (locale es-ES, so
Accept-Language: es-ES): the public event page, the standings and the phone's table page read in
Spanish (the phone's script too, from the JavaScript catalog), nothing overflows the screen, and
the language switch turns a page English and keeps it so. Screenshots in the test's artifacts."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.tournaments.live_support import confirm, make_director, make_entries, make_round
from tests.tournaments.live_support import make_event as make_live_event
from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    """A cache of this test's own (never the machine's Redis, shared with other runs)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"spanish-{uuid.uuid4()}",
        }
    }


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def played_event() -> Any:
    event = make_live_event("abierto", name="Abierto de Invierno", public_standings=True)
    teams = make_entries(event, 6, prefix="Pareja")
    director = make_director(event)
    matches = make_round(
        event, 1, [(teams[0], teams[1]), (teams[2], teams[3]), (teams[4], teams[5])]
    )
    confirm(matches[0], 305, 120, director)  # tasks run eagerly: the snapshot is made at commit
    confirm(matches[1], 200, 305, director)
    return event


def test_the_public_pages_in_spanish_and_the_switch(
    live_server: Any, spanish_phone: Any, artifacts: Path
) -> None:
    page = spanish_phone
    event = orm(played_event)

    page.goto(f"{live_server.url}/events/{event.slug}/")
    assert page.locator("html").get_attribute("lang") == "es"
    expect(page.get_by_role("heading", name="Reglas")).to_be_visible()
    expect(page.get_by_role("heading", name="Rondas")).to_be_visible()
    expect(page.get_by_role("link", name="Ronda 1")).to_be_visible()
    rules = page.locator("ul.rules").inner_text()
    assert "dos parejas en cada mesa" in rules and "Puntos de torneo:" in rules
    expect(page.get_by_role("link", name="Clasificación", exact=True).first).to_be_visible()
    fits(page)
    page.screenshot(path=str(artifacts / "01-evento.png"), full_page=True)

    page.get_by_role("link", name="Clasificación", exact=True).first.click()
    page.wait_for_url(f"**/events/{event.slug}/standings/")
    expect(page.get_by_role("heading", name=f"{event.name}: clasificación")).to_be_visible()
    expect(page.locator("table.standings thead")).to_contain_text("Equipo")
    expect(page.locator("table.standings thead")).to_contain_text("G-E-P")
    expect(page.locator(".live-status")).to_contain_text("Al día")
    assert page.locator("table.standings tbody tr").count() == 6
    fits(page)
    page.screenshot(path=str(artifacts / "02-clasificacion.png"), full_page=True)

    page.goto(f"{live_server.url}/events/{event.slug}/rounds/1/")
    page.get_by_label("Buscar mi mesa").fill("Pareja 3")
    expect(page.locator("#pairings")).to_contain_text("1 de 3 para «Pareja 3»")
    expect(page.locator("#pairings .table-no")).to_contain_text("Mesa 2")
    fits(page)
    page.screenshot(path=str(artifacts / "03-buscar-mesa.png"), full_page=True)

    # The switch: English now, remembered by the cookie over the browser's Spanish.
    page.goto(f"{live_server.url}/events/{event.slug}/standings/")
    page.locator(".lang-switch").get_by_role("button", name="English").click()
    page.wait_for_url(f"**/events/{event.slug}/standings/")
    expect(page.get_by_role("heading", name=f"{event.name}: standings")).to_be_visible()
    expect(page.locator("table.standings thead")).to_contain_text("Team")
    page.goto(f"{live_server.url}/events/{event.slug}/")
    expect(page.get_by_role("heading", name="Rules")).to_be_visible()
    assert page.locator("html").get_attribute("lang") == "en"
    page.screenshot(path=str(artifacts / "04-english.png"), full_page=True)
    page.locator(".lang-switch").get_by_role("button", name="Español").click()
    expect(page.get_by_role("heading", name="Reglas")).to_be_visible()


def test_the_phone_table_page_in_spanish(
    live_server: Any, spanish_phone: Any, artifacts: Path
) -> None:
    page = spanish_phone
    setup = orm(make_setup, "mesa", rules="five-up", target=305)
    page.goto(live_server.url + setup.path())
    expect(page.get_by_role("heading", name="Mesa 1 · Ronda 1")).to_be_visible()
    expect(page.locator("#my-team")).to_have_text("Teléfono de Team A")
    expect(page.locator("#clock-label")).to_have_text("Aún sin reloj")
    # Drawn by the script, in Spanish from the JavaScript catalog.
    expect(page.get_by_role("heading", name="¿Quién sale en la primera mano?")).to_be_visible()
    fits(page)
    page.screenshot(path=str(artifacts / "05-mesa-inicio.png"))

    page.get_by_role("button", name="Team A One (N)").click()
    expect(
        page.get_by_role("heading", name=re.compile(r"^Mano 1 · salió Team A One"))
    ).to_be_visible()
    grid = page.get_by_role("group", name="Quién anotó qué: un toque por anotación")
    expect(grid).to_be_visible()
    grid.get_by_role("button", name="Team A One (N) anota 2 puntos").click()
    expect(page.locator("#entry ol.entries")).to_contain_text("Team A One (N): 2 puntos")
    expect(page.get_by_role("button", name="Deshacer lo último")).to_be_visible()
    expect(page.locator("#verdict")).to_contain_text("Comprobado por el motor de reglas")
    fits(page)
    page.screenshot(path=str(artifacts / "06-mesa-mano.png"))

    page.get_by_role("button", name="Team B Two (O) dominó").click()
    expect(page.locator("#pips .hint")).to_contain_text("Pintas que quedan en cada mano")
    page.locator("#pips-0").fill("")
    page.locator("#pips-1").fill("x")
    expect(page.locator("#pips-error-1")).to_have_text("Solo pintas enteras.")
    page.screenshot(path=str(artifacts / "07-mesa-pintas.png"))

    # The site's header is hidden on the phone page: its own switch, below the match details.
    page.locator(".phone-language").get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="Table 1 · Round 1")).to_be_visible()
    expect(page.locator("#pips .hint")).to_contain_text("Pips left in each hand")  # kept
    expect(page.locator("#clock-label")).to_have_text("No clock yet")
    page.locator(".phone-language").scroll_into_view_if_needed()
    fits(page)
    page.screenshot(path=str(artifacts / "08-mesa-english.png"))


def test_a_fault_on_the_spanish_phone_shows_no_english_engine_text(
    live_server: Any, spanish_phone: Any, artifacts: Path
) -> None:
    # All Fives counts its own points: 12 is no placement score, and only the engine says so.
    # Its own words are English (the verdict is a contract): a Spanish page shows the plain
    # Spanish explanation and the fault's code, never the engine's sentence.
    page = spanish_phone
    setup = orm(make_setup, "falta", rules="all-fives")
    page.goto(live_server.url + setup.path())
    page.get_by_role("button", name="Team A One (N)", exact=True).click()
    page.get_by_role("button", name="Otra…", exact=True).click()
    expect(page.locator("#other-raw")).to_be_focused()
    page.keyboard.type("12")
    page.get_by_role("button", name="para Team B One (E)", exact=True).click()
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("Mano 1, anotación 1:")
    expect(verdict).to_contain_text("múltiplo de cinco")
    expect(verdict.locator("code[lang=en]")).to_have_text("score")
    expect(verdict).to_contain_text("código de la falta: score")
    fault = page.locator("ol.entries li.fault")
    expect(fault).to_contain_text("código de la falta: score")
    for shown in (verdict, fault):
        assert "placement score" not in shown.inner_text()
    fits(page)
    page.screenshot(path=str(artifacts / "09-mesa-falta.png"))
    # The same fault (kept on the phone) on an English page: the engine's own words, as before.
    # The switch sits under the fixed dock here: pressed from the keyboard.
    page.locator(".phone-language").get_by_role("button", name="English").press("Enter")
    expect(page.locator("#verdict")).to_contain_text("12 is not a placement score")
