"""Displayed points: five-up and five-up-7 pages show raw / 5 (305 raw = 61), all-fives raw; the
snapshot, the export and the CSV stay raw (``tournaments.game``, the ``points`` template tags)."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any

import pytest
from django.template import Context, Template
from django.test import Client

from tests.tournaments.live_support import (
    confirm,
    make_director,
    make_entries,
    make_event,
    make_round,
)
from tournaments.game import displayed_divisor
from tournaments.game import format_displayed as displayed_points
from tournaments.models import Event, MatchResult, StandingsSnapshot

NOTE = "points (5 pips = 1)"


@pytest.mark.parametrize(
    ("raw", "rules", "shown"),
    [
        (305, "five-up", "61"),
        ("305", "five-up-7", "61"),
        (302, "five-up", "60.4"),
        ("152.5", "five-up", "30.5"),
        ("-15", "five-up", "-3"),
        (0, "five-up", "0"),
        ("-2.5", "five-up-7", "-0.5"),
        (305, "all-fives", "305"),
        ("152.5", "all-fives", "152.5"),
        ("1/3", "all-fives", "1/3"),
        ([10, -5, "2.5"], "five-up", "2, -1, 0.5"),
        (None, "five-up", ""),
        ("", "five-up", ""),
        ("n/a", "five-up", "n/a"),
    ],
)
def test_displayed_points_are_exact(raw: Any, rules: str, shown: str) -> None:
    assert displayed_points(raw, rules) == shown


def test_the_filter_and_the_note_follow_the_event_rules() -> None:
    template = Template("{% load points %}{{ score|points:event }}|{% points_note event %}")
    five_up = Event(rules=Event.Rules.FIVE_UP)
    all_fives = Event(rules=Event.Rules.ALL_FIVES)
    shown, note = template.render(Context({"score": "305", "event": five_up})).split("|")
    assert shown == "61" and NOTE in note
    assert template.render(Context({"score": "305", "event": all_fives})) == "305|"
    assert displayed_divisor(Event(rules=Event.Rules.FIVE_UP_7)) == 5
    assert displayed_divisor(all_fives) == 1


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    """A cache of this test's own (never the machine's Redis, shared with other runs)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"points-{uuid.uuid4()}",
        }
    }


def play(rules: str, capture: Any) -> dict[str, Any]:
    """Two teams, one match: Team 1 beat Team 2 305-150 raw; spread and points for as tiebreaks."""
    target = 305 if rules != Event.Rules.ALL_FIVES else 250
    event = make_event(
        f"pts-{rules}", rules=rules, target=target, tiebreaks=["spread", "points_for"]
    )
    teams = make_entries(event, 2)
    director = make_director(event)
    (match,) = make_round(event, 1, [(teams[0], teams[1])])
    with capture(execute=True):
        confirm(match, 305, 150, director)
    return {"event": event, "teams": teams, "match": match}


def standings_table(client: Client, event: Event) -> str:
    body = client.get(f"/events/{event.slug}/standings/").content.decode()
    return body[body.index('<section id="standings-live"') : body.index("</section>")]


@pytest.mark.django_db
@pytest.mark.parametrize("rules", [Event.Rules.FIVE_UP, Event.Rules.FIVE_UP_7])
def test_five_up_pages_show_displayed_points(
    client: Client, rules: str, django_capture_on_commit_callbacks: Any
) -> None:
    played = play(rules, django_capture_on_commit_callbacks)
    event, team, match = played["event"], played["teams"][0], played["match"]
    table = standings_table(client, event)
    assert '<td class="num tb">31</td>' in table  # spread 155 raw
    assert '<td class="num tb">61</td>' in table  # points for 305 raw
    assert ">155<" not in table and ">305<" not in table
    assert NOTE in table
    team_page = client.get(f"/events/{event.slug}/teams/{team.pk}/").content.decode()
    assert "61 / 30 (31)" in team_page  # points for / against (spread)
    assert "won 61–30" in team_page and NOTE in team_page
    match_page = client.get(f"/events/{event.slug}/matches/{match.pk}/").content.decode()
    assert "61 – 30" in match_page and NOTE in match_page
    round_page = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "61 – 30" in round_page and NOTE in round_page
    # The data stays raw: the snapshot and the CSV (whose columns say so).
    snapshot = StandingsSnapshot.objects.filter(event=event).latest("generation")
    assert '"points_for":305' in snapshot.data
    rows = list(
        csv.DictReader(
            io.StringIO(client.get(f"/events/{event.slug}/standings.csv").content.decode())
        )
    )
    assert (rows[0]["points_for_raw"], rows[0]["spread_raw"]) == ("305", "155")


@pytest.mark.django_db
def test_all_fives_pages_show_raw_points(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    played = play(Event.Rules.ALL_FIVES, django_capture_on_commit_callbacks)
    event, team, match = played["event"], played["teams"][0], played["match"]
    table = standings_table(client, event)
    assert '<td class="num tb">155</td>' in table and NOTE not in table
    team_page = client.get(f"/events/{event.slug}/teams/{team.pk}/").content.decode()
    assert "305 / 150 (155)" in team_page and "won 305–150" in team_page
    assert NOTE not in team_page
    match_page = client.get(f"/events/{event.slug}/matches/{match.pk}/").content.decode()
    assert "305 – 150" in match_page and NOTE not in match_page
    round_page = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "305 – 150" in round_page


@pytest.mark.django_db
def test_no_note_when_the_standings_show_no_score_column(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    event = make_event("no-scores", tiebreaks=["buchholz"])
    teams = make_entries(event, 2)
    (match,) = make_round(event, 1, [(teams[0], teams[1])])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(match, 305, 150, make_director(event))
    assert NOTE not in standings_table(client, event)


@pytest.mark.django_db
def test_a_director_typing_61_40_in_five_up_gets_61_40_on_every_page(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """Issue 11's first bug: the director's result form took what was typed as raw pips (61-40
    stored as 61-40 raw, shown as 12.2-8). The form takes displayed points: stored 305-200 raw."""
    event = make_event("typed", rules=Event.Rules.FIVE_UP, target=305, tiebreaks=["spread"])
    teams = make_entries(event, 2)
    director = make_director(event)
    (match,) = make_round(event, 1, [(teams[0], teams[1])])
    client.force_login(director)
    form_page = client.get(f"/director/events/{event.slug}/rounds/1/results/{match.pk}/")
    assert NOTE in form_page.content.decode()  # the form says its unit
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/director/events/{event.slug}/rounds/1/results/{match.pk}/enter/",
            {"score_a": "61", "score_b": "40", "reason": "Paper acta"},
        )
    assert response.status_code == 302
    result = MatchResult.objects.get(match=match, is_current=True)
    assert (result.score_a_halves, result.score_b_halves) == (610, 400)  # 305-200 raw
    pages = {
        "board": f"/director/events/{event.slug}/rounds/1/results/",
        "director match": f"/director/events/{event.slug}/rounds/1/results/{match.pk}/",
        "round": f"/events/{event.slug}/rounds/1/",
        "match": f"/events/{event.slug}/matches/{match.pk}/",
    }
    for name, url in pages.items():
        html = client.get(url).content.decode()
        assert "61 – 40" in html, name
        assert "12.2" not in html and "305 – 200" not in html, name
    team_page = client.get(f"/events/{event.slug}/teams/{teams[0].pk}/").content.decode()
    assert "won 61–40" in team_page and "12.2" not in team_page
