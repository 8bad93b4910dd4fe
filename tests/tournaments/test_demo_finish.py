"""``manage.py demo --finish`` plays the demo event on to its champion (issue 12): the Swiss
rounds, the play-off with its best-of-3 final, and the finish; again, it changes nothing."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from tournaments.models import AuditEntry, Event, Match, MatchResult, Round
from tournaments.selectors.bracket import bracket_view

pytestmark = pytest.mark.django_db


def test_the_demo_plays_on_to_a_finished_event_with_a_champion_once() -> None:
    call_command("demo", "--finish", stdout=StringIO())
    event = Event.objects.get(slug="demo")
    assert event.status == Event.Status.FINISHED and event.placings
    view = bracket_view(event)
    assert view is not None and view.progress is not None and view.progress.finished
    assert event.placings[0]["entry_id"] == view.progress.champion
    assert event.placings[1]["entry_id"] == view.progress.runner_up
    assert [p["place"] for p in event.placings[:2]] == [1, 2]
    assert len(event.placings) == event.entries.count()
    # the final is best of 3 and was decided by a majority of its games
    final = view.tabled["W3-1"]
    assert final.games[0].best_of == 3 and final.series.decided
    assert max(final.series.wins_a, final.series.wins_b) == 2
    assert len(final.games) == final.series.wins_a + final.series.wins_b
    # every round is closed and every match has its confirmed result
    assert not event.rounds.exclude(status=Round.Status.CLOSED).exists()
    played = Match.objects.filter(round__event=event, is_bye=False)
    assert MatchResult.objects.filter(match__in=played, is_current=True).count() == played.count()

    def rows() -> tuple[int, int, int]:
        return AuditEntry.objects.count(), Match.objects.count(), MatchResult.objects.count()

    before = rows()
    out = StringIO()
    call_command("demo", "--finish", stdout=out)
    assert "played to the champion: finished already" in out.getvalue()
    assert (
        AuditEntry.objects.count(),
        Match.objects.count(),
        MatchResult.objects.count(),
    ) == before

    checked = StringIO()
    call_command("check_pairings", "demo", stdout=checked, stderr=checked)
    assert "0 violations" in checked.getvalue()
    exported = StringIO()
    call_command("export_event", "demo", stdout=exported)
    doc = json.loads(exported.getvalue())
    assert doc["event"]["status"] == "finished"
    assert doc["placings"][0] == {"place": 1, "entry": view.progress.champion, "shared": False}
    assert {m["id"] for m in doc["bracket"]["matches"]} == {
        m.match_id for r in view.bracket.rounds for m in r.matches
    }
    page = Client().get("/events/demo/bracket/")
    assert page.status_code == 200 and b"<svg" in page.content


@pytest.mark.django_db(transaction=True)
def test_the_moves_to_the_champion_also_hold_where_the_worker_drafts_rounds_itself() -> None:
    """Outside one transaction the (eager) worker drafts each next bracket round as soon as a
    round's last result is confirmed: the director's moves publish it instead of advancing."""
    from django.contrib.auth.models import User

    from tournaments.management.commands import demo

    call_command("demo", stdout=StringIO())
    ctx = demo.DemoContext(
        event=Event.objects.get(slug="demo"), director=User.objects.get(username="director")
    )
    moves = demo.finish_demo(ctx)
    assert "the worker drafted the next play-off round" in moves
    assert Event.objects.get(slug="demo").status == Event.Status.FINISHED
