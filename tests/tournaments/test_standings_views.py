"""The public standings pages: the snapshot only, ETags and 304s, "updating", CSV, team and match
pages, the director's page."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.live_support import (
    close_rounds,
    confirm,
    latest_generation,
    make_director,
    make_entries,
    make_event,
    make_round,
)
from tournaments.models import Event, StandingsState

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    """A cache of this test's own (never the machine's Redis, shared with other runs)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"live-{uuid.uuid4()}",
        }
    }


@pytest.fixture
def played(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Five teams, round 1 played (T1 beat T2 100-50, T4 beat T3 100-30, T5 a bye)."""
    event = make_event(tiebreaks=["buchholz", "spread", "opponents_win_rate"])
    teams = make_entries(event, 5)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3]), (teams[4], None)])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[0], 100, 50, director)
        confirm(matches[1], 30, 100, director)
    return {"event": event, "teams": teams, "director": director, "matches": matches}


def url(event: Event, tail: str) -> str:
    return f"/events/{event.slug}/{tail}"


def test_the_standings_page_reads_the_snapshot(
    client: Client, played: Any, django_assert_num_queries: Any
) -> None:
    event = played["event"]
    # The event with its state; the latest generation; the snapshot (rendered once, then cached).
    with django_assert_num_queries(3):
        response = client.get(url(event, "standings/"))
    with django_assert_num_queries(2):
        again = client.get(url(event, "standings/"))

    def table(page: Any) -> str:
        body = page.content.decode()
        return body[body.index('<section id="standings-live"') : body.index("</section>")]

    assert table(again) == table(response)  # (the pages differ only by their CSRF token)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.index("Team 5") < body.index("Team 4") < body.index("Team 1")
    assert "Up to date" in body
    assert 'data-hx-trigger="every 5s"' in body
    assert f"/events/{event.slug}/teams/{played['teams'][0].pk}/" in body
    generation = latest_generation(event)
    assert response["ETag"].startswith(f'"standings-{event.pk}-{generation}-c')


def test_an_unchanged_snapshot_answers_304(
    client: Client, played: Any, django_assert_num_queries: Any
) -> None:
    event = played["event"]
    for tail in ("standings/", "standings/live/", "standings.csv"):
        first = client.get(url(event, tail))
        assert first.status_code == 200
        with django_assert_num_queries(2):  # no snapshot bytes are read for a 304
            again = client.get(url(event, tail), HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304
        assert again["ETag"] == first["ETag"]
        assert again.content == b""


def test_a_new_result_changes_the_etag(
    client: Client, played: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = played["event"]
    first = client.get(url(event, "standings/live/"))
    generation = latest_generation(event)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(played["matches"][0], 50, 100, played["director"])
    again = client.get(url(event, "standings/live/"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert latest_generation(event) == generation + 1
    assert f"-{generation + 1}-c" in again["ETag"]


def test_pages_say_updating_while_standings_lag_the_results(client: Client, played: Any) -> None:
    event = played["event"]
    first = client.get(url(event, "standings/live/"))
    StandingsState.objects.filter(pk=event.pk).update(dirty=True)
    response = client.get(url(event, "standings/live/"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert response.status_code == 200  # the state changed, so the tag did
    assert "Updating" in response.content.decode()
    assert "Updating" in client.get(url(event, "standings/")).content.decode()
    team = played["teams"][0]
    assert "Updating" in client.get(url(event, f"teams/{team.pk}/")).content.decode()


def test_the_csv_has_every_tiebreak_value(client: Client, played: Any) -> None:
    event = played["event"]
    response = client.get(url(event, "standings.csv"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["name"] for r in rows] == ["Team 5", "Team 4", "Team 1", "Team 2", "Team 3"]
    team1 = rows[2]
    assert (team1["rank"], team1["match_points"], team1["buchholz"]) == ("3", "2", "0")
    # Game points are in displayed points, as on every page (five-up displays raw / 5); the raw
    # pips only as extra columns at the end, which say so.
    assert (team1["spread"], team1["points_for"], team1["points_against"]) == ("10", "20", "10")
    assert (team1["spread_raw"], team1["opponents_win_rate"]) == ("50", "0")
    assert (team1["points_for_raw"], team1["points_against_raw"]) == ("100", "50")
    header = response.content.decode().splitlines()[0].split(",")
    assert header[-3:] == ["points_for_raw", "points_against_raw", "spread_raw"]
    assert rows[3]["opponents_win_rate"] == "1"
    assert rows[0]["byes"] == "1"


def test_no_standings_yet(client: Client) -> None:
    event = make_event("empty")
    response = client.get(url(event, "standings/"))
    assert response.status_code == 200
    assert "No standings yet" in response.content.decode()


def test_a_draft_event_or_hidden_standings_are_not_public(client: Client, played: Any) -> None:
    event = played["event"]
    Event.objects.filter(pk=event.pk).update(public_standings=False)
    assert client.get(url(event, "standings/")).status_code == 404
    assert client.get(url(event, "standings.csv")).status_code == 404
    client.force_login(played["director"])
    assert client.get(url(event, "standings/")).status_code == 200
    assert client.get("/events/nope/standings/").status_code == 404


def test_the_projector_view_is_large_type(client: Client, played: Any) -> None:
    body = client.get(url(played["event"], "standings/?projector=1")).content.decode()
    assert 'class="live projector"' in body
    assert "standings/live/?projector=1" in body


def test_a_team_page_has_its_history_and_a_chart(
    client: Client, played: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event, teams = played["event"], played["teams"]
    matches = make_round(event, 2, [(teams[0], teams[3]), (teams[4], teams[1]), (teams[2], None)])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[0], 100, 90, played["director"])
    response = client.get(url(event, f"teams/{teams[0].pk}/"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "<svg" in body and "<polyline" in body
    assert body.count('class="dot"') == 2  # after round 1 (2 points) and round 2 (4 points)
    assert "Round 1: 2" in body and "Round 2: 4" in body
    # Five-up: displayed points (raw / 5), 100-50 raw is 20-10.
    assert "won 20–10" in body and "won 20–18" in body
    assert "points (5 pips = 1)" in body
    assert f"/events/{event.slug}/matches/{matches[0].pk}/" in body
    assert client.get(url(event, "teams/999999/")).status_code == 404


def test_a_match_page_shows_its_result(client: Client, played: Any) -> None:
    event, match = played["event"], played["matches"][0]
    response = client.get(url(event, f"matches/{match.pk}/"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "20 – 10" in body and "Won by <strong>Team 1</strong>" in body  # 100-50 raw, five-up
    assert "points (5 pips = 1)" in body
    assert client.get(url(event, "matches/999999/")).status_code == 404


def test_the_director_page_is_for_directors(client: Client, played: Any) -> None:
    event = played["event"]
    page = f"/director/events/{event.slug}/standings/"
    assert client.get(page).status_code == 302  # log in first
    client.force_login(make_director(make_event("other"), "someone-else"))
    assert client.get(page).status_code == 404
    client.force_login(played["director"])
    response = client.get(page)
    assert response.status_code == 200
    assert "Main rounds: 0 closed of 5" in response.content.decode()


def test_the_director_proposes_and_approves_a_tiebreak_round(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    event = make_event("tied", swiss_rounds=1, tiebreaks=["buchholz", "spread"])
    teams = make_entries(event, 4)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[2]), (teams[1], teams[3])])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[0], 100, 50, director)
        confirm(matches[1], 100, 50, director)
    close_rounds(event)
    client.force_login(director)
    page = f"/director/events/{event.slug}/standings/"
    body = client.get(page).content.decode()
    assert "Propose a tiebreak round" in body
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page, {"action": "propose"})
    assert response.status_code == 302
    body = client.get(page).content.decode()
    assert "Approve and publish" in body
    assert "Team 1 v Team 2" in body or "Team 2 v Team 1" in body
    round_id = event.rounds.get(kind="tiebreak").pk
    client.post(page, {"action": "approve", "round_id": round_id})
    assert event.rounds.get(pk=round_id).status == "published"


def test_a_match_page_draws_each_hand_from_the_engine_geometry(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    from scoring.geometry import picture, position_after
    from tests.tournaments.results_support import sheet
    from tournaments.services import decisions

    event = make_event("sheets", rules="all-fives", target=100)
    teams = make_entries(event, 2)
    director = make_director(event)
    (match,) = make_round(event, 1, [(teams[0], teams[1])])
    played = sheet("moves")
    with django_capture_on_commit_callbacks(execute=True):
        decisions.override_result(
            match=match, sheet=played, reason="from the sheet", actor=director
        )
    body = client.get(url(event, f"matches/{match.pk}/")).content.decode()
    assert "verified scoresheet" in body
    hands = played["hands"]
    assert body.count('<svg class="table-svg"') == len(hands)
    for index in range(len(hands)):
        tiles = picture(position_after(played, index, None)).tiles
        assert f"after hand {index + 1}: {len(tiles)} tiles" in body
    # Seats by player name and compass point, never "seat 0" (issue 14).
    from tournaments import game
    from tournaments.presenters.table import seat_records

    seats = {s.number: s.player for s in seat_records(match)}
    leader = hands[0]["leader"]
    point = game.compass_point(leader, game.seats_per_table(event.entry_kind))
    assert f"Led by {seats[leader]} ({point})" in body
    assert "seat 0" not in body and "seat 1" not in body and "side 0" not in body
    # The team page links this match, and the standings reflect it.
    team = client.get(url(event, f"teams/{teams[0].pk}/")).content.decode()
    assert f"/events/{event.slug}/matches/{match.pk}/" in team


def test_the_standings_api_reads_the_snapshot_with_etags(
    client: Client, played: Any, django_assert_num_queries: Any
) -> None:
    event = played["event"]
    api = f"/api/events/{event.slug}/standings/"
    with django_assert_num_queries(3):  # the event with its state, the generation, the snapshot
        first = client.get(api)
    assert first.status_code == 200
    body = first.json()
    assert body["generation"] == latest_generation(event)
    assert body["updating"] is False
    rows = body["snapshot"]["standings"]["rows"]
    names = [r["name"] for r in rows]
    assert names.index("Team 5") < names.index("Team 4") < names.index("Team 1")
    with django_assert_num_queries(2):  # no snapshot bytes are read for a 304
        again = client.get(api, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


def test_the_standings_api_follows_the_events_public_pages(client: Client, played: Any) -> None:
    event = played["event"]
    api = f"/api/events/{event.slug}/standings/"
    Event.objects.filter(pk=event.pk).update(public_standings=False)
    hidden = client.get(api)
    assert hidden.status_code == 404 and hidden.json()["code"] == "not_found"
    client.force_login(played["director"])
    assert client.get(api).status_code == 200
    assert client.get("/api/events/nope/standings/").status_code == 404
