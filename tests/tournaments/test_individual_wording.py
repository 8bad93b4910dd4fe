"""An individual event speaks of players, not teams (new-user review after issue 13): the
entries search, "find my table", and the table help page's table of three or four (a QR code
per player, each player confirming from their own link), in English and Spanish; a
partnership event keeps its teams."""

from __future__ import annotations

import pytest
from django.test import Client

from tests import factories
from tests.tournaments.phone_factory import make_table_setup

pytestmark = pytest.mark.django_db


def test_the_entries_search_of_an_individual_event_finds_a_player() -> None:
    setup = make_table_setup("wordsingle")
    client = Client()
    client.force_login(setup.director)
    html = client.get(f"/director/events/{setup.event.slug}/entries/").content.decode()
    assert '<label for="entry-search">Find a player</label>' in html
    assert "team" not in html[html.index('role="search"') : html.index("</form>")]


def test_a_partnership_events_entries_search_keeps_its_teams() -> None:
    event = factories.make_event("wordpairs")
    director = factories.make_director(event, "dir-wordpairs")
    client = Client()
    client.force_login(director)
    html = client.get(f"/director/events/{event.slug}/entries/").content.decode()
    assert '<label for="entry-search">Find a team or player</label>' in html
    assert 'placeholder="Name or team"' in html


def test_find_my_table_asks_an_individual_event_for_a_name_only() -> None:
    setup = make_table_setup("wordfind")
    page = Client().get(f"/events/{setup.event.slug}/me/").content.decode()
    assert "Search for your name, then follow it" in page and "your team" not in page
    event = factories.make_event("wordfindpairs")
    pairs = Client().get(f"/events/{event.slug}/me/").content.decode()
    assert "Search for your name or your team's" in pairs


@pytest.mark.parametrize(
    ("language", "per_player", "confirms"),
    [
        ("en", "the card has one QR code per player", "confirms it from their own link"),
        ("es", "la tarjeta tiene un código QR por jugador", "la confirma desde su propio enlace"),
    ],
)
def test_the_table_help_page_explains_a_table_of_many(
    language: str, per_player: str, confirms: str
) -> None:
    client = Client(headers={"accept-language": language})
    html = " ".join(client.get("/help/table/").content.decode().split())
    assert per_player in html and confirms in html
    assert ("one per team" if language == "en" else "uno por equipo") in html  # teams still told
