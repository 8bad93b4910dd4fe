"""A director whose phone speaks Spanish (Chromium at 390x844, locale es-ES, so its
``Accept-Language`` asks for Spanish): create an event, add entries, check them in, generate
round 1 and review it, every step in Spanish (issue 18)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from tests.e2e.test_rounds import clean_teardown  # noqa: F401 - a fixture, used by name
from tests.tournaments import i18n_support
from tournaments.models import Entry, Event, Round
from tournaments.services.organisers import make_organiser

PARTNERS = [
    ("Marisol Okafor", "Tomás Reyes"),
    ("Lucía Campos", "Andrés Vidal"),
    ("Carmen Ortiz", "Julio Peña"),
    ("Rosa Delgado", "Iván Molina"),
    ("Elena Soto", "Pablo Ruiz"),
]


def _log_in(page: Any, live_server: Any, user: User) -> None:
    """The director's session in the browser (the login page itself is the public pages')."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


@pytest.mark.django_db(transaction=True)
def test_a_spanish_speaking_director_runs_the_first_round(
    live_server: Any,
    spanish_phone: Any,
    artifacts: Path,
    clean_teardown: None,  # noqa: F811
) -> None:
    page = spanish_phone
    messages = i18n_support.template_messages()
    shot = 0

    def snap(name: str) -> None:
        nonlocal shot
        shot += 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
        assert i18n_support.english_left(page.content(), messages) == [], name
        page.screenshot(path=str(artifacts / f"{shot:02d}-{name}.png"), full_page=True)

    director = User.objects.create_user("rocio", password="dominó-2026")
    make_organiser(user=director)
    _log_in(page, live_server, director)

    # Create the event, in Spanish.
    page.goto(live_server.url + "/director/")
    page.get_by_role("link", name="Crear un torneo").click()
    page.get_by_label("Nombre").fill("Abierto de Sevilla")
    page.get_by_label("Fecha de inicio").fill("2026-12-11")
    page.get_by_label("Fecha de fin").fill("2026-12-11")
    page.get_by_label("Rondas suizas").fill("3")
    snap("crear-torneo")
    page.get_by_role("button", name="Crear torneo").click()
    page.wait_for_url("**/director/events/abierto-de-sevilla/")
    expect(page.locator(".messages")).to_contain_text("Abierto de Sevilla creado.")
    snap("mesa-de-control")
    event = Event.objects.get(slug="abierto-de-sevilla")

    # Add the entries (the form keeps coming back for the next one); a mistake first.
    page.get_by_role("link", name="Añadir una inscripción").first.click()
    page.get_by_label("Jugador A: nombre").fill(PARTNERS[0][0])
    page.get_by_role("button", name="Inscribir y añadir otra").click()
    expect(page.locator(".errorlist").first).to_have_text("Este campo es requerido.")
    snap("inscripcion-con-error")
    for a, b in PARTNERS:
        page.get_by_label("Jugador A: nombre").fill(a)
        page.get_by_label("Jugador B: nombre").fill(b)
        page.get_by_role("button", name="Inscribir y añadir otra").click()
        expect(page.locator(".messages")).to_contain_text("inscrita.")
    assert Entry.objects.filter(event=event).count() == len(PARTNERS)

    # Check four of them in with one tap each; the fifth does not turn up.
    page.goto(f"{live_server.url}/director/events/{event.slug}/entries/")
    for a, b in PARTNERS[:4]:
        page.get_by_role("button", name=f"Registrar la llegada de {a} & {b}").click()
        expect(page.get_by_role("button", name=f"Deshacer la llegada de {a} & {b}")).to_be_visible()
    expect(page.locator("#checked-count")).to_have_text("4 de 5 presentados")
    snap("inscripciones")

    # Generate round 1 and review it.
    page.get_by_role("link", name="Rondas", exact=True).click()
    page.get_by_role("button", name="Generar la siguiente ronda").click()
    page.get_by_role("heading", name="Ronda 1").wait_for()
    expect(page.get_by_text("El verificador no encuentra ninguna infracción.")).to_be_visible()
    expect(page.locator("ol.pairings > li")).to_have_count(2)
    snap("revisar-ronda")

    # Publishing asks first, in Spanish.
    page.get_by_role("button", name="Publicar la ronda 1").click()
    page.get_by_role("button", name="Sí, publicar la ronda 1").click()
    expect(page.locator(".messages")).to_contain_text("La ronda 1 está publicada.")
    snap("ronda-publicada")
    assert Round.objects.get(event=event, number=1).status == Round.Status.PUBLISHED
