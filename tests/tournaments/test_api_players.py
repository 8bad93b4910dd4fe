"""The players API: search with pages, a player's record with the page's visibility."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.api_support import private_cache
from tests.tournaments.players_support import entry_of, make_player, two_events
from tournaments.models import Event
from tournaments.services import players

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Any:
    with private_cache(settings):
        yield


def test_the_list_searches_accent_free_and_pages() -> None:
    w = two_events()
    for n in range(3):
        entry_of(w.spring, f"T{n}", make_player(f"Ramiro {n}"), make_player(f"X {n}"))
    body = APIClient().get("/api/players/", {"q": "RAMÍR", "page_size": 2}).json()
    assert body["count"] == 4 and body["pages"] == 2 and body["page"] == 1
    assert [p["name"] for p in body["results"]] == ["Ana Ramírez", "Ramiro 0"]
    assert set(body["results"][0]) == {"id", "name", "club", "rating"}  # no contact details
    second = APIClient().get("/api/players/", {"q": "ramir", "page_size": 2, "page": 2}).json()
    assert [p["name"] for p in second["results"]] == ["Ramiro 1", "Ramiro 2"]
    too_far = APIClient().get("/api/players/", {"q": "ramir", "page": 9})
    assert too_far.status_code == 404 and too_far.json()["code"] == "not_found"
    bad = APIClient().get("/api/players/", {"q": "ramir", "page_size": 0})
    assert bad.status_code == 400


def test_the_detail_has_events_matches_in_displayed_points_and_the_rating() -> None:
    w = two_events()
    w.ana.rating_mu, w.ana.rating_sigma, w.ana.rated_games = 25.0, 25 / 3, 0
    w.ana.save()
    body = APIClient().get(f"/api/players/{w.ana.pk}/").json()
    assert body["rating"] == {"rating": 1500, "plus_minus": 667, "games": 0}
    assert "email" not in body and "phone" not in body
    summer, spring = body["events"]
    assert (spring["event"], spring["place"], spring["final"]) == ("spring", 1, True)
    assert spring["partners"] == [{"id": w.bob.pk, "name": "Bob Ray"}]
    (match,) = spring["matches"]
    assert (match["outcome"], match["own_points"], match["other_points"]) == ("won", "61", "40")
    assert summer["partners"] == [{"id": w.ed.pk, "name": "Ed Obi"}]
    assert summer["matches"][0]["forfeit"] == "forfeit" and summer["place"] == 1


def test_the_detail_follows_the_page_rules() -> None:
    w = two_events()
    Event.objects.filter(pk=w.spring.pk).update(public_results=False)
    Event.objects.filter(pk=w.summer.pk).update(status=Event.Status.DRAFT)
    body = APIClient().get(f"/api/players/{w.ana.pk}/").json()
    (spring,) = body["events"]
    assert spring["results_public"] is False and spring["matches"][0]["own_points"] == ""
    assert APIClient().get(f"/api/players/{w.ed.pk}/").status_code == 404
    twin = make_player("Ana R")
    players.merge_players(actor=w.boss, loser_id=twin.pk, survivor_id=w.ana.pk)
    merged = APIClient().get(f"/api/players/{twin.pk}/").json()
    assert merged["id"] == w.ana.pk and merged["merged_into"] == w.ana.pk
