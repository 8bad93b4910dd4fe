"""An event whose results are private (``public_results`` off) leaks no match outcome through
its standings: no per-round progression (team page chart, API, CSV), no tiebreak-round match
points (issue 15). Its directors still see everything."""

from __future__ import annotations

import csv
import io
import json
import uuid
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.live_support import (
    confirm,
    make_director,
    make_entries,
    make_event,
    make_round,
)
from tournaments.selectors.result_privacy import without_outcomes_document

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"privacy-{uuid.uuid4()}",
        }
    }


@pytest.fixture
def private(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Two rounds played, results private, standings public."""
    event = make_event(f"priv-{uuid.uuid4().hex[:6]}", public_results=False)
    teams = make_entries(event, 4)
    director = make_director(event)
    first = make_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3])])
    second = make_round(event, 2, [(teams[0], teams[2]), (teams[1], teams[3])])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(first[0], 100, 50, director)
        confirm(first[1], 100, 30, director)
        confirm(second[0], 40, 100, director)
        confirm(second[1], 100, 90, director)
    return {"event": event, "teams": teams, "director": director}


def test_the_team_page_has_no_progression_chart(private: dict[str, Any]) -> None:
    event, team = private["event"], private["teams"][0]
    url = f"/events/{event.slug}/teams/{team.pk}/"
    public = Client().get(url)
    assert public.status_code == 200
    body = public.content.decode()
    assert "<polyline" not in body and "Round 1:" not in body
    assert 'class="result' not in body  # no match outcome in the history either
    director = Client()
    director.force_login(private["director"])
    assert "<polyline" in director.get(url).content.decode()  # directors see it


def test_the_standings_api_carries_no_progression(private: dict[str, Any]) -> None:
    event = private["event"]
    body = Client().get(f"/api/events/{event.slug}/standings/").json()
    text = json.dumps(body)
    assert body["snapshot"]["standings"]["rows"]  # the standings themselves are public
    assert '"progress"' not in text
    director = Client()
    director.force_login(private["director"])
    assert '"progress"' in json.dumps(director.get(f"/api/events/{event.slug}/standings/").json())


def test_the_csv_and_page_carry_no_tiebreak_round_points(private: dict[str, Any]) -> None:
    event = private["event"]
    rows = list(
        csv.DictReader(
            io.StringIO(Client().get(f"/events/{event.slug}/standings.csv").content.decode())
        )
    )
    assert rows and all(row["tiebreak_rounds"] == "" for row in rows)
    assert Client().get(f"/events/{event.slug}/standings/").status_code == 200


def test_outcomes_are_removed_from_a_snapshot_document() -> None:
    document = {
        "standings": {
            "rows": [
                {"entry_id": 1, "settlement": [2, 0], "settlement_match_ids": [9, 10]},
                {"entry_id": 2, "settlement": None},
            ]
        },
        "extra": {"1": {"progress": [[1, "2"], [2, "2"]], "spread": "10"}},
    }
    clean = without_outcomes_document(document)
    assert clean["standings"]["rows"][0]["settlement"] is None
    assert clean["standings"]["rows"][0]["settlement_match_ids"] == []
    assert clean["extra"]["1"] == {"spread": "10"}
    assert document["extra"]["1"]["progress"]  # the original is untouched
