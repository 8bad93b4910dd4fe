"""The pages in the reader's language (issue 18): English by default, Spanish from the browser's
Accept-Language or the language switch's cookie; the switch on every page; cached pages, ETags
and the phone page's script never cross languages."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests.tournaments.live_support import confirm, make_director, make_entries, make_round
from tests.tournaments.live_support import make_event as make_live_event
from tests.tournaments.phone_factory import make_setup
from tournaments.models import Event

pytestmark = pytest.mark.django_db

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-ES,es;q=0.9,en;q=0.5"}
COOKIE = django_settings.LANGUAGE_COOKIE_NAME


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    """A cache of this test's own (never the machine's Redis, shared with other runs)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"languages-{uuid.uuid4()}",
        }
    }


@pytest.fixture
def played(django_capture_on_commit_callbacks: Any) -> Event:
    """Four teams, round 1 played and confirmed: the standings have a snapshot."""
    event = make_live_event("fiesta", public_standings=True)
    teams = make_entries(event, 4)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3])])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[0], 305, 150, director)
        confirm(matches[1], 100, 305, director)
    return event


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, "no <html lang>"
    return found[1]


def test_english_by_default_spanish_from_accept_language_or_the_cookie(
    client: Client, played: Event
) -> None:
    url = f"/events/{played.slug}/"
    english = client.get(url).content.decode()
    assert html_lang(english) == "en"
    assert "<h2>Rules</h2>" in english and "<h2>Rounds</h2>" in english

    spanish = client.get(url, **SPANISH)
    html = spanish.content.decode()
    assert spanish["Content-Language"] == "es"
    assert html_lang(html) == "es"
    assert "<h2>Reglas</h2>" in html and "<h2>Rondas</h2>" in html
    assert "Ronda 1" in html and "En juego" in html  # the round's number and its state's label
    assert "dos parejas en cada mesa" in html  # the rules summary, from Python

    by_cookie = Client()
    by_cookie.cookies[COOKIE] = "es"
    assert "<h2>Reglas</h2>" in by_cookie.get(url).content.decode()
    # The cookie wins over the browser's language: a Spanish browser can choose English.
    chose_english = Client()
    chose_english.cookies[COOKIE] = "en"
    assert "<h2>Rules</h2>" in chose_english.get(url, **SPANISH).content.decode()


def test_the_language_switch_is_on_every_page_and_remembered(client: Client, played: Event) -> None:
    for url in ("/", "/events/", f"/events/{played.slug}/standings/", "/leagues/", "/players/"):
        html = client.get(url).content.decode()
        at = html.index('class="lang-switch"')
        switch = html[at - 200 : at + 900]
        assert 'action="/i18n/setlang/"' in switch, url
        assert 'name="language" value="es" lang="es"' in switch and ">Español</button>" in switch
        assert 'value="en" lang="en" class="link" aria-current="true" disabled>English' in switch

    page = f"/events/{played.slug}/"
    response = client.post("/i18n/setlang/", {"language": "es", "next": page})
    assert response.status_code == 302 and response["Location"] == page
    assert response.cookies[COOKIE].value == "es"
    html = client.get(page).content.decode()  # the test client keeps the cookie: remembered
    assert "<h2>Reglas</h2>" in html
    assert 'value="es" lang="es" class="link" aria-current="true" disabled>Español' in html

    client.post("/i18n/setlang/", {"language": "en", "next": page})
    assert "<h2>Rules</h2>" in client.get(page, **SPANISH).content.decode()


