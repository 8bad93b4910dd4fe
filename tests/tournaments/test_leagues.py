"""Leagues: the services (audited, directors of both), the season table read from the events'
placings (merged players as the survivor), the public pages, the CSV and the API."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.league_support import (
    finished_event,
    make_league,
    organiser,
    people,
)
from tournaments.errors import Conflict, NotAllowed, ValidationFailed
from tournaments.models import AuditEntry, Event, League
from tournaments.selectors import leagues as selectors
from tournaments.services import leagues as services

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> dict[str, Any]:
    """Three finished events of one league: Ann plays with Bo, then with Cy; Ed & Flo share
    3rd with Cy & Di in the first event."""
    p = people("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    league = make_league("club", best_of=2, rank_partnerships=True)
    e1 = finished_event(
        "jan",
        [(p["Ann"], p["Bo"]), (p["Cy"], p["Di"]), (p["Ed"], p["Flo"])],
        places=[1, 2, 2],
        league=league,
        day=1,
    )
    e2 = finished_event("feb", [(p["Cy"], p["Di"]), (p["Ann"], p["Bo"])], league=league, day=8)
    e3 = finished_event("mar", [(p["Ann"], p["Cy"]), (p["Bo"], p["Di"])], league=league, day=15)
    return {"league": league, "p": p, "events": [e1, e2, e3]}


# --- The season table from the placings -------------------------------------------------------


def test_the_season_table_counts_best_n_and_shares_places(season: dict[str, Any]) -> None:
    table = selectors.league_season(season["league"]).table
    totals = {r.name: (r.rank, r.total, r.counted, r.played) for r in table.players}
    # Ann: 25 (jan), 18 (feb), 25 (mar) -> best 2 = 50. Cy: 16.5 (shared 2nd), 25, 25 -> 50.
    assert totals["Ann"] == (1, 50, 2, 3)
    assert totals["Cy"] == (1, 50, 2, 3)
    # Bo: 25, 18, 18 -> 43; Di: 16.5, 25, 18 -> 43; Ed, Flo: (18 + 15) / 2 = 16.5.
    assert totals["Bo"][:2] == totals["Di"][:2] == (3, 43)
    assert [r.name for r in table.players][:4] == ["Ann", "Cy", "Bo", "Di"]
    pairs = {r.name: r.total for r in table.partnerships}
    assert pairs["Ann & Bo"] == 43 and pairs["Ann & Cy"] == 25


def test_a_merged_player_counts_as_the_survivor(season: dict[str, Any]) -> None:
    p = season["p"]
    # "Flo" turns out to be a second row of Ann, merged into her.
    p["Flo"].merged_into = p["Ann"]
    p["Flo"].save(update_fields=["merged_into"])
    table = selectors.league_season(season["league"]).table
    names = [r.name for r in table.players]
    assert "Flo" not in names
    ann = next(r for r in table.players if r.name == "Ann")
    # jan: Ann won (25) and "Flo" shared 2nd: the better place stays; best 2 of 3 unchanged.
    assert (ann.total, ann.played) == (50, 3)
    assert any(r.name == "Ann & Ed" for r in table.partnerships)


def test_unfinished_and_draft_events_give_no_points(season: dict[str, Any]) -> None:
    league = season["league"]
    p = season["p"]
    running = finished_event("apr", [(p["Ed"], p["Flo"])], league=league, day=22)
    Event.objects.filter(pk=running.pk).update(status=Event.Status.RUNNING)
    finished_event("may", [(p["Ed"], p["Flo"])], league=league, day=29, status=Event.Status.DRAFT)
    result = selectors.league_season(league)
    assert [e.event.slug for e in result.events] == ["jan", "feb", "mar", "apr"]
    assert [e.event.slug for e in result.finished_events] == ["jan", "feb", "mar"]
    ed = next(r for r in result.table.players if r.name == "Ed")
    assert ed.played == 1


def test_the_season_reads_in_a_fixed_number_of_queries(
    season: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(4):
        selectors.league_season(season["league"])


# --- Services ---------------------------------------------------------------------------------


def test_create_update_and_attach_are_audited() -> None:
    boss = organiser()
    league = services.create_league(actor=boss, name=" Club League ", season="2026", points=[3, 1])
    assert (league.slug, league.name) == ("club-league-2026", "Club League")
    services.update_league(actor=boss, league=league, best_of=2, rank_partnerships=True)
    event = finished_event("jan", [], league=None)
    event.directors.add(boss)
    services.add_event(actor=boss, league=league, event=event)
    services.add_event(actor=boss, league=league, event=event)  # again: nothing changes
    assert Event.objects.get(pk=event.pk).league_id == league.pk
    services.remove_event(actor=boss, league=league, event=event)
    assert Event.objects.get(pk=event.pk).league_id is None
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["league.create", "league.update", "league.add_event", "league.remove_event"]
    update = AuditEntry.objects.get(action="league.update")
    assert update.before == {"best_of": None, "rank_partnerships": False}


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"name": " "}, "name_required"),
        ({"points": []}, "invalid_league_points"),
        ({"points": [25, -1]}, "invalid_league_points"),
        ({"points": ["25"]}, "invalid_league_points"),
        ({"best_of": 0}, "invalid_best_of"),
        ({"slug": "Not A Slug"}, "invalid_slug"),
    ],
)
def test_bad_league_settings_say_what_to_fix(settings: dict[str, Any], code: str) -> None:
    values = {"name": "League", "points": [3, 1], **settings}
    with pytest.raises(ValidationFailed) as caught:
        services.create_league(actor=organiser(), **values)
    assert caught.value.code == code
    assert caught.value.details["field"] in ("name", "points", "best_of", "slug")


def test_refusals_name_their_code() -> None:
    boss = organiser()
    league = services.create_league(actor=boss, name="A", slug="a", points=[1])
    with pytest.raises(Conflict) as taken:
        services.create_league(actor=boss, name="B", slug="a", points=[1])
    assert taken.value.code == "slug_taken"
    stranger = organiser("stranger")
    with pytest.raises(NotAllowed) as not_director:
        services.update_league(actor=stranger, league=league, name="Mine")
    assert not_director.value.code == "not_league_director"
    event = finished_event("jan", [])
    with pytest.raises(NotAllowed) as not_event:
        services.add_event(actor=boss, league=league, event=event)
    assert not_event.value.code == "not_event_director"
    event.directors.add(boss)
    with pytest.raises(Conflict) as absent:
        services.remove_event(actor=boss, league=league, event=event)
    assert absent.value.code == "event_not_in_league"
    other = services.create_league(actor=boss, name="B", slug="b", points=[1])
    services.add_event(actor=boss, league=other, event=event)
    with pytest.raises(Conflict) as elsewhere:
        services.add_event(actor=boss, league=league, event=event)
    assert elsewhere.value.code == "event_in_another_league"
    with pytest.raises(NotAllowed):
        services.create_league(actor=User.objects.create_user("nobody"), name="C", points=[1])


# --- Public pages and the CSV -----------------------------------------------------------------


def test_the_league_page_shows_the_table_events_and_champions(season: dict[str, Any]) -> None:
    page = Client().get("/leagues/club/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ann &amp; Bo" in html and "Cy &amp; Di" in html  # the champions of jan and feb
    assert 'href="/events/jan/"' in html
    assert f'href="/players/{season["p"]["Ann"].pk}/"' in html
    assert "16.5" in html  # a shared place's points
    assert "(16.5)" in html  # Cy's dropped event, in brackets
    assert 'id="partnerships"' in html
    listing = Client().get("/leagues/").content.decode()
    assert 'href="/leagues/club/"' in listing


def test_a_private_league_is_a_404_except_to_its_directors(season: dict[str, Any]) -> None:
    league: League = season["league"]
    league.public = False
    league.save(update_fields=["public"])
    assert Client().get("/leagues/club/").status_code == 404
    assert Client().get("/leagues/club/table.csv").status_code == 404
    assert Client().get("/leagues/nowhere/").status_code == 404
    assert 'href="/leagues/club/"' not in Client().get("/leagues/").content.decode()
    director = organiser()
    league.directors.add(director)
    client = Client()
    client.force_login(director)
    assert client.get("/leagues/club/").status_code == 200


def test_the_csv_is_the_table_with_formulas_neutralised(season: dict[str, Any]) -> None:
    p = season["p"]
    p["Ed"].name = '=HYPERLINK("http://x","y")'
    p["Ed"].save(update_fields=["name"])
    response = Client().get("/leagues/club/table.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:5] == ["kind", "rank", "name", "player_ids", "points"]
    assert rows[0][7:] == ["jan", "feb", "mar"]
    ann = next(r for r in rows if r[2] == "Ann")
    assert ann[:2] == ["player", "1"] and ann[4:7] == ["50", "2", "3"]
    assert ann[7:] == ["25", "(18)", "25"]
    assert any(r[2].startswith("'=HYPERLINK") for r in rows)
    assert any(r[0] == "partnership" and r[2] == "Ann & Bo" for r in rows)


def test_the_director_creates_a_league_and_adds_an_event() -> None:
    boss = organiser()
    event = finished_event("jan", [])
    event.directors.add(boss)
    client = Client()
    client.force_login(boss)
    refused = client.post(
        "/director/leagues/new/", {"name": "Club", "points": "25, x", "public": "on"}
    )
    assert refused.status_code == 200 and b"Whole numbers" in refused.content
    created = client.post(
        "/director/leagues/new/",
        {"name": "Club", "slug": "club", "points": "25, 18, 15", "best_of": "2", "public": "on"},
    )
    assert created.status_code == 302
    league = League.objects.get(slug="club")
    assert (league.points, league.best_of, league.public) == ([25, 18, 15], 2, True)
    edit = client.get("/director/leagues/club/")
    assert edit.status_code == 200 and b'<option value="jan">' in edit.content
    added = client.post("/director/leagues/club/events/add/", {"event": "jan"})
    assert added.status_code == 302
    assert Event.objects.get(slug="jan").league_id == league.pk
    dashboard = client.get("/director/events/jan/").content.decode()
    assert 'counts in <a href="/leagues/club/">' in dashboard
    log = client.get("/director/events/jan/audit/").content.decode()
    assert "counted the event in the league “club”" in log
    stranger = Client()
    stranger.force_login(organiser("stranger"))
    assert stranger.get("/director/leagues/club/").status_code == 404
    assert (
        stranger.post("/director/leagues/club/events/remove/", {"event": "jan"}).status_code == 404
    )


# --- The API ----------------------------------------------------------------------------------


def test_the_api_lists_leagues_and_reads_the_season_table(season: dict[str, Any]) -> None:
    client = APIClient()
    listing = client.get("/api/leagues/")
    assert listing.status_code == 200
    assert [lg["slug"] for lg in listing.json()] == ["club"]
    detail = client.get("/api/leagues/club/").json()
    assert detail["best_of"] == 2 and detail["points"][:2] == [25, 18]
    assert [e["champion"] for e in detail["events"]] == ["Ann & Bo", "Cy & Di", "Ann & Cy"]
    first = detail["players"][0]
    assert (first["rank"], first["name"], first["points"]) == (1, "Ann", "50")
    assert {"event": "feb", "place": 2, "points": "18", "counted": False} in first["events"]
    assert detail["partnerships"][0]["players"] == sorted(detail["partnerships"][0]["players"])


def test_the_api_hides_a_private_league(season: dict[str, Any]) -> None:
    League.objects.filter(pk=season["league"].pk).update(public=False)
    response = APIClient().get("/api/leagues/club/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert APIClient().get("/api/leagues/").json() == []
    assert APIClient().post("/api/leagues/", {}).status_code in (401, 403, 405)


def test_a_long_table_is_paged(season: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments.views import leagues as views

    monkeypatch.setattr(views, "ROWS_PER_PAGE", 4)
    first = Client().get("/leagues/club/").content.decode()
    assert "Page 1 of 2" in first and "?page=2" in first
    second = Client().get("/leagues/club/?page=2").content.decode()
    assert "Page 2 of 2" in second and ">Ed<" in second
    assert Client().get("/leagues/club/?page=oops").status_code == 200
