"""The import reads the headers people write (any case, "Player 1", "Jugador 1", "Club 1"),
Excel's BOM, semicolons and tabs, and says which header it read as what, or that it found none."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import Event
from tournaments.services import entry_import
from tournaments.services import events as event_services
from tournaments.services.entries import PlayerSpec

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)


@pytest.fixture
def director() -> User:
    return User.objects.create_user("dora")


@pytest.fixture
def event(director: User) -> Event:
    return event_services.create_event(
        actor=director, name="Winter Open", start_date=DAY, end_date=DAY
    )


def test_a_spreadsheet_header_with_semicolons_and_a_bom_is_read(event: Event) -> None:
    text = (
        "\ufeffPlayer 1;Club 1;Rating 1;Player 2;Club 2;Rating 2;Team;Seed\r\n"
        "Ann Lee;Brixton;1510;Bob Ray;Brixton;1480;The Spinners;1\r\n"
        "Cy Osei;Leeds;;Di Park;Leeds;;;\r\n"
    )
    preview = entry_import.preview_import(event=event, text=text)
    assert preview.ok, [p.message for p in preview.errors]
    assert preview.header_line == 1 and preview.separator == ";"
    assert [column for _, column in preview.header] == list(entry_import.PARTNERSHIP_COLUMNS)
    assert preview.rows[0].players == [
        PlayerSpec("Ann Lee", "Brixton", 1510),
        PlayerSpec("Bob Ray", "Brixton", 1480),
    ]
    assert (preview.rows[0].team_name, preview.rows[0].seed) == ("The Spinners", 1)


def test_other_spellings_any_case_tabs_and_another_order(event: Event) -> None:
    text = (
        "NOMBRE 2\tjugador 1\tclub_2\t Name-1 club\tELO 1\tcabeza de serie\n"
        "Bob\tAnn\tB\tA\t1500\t2\n"
    )
    preview = entry_import.preview_import(event=event, text=text)
    # "Name-1 club" names no column: the header is refused, and says what it read.
    assert preview.header_found and not preview.ok
    assert dict(preview.header) == {
        "NOMBRE 2": "player_b",
        "jugador 1": "player_a",
        "club_2": "club_b",
        "Name-1 club": None,
        "ELO 1": "rating_a",
        "cabeza de serie": "seed",
    }
    assert "unknown columns Name-1 club" in preview.errors[0].message
    fixed = text.replace(" Name-1 club", "Club 1")
    preview = entry_import.preview_import(event=event, text=fixed)
    assert preview.ok and preview.separator == "\t"
    assert preview.rows[0].players == [PlayerSpec("Ann", "A", 1500), PlayerSpec("Bob", "B", None)]
    assert preview.rows[0].seed == 2


def test_no_header_is_said_and_the_first_line_is_data(event: Event) -> None:
    preview = entry_import.preview_import(event=event, text="Ann;A;1500;Bob;B;;;\n")
    assert preview.ok and not preview.header_found
    assert [r.line for r in preview.rows] == [1]


def test_a_column_named_twice_is_refused(event: Event) -> None:
    preview = entry_import.preview_import(event=event, text="Player 1,Name 1,Player 2\nA,B,C\n")
    assert "named twice: player_a" in preview.errors[0].message


def test_the_import_page_says_what_it_read_before_saving(director: User, event: Event) -> None:
    client = Client()
    client.force_login(director)
    url = reverse("director:import", kwargs={"slug": event.slug})
    text = "Jugador 1;Club 1;Jugador 2;Club 2\nAnn;A;Bob;B\n"
    html = client.post(url, {"text": text, "action": "preview"}).content.decode()
    assert 'data-header-found="1"' in html
    assert "<q>Jugador 1</q> &rarr; <code>player_a</code>" in html
    assert "<q>Club 2</q> &rarr; <code>club_b</code>" in html
    assert "Separator: semicolon." in html
    html = client.post(url, {"text": "Ann,A,,Bob", "action": "preview"}).content.decode()
    assert 'data-header-found="0"' in html and "No header found" in html
    assert event.entries.count() == 0


def test_the_reading_is_said_in_spanish_too(director: User, event: Event) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(director)
    url = reverse("director:import", kwargs={"slug": event.slug})
    html = client.post(url, {"text": "Jugador 1\tJugador 2\nAnn\tBob\n", "action": "preview"})
    text = html.content.decode()
    assert "Cabecera encontrada en la línea 1" in text and "Separador: tabulador." in text