def test_the_switch_refuses_an_unknown_language_and_a_foreign_next(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/events/"})
    assert response.status_code == 302 and COOKIE not in response.cookies
    response = client.post("/i18n/setlang/", {"language": "es", "next": "https://evil.example/"})
    assert response.status_code == 302 and "evil.example" not in response["Location"]


def test_a_cached_standings_page_never_crosses_languages(client: Client, played: Event) -> None:
    url = f"/events/{played.slug}/standings/"
    english = client.get(url)
    assert '<th scope="col">Team</th>' in english.content.decode()
    assert 'title="Spread"' in english.content.decode()
    spanish = client.get(url, **SPANISH)  # the table is cached now: in English only
    html = spanish.content.decode()
    assert '<th scope="col">Equipo</th>' in html and ">Team</th>" not in html
    # the tiebreak columns' labels and short headings, the W-D-L heading
    assert 'title="Diferencia"' in html and ">PT</abbr>" in html and ">G-E-P</th>" in html
    assert english["ETag"] != spanish["ETag"]
    for response in (english, spanish):
        vary = {v.strip() for v in response["Vary"].split(",")}
        assert {"Accept-Language", "Cookie"} <= vary

    # The English tag does not satisfy a Spanish reader, nor the reverse; its own tag does.
    assert client.get(url, HTTP_IF_NONE_MATCH=english["ETag"], **SPANISH).status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=spanish["ETag"]).status_code == 200
    same = client.get(url, HTTP_IF_NONE_MATCH=spanish["ETag"], **SPANISH)
    assert same.status_code == 304 and "Accept-Language" in same["Vary"]

    live = f"/events/{played.slug}/standings/live/"
    live_en, live_es = client.get(live), client.get(live, **SPANISH)
    assert live_en["ETag"] != live_es["ETag"]
    assert "Al día" in live_es.content.decode() and "Up to date" in live_en.content.decode()
    assert "Cookie" in live_es["Vary"] and "Accept-Language" in live_es["Vary"]


def test_public_pages_read_in_spanish(client: Client, played: Event) -> None:
    team = played.entries.order_by("pk").first()
    assert team is not None
    pages = {
        "/": "Ver los torneos",
        "/events/": "Próximos y en curso",
        f"/events/{played.slug}/rounds/1/": "Buscar mi mesa",
        f"/events/{played.slug}/teams/{team.pk}/": "Puntos de torneo",
        "/players/": "Buscar un jugador",
        "/leagues/": "Aún no hay ligas públicas.",
        "/accounts/login/": "Acceso para directores",
    }
    for url, words in pages.items():
        response = client.get(url, **SPANISH)
        assert response.status_code == 200, url
        assert words in response.content.decode(), url


def test_the_phone_page_and_its_script_in_spanish(client: Client) -> None:
    setup = make_setup(rules="five-up", target=25)
    response = client.get(setup.path(), **SPANISH)
    html = response.content.decode()
    assert "Mesa 1 · Ronda 1" in html and "Aún sin reloj" in html
    assert "N: Team A One" in html and "O: Team B Two" in html  # West is Oeste
    assert "(puntos: 5 pintas = 1)" in html
    # The script's strings come from the JavaScript catalog, loaded before the script.
    assert html.index('src="/t/i18n.js"') < html.index("spinner/phone.js")
    catalog = client.get("/t/i18n.js", **SPANISH)
    assert catalog.status_code == 200
    text = catalog.content.decode()
    assert json.dumps("Terminar la mano")[1:-1] in text or "Terminar la mano" in text
    assert "Terminar la mano" not in client.get("/t/i18n.js").content.decode()

    status = client.get(setup.path() + "status", **SPANISH)
    assert status.status_code == 200


def test_the_phone_pages_switch_posts_with_the_table_token(client: Client) -> None:
    """A table page sends no referrer, so its forms carry "Origin: null" (refused by the CSRF
    check): its switch posts to its own link, the token standing in for the CSRF token."""
    setup = make_setup(rules="five-up", target=25)
    page = setup.path()
    html = client.get(page).content.decode()
    assert f'action="{page}language"' in html
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(page + "language", {"language": "es"}, HTTP_ORIGIN="null")
    assert response.status_code == 302 and response["Location"] == page
    cookie = response.cookies[COOKIE]
    assert cookie.value == "es" and int(cookie["max-age"]) >= 300 * 24 * 3600
    assert response["Referrer-Policy"] == "no-referrer"
    assert "Mesa 1 · Ronda 1" in strict.get(page).content.decode()

    unknown = strict.post(page + "language", {"language": "xx"})
    assert unknown.status_code == 302 and COOKIE not in unknown.cookies
    forged = strict.post("/t/not-a-token/language", {"language": "es"})
    assert forged.status_code >= 400 and COOKIE not in forged.cookies
    assert strict.get(page + "language").status_code == 405
