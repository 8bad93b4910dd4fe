"""The demo's league (issue 16): ``/leagues/demo-league/``, three small past events played from
verified sheets and finished, players coming back in re-formed partnerships; running the demo
again changes nothing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from tournaments.management import demo_league
from tournaments.models import AuditEntry, Entry, Event, League, Match, MatchResult, Player
from tournaments.selectors import leagues as selectors

pytestmark = pytest.mark.django_db


def _rows() -> tuple[int, ...]:
    return tuple(
        model.objects.count()
        for model in (AuditEntry, Event, Entry, Player, Match, MatchResult, League)
    )


def test_the_demo_league_is_three_finished_rated_events_and_running_again_changes_nothing() -> None:
    out = StringIO()
    call_command("demo", stdout=out)
    assert "/leagues/demo-league/" in out.getvalue()
    league = League.objects.get(slug=demo_league.LEAGUE_SLUG)
    assert league.public and league.rank_partnerships and league.best_of == 2
    events = list(Event.objects.filter(league=league).order_by("start_date"))
    assert [e.slug for e in events] == ["demo-league-1", "demo-league-2", "demo-league-3"]
    for event in events:
        assert event.status == Event.Status.FINISHED and event.rated
        assert event.entries.count() == 8 and len(event.placings or []) == 8
        assert event.placings[0]["place"] == 1
        # every game was played from a verified sheet and confirmed
        played = Match.objects.filter(round__event=event, is_bye=False)
        current = MatchResult.objects.filter(match__in=played, is_current=True)
        assert played.exists() and current.count() == played.count()
    season = selectors.league_season(league)
    # players come back: most played all three events, and two re-formed their partnership
    assert sum(1 for r in season.table.players if r.played == 3) >= 10
    assert any(r.played == 3 and r.counted == 2 for r in season.table.players)
    assert len(season.table.partnerships) > 8
    assert AuditEntry.objects.filter(action="league.add_event").count() == 3

    page = Client().get("/leagues/demo-league/")
    assert page.status_code == 200
    html = page.content.decode()
    for event in events:
        assert f'href="/events/{event.slug}/"' in html
        assert event.placings[0]["name"].replace("&", "&amp;") in html

    before = _rows()
    again = StringIO()
    call_command("demo", stdout=again)
    assert _rows() == before
    assert again.getvalue().count("0 entries, finished already") == 3
