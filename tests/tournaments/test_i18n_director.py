"""The director's pages in Spanish (issue 18): from the browser's language (``Accept-Language``)
or the language switch's cookie, every marked string of a sample of pages in Spanish and no
English message of the director's catalog left on them; English by default; form errors and an
application error in Spanish with their code unchanged; the catalog complete for the director's
side."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from tests.tournaments import i18n_support
from tests.tournaments.desk_support import states_round
from tests.tournaments.rounds_factory import make_director, make_event, make_field
from tournaments.errors import Conflict, ErrorCode
from tournaments.models import Entry, Event
from tournaments.services import entries as entry_services
from tournaments.services import round_generation

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module", autouse=True)
def _spanish_catalog() -> Iterator[None]:
    i18n_support.compile_catalog()
    yield


def _director_client(event: Event, *, language: str | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language) if language else Client()
    client.force_login(event.directors.get())
    return client


def _pages(event: Event, number: int) -> dict[str, str]:
    base = f"/director/events/{event.slug}"
    return {
        "desk": f"{base}/",
        "entries": f"{base}/entries/",
        "review": f"{base}/rounds/{number}/",
        "results": f"{base}/rounds/{number}/results/",
        "rounds": f"{base}/rounds/",
        "settings": f"{base}/edit/",
    }


# What a page names from the data (the event, teams, players) or the pairing package's stored
# explanations ("why" each pairing, its notes: English data the review page shows as recorded).
DATA = ("Open open", "Team ", "Club", "dana")


def _english(html: str) -> list[str]:
    messages = i18n_support.template_messages()
    return [s for s in i18n_support.english_left(html, messages) if not s.startswith(DATA)]


def test_the_director_pages_follow_the_browser_language() -> None:
    event, _boss, rnd, _ = states_round()
    client = _director_client(event, language="es-ES,es;q=0.9,en;q=0.5")
    spanish = {
        "desk": ("Mesa de control", "Ahora", "Tablero de resultados", "Reglas y formato"),
        "entries": ("Busca una pareja o un jugador", "Inscripciones", "presentados"),
        "review": ("Comprobaciones", "Cerrar la ronda 1", "Cómo se hizo esta ronda"),
        "results": ("Resultados de la ronda 1", "Mesas, las más urgentes primero", "Abrir"),
        "rounds": ("Rondas", "Página pública"),
        "settings": ("Guardar ajustes", "Fecha de inicio", "Puntos de torneo"),
    }
    for name, url in _pages(event, rnd.number).items():
        response = client.get(url)
        assert response.status_code == 200, name
        assert response["Content-Language"] == "es", name
        html = response.content.decode()
        for words in spanish[name]:
            assert words in html, (name, words)
        assert _english(html) == [], name


def test_the_language_cookie_chooses_spanish_and_english_stays_the_default() -> None:
    event = make_event("cookie")
    make_director(event)
    make_field(event, 4)
    url = f"/director/events/{event.slug}/"

    english = _director_client(event).get(url).content.decode()
    assert "Desk" in english and "Check in" in english and "Mesa de control" not in english

    client = _director_client(event)
    client.cookies["django_language"] = "es"
    spanish = client.get(url).content.decode()
    assert "Mesa de control" in spanish and "Registrar llegada" in spanish
    assert _english(spanish) == []


def test_form_errors_and_choices_are_in_spanish() -> None:
    event = make_event("forms")
    make_director(event)
    client = _director_client(event, language="es")
    page = client.post(f"/director/events/{event.slug}/entries/add/", {"team": "Ases"})
    page = page.content.decode()
    assert "Este campo es requerido." in page  # Django's own catalog
    assert "Jugador A: nombre" in page and "Nombre de la pareja" in page

    settings_page = client.get(f"/director/events/{event.slug}/edit/").content.decode()
    assert "Parejas (cuatro por mesa)" in settings_page  # a model choice's label
    assert "Rondas suizas" in settings_page


def test_an_application_error_is_in_spanish_with_its_code_unchanged() -> None:
    event = make_event("errors")
    boss = make_director(event)
    (entry,) = make_field(event, 1)
    assert entry.status == Entry.Status.CHECKED_IN
    with translation.override("es"), pytest.raises(Conflict) as refused:
        entry_services.check_in_entry(actor=boss, entry=entry)
    assert refused.value.code == ErrorCode.ALREADY_CHECKED_IN
    assert refused.value.message == f"La llegada de {entry.name} ya está registrada."

    with translation.override("es"), pytest.raises(Conflict) as too_few:
        round_generation.generate_round(event=event, actor=boss)
    assert too_few.value.code == ErrorCode.TOO_FEW_ENTRIES
    assert too_few.value.message.startswith("Solo 1 inscripción tiene la llegada registrada")

    # On the page (htmx swaps the row): the refusal in the reader's language.
    client = _director_client(event, language="es")
    row = client.post(
        f"/director/events/{event.slug}/entries/{entry.pk}/check-in/",
        {"next": ""},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert f"La llegada de {entry.name} ya está registrada." in row

    with translation.override("en"), pytest.raises(Conflict) as english:
        entry_services.check_in_entry(actor=boss, entry=entry)
    assert english.value.message == f"{entry.name} is already checked in."
    assert english.value.code == refused.value.code


def test_the_spanish_catalog_is_complete_for_the_director_side() -> None:
    assert i18n_support.untranslated() == []


def test_the_check_sees_a_message_the_catalog_does_not_translate(tmp_path: Path) -> None:
    page = tmp_path / "planted.html"
    page.write_text(
        '{% load i18n %}<p>{% translate "Desk" %} {% translate "A zebra crossing" %}'
        "{% blocktranslate count counter=n %}{{ counter }} zebra{% plural %}{{ counter }} "
        "zebras{% endblocktranslate %}</p>"
    )
    missing = i18n_support.untranslated(templates=(str(page),), modules=())
    assert missing == [
        i18n_support.Message("", "%(counter)s zebra", "%(counter)s zebras"),
        i18n_support.Message("", "A zebra crossing"),
    ]
