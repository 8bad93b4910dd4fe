"""The event export: ``manage.py export_event`` and ``/api/events/<slug>/export/``."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.tournaments.rounds_factory import (
    make_director,
    make_entry,
    make_event,
    make_field,
    settle_round,
)
from tournaments.models import Event
from tournaments.selectors import export
from tournaments.services import round_generation, round_status
from tournaments.services.api_tokens import create_api_token

pytestmark = pytest.mark.django_db


def event_with_rounds() -> tuple[Event, User]:
    event = make_event(slug="cup", tiebreaks=["buchholz", "spread"])
    boss = make_director(event)
    make_field(event, 5)
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle_round(first, boss)
    round_status.close_round(round=first, actor=boss)
    round_generation.generate_round(event=event, actor=boss)
    return event, boss


def test_the_command_prints_the_documented_document() -> None:
    event, _ = event_with_rounds()
    out = io.StringIO()
    call_command("export_event", event.slug, stdout=out)
    doc = json.loads(out.getvalue())
    assert doc["format"] == "spinner-event-export/1"
    assert set(doc) == {
        "format",
        "exported_at",
        "event",
        "players",
        "entries",
        "tables",
        "avoidances",
        "rounds",
        "standings",
        "placings",
        "bracket",
    }
    assert doc["bracket"] is None  # no play-off seeded
    assert doc["event"]["slug"] == "cup" and doc["event"]["salt"] == event.salt
    assert doc["event"]["settings"]["tiebreaks"] == ["buchholz", "spread"]
    assert doc["event"]["settings"]["points"]["bye"] == event.points_bye
    assert len(doc["entries"]) == 5 and all(len(e["players"]) == 2 for e in doc["entries"])
    player_ids = {p["id"] for p in doc["players"]}
    assert all(set(e["players"]) <= player_ids for e in doc["entries"])
    # No contact details, anywhere.
    assert "@example.org" not in out.getvalue() and "email" not in out.getvalue()
    assert [r["number"] for r in doc["rounds"]] == [1, 2]
    assert [r["status"] for r in doc["rounds"]] == ["closed", "draft"]
    first = doc["rounds"][0]
    assert first["explanation"]["draws"] and first["explanation"]["active_entries"]
    tables = [m for m in first["matches"] if not m["bye"]]
    byes = [m for m in first["matches"] if m["bye"]]
    assert [m["table"] for m in tables] == [1, 2] and len(byes) == 1
    assert all(len(m["entries"]) == 2 and m["why"]["reason"] for m in tables)
    assert byes[0]["table"] is None and len(byes[0]["entries"]) == 1
    # The closed round's played matches carry their confirmed result; byes have none.
    assert all(m["result"] is not None for m in tables)
    assert all(m["result"] is None for m in byes)
    assert all(305 in m["result"]["scores"] for m in tables)
    assert all(m["result"] is None for m in doc["rounds"][1]["matches"])


def test_the_command_refuses_an_unknown_event() -> None:
    with pytest.raises(SystemExit) as exit_:
        call_command("export_event", "nope", stdout=io.StringIO(), stderr=io.StringIO())
    assert exit_.value.code == 2


def test_the_export_reads_in_fixed_queries(django_assert_num_queries: Any) -> None:
    event, _ = event_with_rounds()
    with django_assert_num_queries(8):
        export.export_event(event)
    make_field(event, 4)
    with django_assert_num_queries(8):
        export.export_event(event)


def test_the_api_serves_directors_only() -> None:
    event, boss = event_with_rounds()
    url = f"/api/events/{event.slug}/export/"
    client = APIClient()
    assert client.get(url).status_code in (401, 403)
    stranger = User.objects.create_user("other", password="pw-for-tests-123")
    make_director(make_event(slug="elsewhere"), "elsewhere-boss")
    client.force_authenticate(stranger)
    assert client.get(url).status_code == 404
    client.force_authenticate(None)
    _, key = create_api_token(user=boss)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.get(url)
    assert response.status_code == 200
    assert response.json()["format"] == "spinner-event-export/1"
    assert response.json()["event"]["slug"] == event.slug
    assert client.get("/api/events/nope/export/").status_code == 404
    download = client.get(url + "?download=1")
    assert download["Content-Disposition"] == 'attachment; filename="cup-export.json"'


def test_staff_and_session_directors_can_export() -> None:
    event = make_event(slug="small")
    make_entry(event)
    staff = User.objects.create_user("staff", password="pw-for-tests-123", is_staff=True)
    client = APIClient()
    client.force_login(staff)
    response = client.get(f"/api/events/{event.slug}/export/")
    assert response.status_code == 200 and response.json()["rounds"] == []
