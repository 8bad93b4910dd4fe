"""The players API: search with pages, a player's record with the page's visibility, and the
director's edit of a player (issue 19)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests import factories
from tests.tournaments.api_support import assert_error, key, private_cache, user_client
from tests.tournaments.players_support import entry_of, make_player, two_events
from tournaments.models import AuditEntry, Event
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


def _patch(client: APIClient, player_id: int, data: Any, **headers: str) -> Any:
    extra = {"HTTP_IDEMPOTENCY_KEY": key()}
    extra.update({"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()})
    return client.patch(f"/api/players/{player_id}/", data, format="json", **extra)


def test_a_director_edits_a_player_as_the_player_page_does() -> None:
    w = two_events()
    client = user_client(w.boss)
    read = client.get(f"/api/players/{w.ana.pk}/")
    assert read.status_code == 200 and read["ETag"]
    assert "ETag" not in APIClient().get(f"/api/players/{w.ana.pk}/")  # only to her managers
    edited = _patch(
        client, w.ana.pk, {"club": "Sevilla DC", "phone": "0700 2"}, If_Match=read["ETag"]
    )
    assert edited.status_code == 200, edited.content
    body = edited.json()
    assert body == {
        "id": w.ana.pk,
        "name": "Ana Ramírez",
        "club": "Sevilla DC",
        "email": "ana@example.org",
        "phone": "0700 2",
        "version": body["version"],
    }
    assert edited["ETag"] == f'"{body["version"]}"' != read["ETag"]
    audit = AuditEntry.objects.get(action="player.edit")
    assert audit.actor == w.boss and audit.event is None
    assert audit.before["club"] == "Brixton Fives" and audit.after["club"] == "Sevilla DC"
    stale = _patch(client, w.ana.pk, {"club": "Elsewhere"}, If_Match=read["ETag"])
    assert_error(stale, 412, "stale_version")
    w.ana.refresh_from_db()
    assert w.ana.club == "Sevilla DC"


def test_player_edits_refused_with_the_pages_codes() -> None:
    w = two_events()
    client = user_client(w.boss)
    assert_error(_patch(client, w.ana.pk, {"email": "not an address"}), 400, "invalid_email")
    assert_error(_patch(client, w.ana.pk, {"name": ""}), 400, "invalid")
    assert_error(_patch(client, w.ana.pk, {"nickname": "A"}), 400, "invalid")
    stranger = user_client(factories.make_director(factories.make_event("x"), "stranger"))
    assert_error(_patch(stranger, w.ana.pk, {"club": "X"}), 404, "player_not_found")
    assert_error(_patch(APIClient(), w.ana.pk, {"club": "X"}), 401, "not_authenticated")
    twin = make_player("Ana R", owner=w.boss)
    entry_of(w.spring, "Twin", twin, make_player("Other"))
    players.merge_players(actor=w.boss, loser_id=twin.pk, survivor_id=w.ed.pk)
    # A merged row stays its owner's: editing it says where it went.
    assert_error(_patch(client, twin.pk, {"club": "X"}), 409, "player_merged")
    staff = user_client(User.objects.create_user(username="staff", is_staff=True))
    assert_error(_patch(staff, twin.pk, {"club": "X"}), 403, "read_only_staff")
    assert not AuditEntry.objects.filter(action="player.edit").exists()


def test_a_player_edit_replayed_with_its_key_changes_once() -> None:
    w = two_events()
    client = user_client(w.boss)
    first = _patch(client, w.ed.pk, {"club": "Leeds"}, Idempotency_Key="ed-1")
    again = _patch(client, w.ed.pk, {"club": "Leeds"}, Idempotency_Key="ed-1")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert AuditEntry.objects.filter(action="player.edit").count() == 1
