"""Live standings in the other areas: the Swiss pairing ranks by them, the event export carries
them, the public round page shows each table's result."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.live_support import (
    close_rounds,
    confirm,
    make_director,
    make_entries,
    make_event,
    make_round,
)
from tournaments.errors import SpinnerError
from tournaments.models import Entry, Round, StandingsState
from tournaments.selectors import export
from tournaments.services import director_jobs, playoffs, round_generation, round_status

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
def round_one(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Four checked-in teams ranked by points against (lower is better) after match points.
    Round 1: T1 beat T2 300-100, T3 beat T4 50-0. By spread T1 leads the winners; by points
    against, T3 does."""
    event = make_event("swiss", swiss_rounds=3, tiebreaks=["points_against"])
    teams = make_entries(event, 4)
    Entry.objects.filter(event=event).update(status=Entry.Status.CHECKED_IN)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3])])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[0], 300, 100, director)
        confirm(matches[1], 50, 0, director)
    close_rounds(event)
    return {"event": event, "teams": teams, "director": director, "matches": matches}


def test_the_swiss_pairing_ranks_by_the_standings(
    round_one: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event, teams = round_one["event"], round_one["teams"]
    rnd = round_generation.generate_round(event=event, actor=round_one["director"])
    t1, t2, t3, t4 = (t.pk for t in teams)
    # Match points, then points against: T3 (0) before T1 (100); T4 (50) before T2 (300).
    assert rnd.explanation["ranking"] == [t3, t1, t4, t2]
    pairs = {frozenset((m.entry_a_id, m.entry_b_id)) for m in rnd.matches.all()}
    assert pairs == {frozenset((t3, t1)), frozenset((t4, t2))}


def test_the_pairing_refuses_standings_that_lag_and_never_recomputes_them(round_one: Any) -> None:
    # Issue 11: generation no longer recomputes inside itself; it refuses until the recompute
    # (run on its own after the results) has caught up.
    event, director = round_one["event"], round_one["director"]
    StandingsState.objects.filter(pk=event.pk).update(dirty=True, results_generation=99)
    with pytest.raises(SpinnerError) as refused:
        round_generation.generate_round(event=event, actor=director)
    assert refused.value.code == "standings_updating"
    assert StandingsState.objects.get(pk=event.pk).dirty
    assert round_generation.pairing_key(event) is not None


def test_the_export_has_the_standings_with_every_tiebreak_value(round_one: Any) -> None:
    event, teams = round_one["event"], round_one["teams"]
    document = export.export_event(event)
    standings = document["standings"]
    assert standings["tiebreaks"] == ["match_points", "points_against"]
    rows = standings["rows"]
    assert [r["entry_id"] for r in rows] == [teams[2].pk, teams[0].pk, teams[3].pk, teams[1].pk]
    t1 = rows[1]
    assert t1["values"] == {"match_points": 2, "points_against": 100}
    assert t1["record"]["points_for"] == 300 and t1["record"]["spread"] == 200
    assert t1["matches"] == [round_one["matches"][0].pk]
    assert standings["generation"] >= 1 and len(standings["digest"]) == 64


def test_the_public_round_page_shows_results(client: Client, round_one: Any) -> None:
    event = round_one["event"]
    body = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    # Five-up: displayed points (raw / 5): 300-100 raw is 60-20, 50-0 is 10-0.
    assert "60 – 20" in body and "10 – 0" in body
    assert "points (5 pips = 1)" in body
    assert f"/events/{event.slug}/matches/{round_one['matches'][0].pk}/" in body
    event.public_results = False
    event.save()
    body = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "60 – 20" not in body and "points (5 pips = 1)" not in body


def test_an_open_round_shows_tables_without_results(client: Client, round_one: Any) -> None:
    event = round_one["event"]
    Round.objects.filter(event=event).update(status=Round.Status.IN_PLAY)
    teams = round_one["teams"]
    make_round(event, 2, [(teams[0], teams[2]), (teams[1], teams[3])])
    body = client.get(f"/events/{event.slug}/rounds/2/").content.decode()
    assert body.count("No result yet") == 2


def test_the_demo_gains_standings_and_after_the_swiss_rounds_a_seeded_playoff(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The demo's issue 8 steps: standings at once; once the five Swiss rounds are paired,
    played (deterministic scores) and closed, running the demo again seeds the play-off (or,
    with a tie across the cut, proposes a tiebreak round first)."""
    import random

    from tournaments.management.commands import demo
    from tournaments.models import Match, StandingsSnapshot

    ctx, lines = demo.build_demo()
    standings_line = next(line for line in lines if line.startswith("standings: "))
    assert standings_line.startswith(("standings: standings new", "standings: standings current"))
    closed = Round.objects.filter(event=ctx.event, status=Round.Status.CLOSED).count()
    assert f"play-off seeding: waits for the Swiss rounds ({closed} of 5 closed)" in lines
    assert not StandingsState.objects.get(pk=ctx.event.pk).dirty
    event, director = ctx.event, ctx.director
    rng = random.Random(8)
    for number in range(1, 6):
        with django_capture_on_commit_callbacks(execute=True):
            # The demo's own steps may have paired (and played) the first rounds already.
            rnd = Round.objects.filter(event=event, number=number).first()
            if rnd is None:
                rnd = round_generation.generate_round(event=event, actor=director)
            if rnd.status == Round.Status.DRAFT:
                round_status.publish_round(round=rnd, actor=director)
            unplayed = Match.objects.filter(round=rnd, is_bye=False).exclude(
                results__is_current=True
            )
            for match in unplayed:
                a, b = rng.randrange(0, 300, 5), rng.randrange(0, 300, 5)
                confirm(match, 305 if a >= b else a, 305 if b > a else b, director)
            if rnd.status != Round.Status.CLOSED:
                round_status.close_round(round=rnd, actor=director)
    assert StandingsState.objects.get(pk=event.pk).dirty is False
    _, lines = demo.build_demo()
    seeding = next(line for line in lines if line.startswith("play-off seeding"))
    if "seeded" in seeding:
        playoff = Round.objects.get(event=event, kind=Round.Kind.PLAYOFF)
        assert seeding == f"play-off seeding: play-off round {playoff.number} seeded"
        assert playoff.matches.count() == 4  # 8 qualifiers: 1 v 8, 4 v 5, 3 v 6, 2 v 7
        top8 = [r["entry_id"] for r in live_selectors_rows(event)[:8]]
        seated = {m.entry_a_id for m in playoff.matches.all()} | {
            m.entry_b_id for m in playoff.matches.all()
        }
        assert seated == set(top8)
    else:
        assert "tiebreak round" in seeding
    assert StandingsSnapshot.objects.filter(event=event).exists()
    # Running it once more changes nothing.
    _, again = demo.build_demo()
    assert any(line.startswith("play-off seeding: ") for line in again)
    assert "standings: standings current" in " ".join(again)


def live_selectors_rows(event: Any) -> list[dict[str, Any]]:
    from tournaments.selectors import standings

    return standings.latest_standings(standings.event_with_state(event.slug)).rows


def test_a_job_seeds_the_playoff_from_the_final_standings(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tournaments.models import BackgroundJob

    event = make_event("seeded", swiss_rounds=1, playoff="single", playoff_qualifiers=2)
    teams = make_entries(event, 4)
    Entry.objects.filter(event=event).update(status=Entry.Status.CHECKED_IN)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3])])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[0], 305, 100, director)  # Team 1 by 205
        confirm(matches[1], 200, 305, director)  # Team 4 by 105
    close_rounds(event)
    with django_capture_on_commit_callbacks(execute=True):
        job = playoffs.start_playoff_seeding(event=event, actor=director)
    job.refresh_from_db()  # tasks run eagerly here: the job is done at commit
    assert job.status == BackgroundJob.Status.DONE, job.message
    playoff = Round.objects.get(event=event, kind=Round.Kind.PLAYOFF)
    (final,) = playoff.matches.all()
    assert {final.entry_a_id, final.entry_b_id} == {teams[0].pk, teams[3].pk}
    # A second run of the same job does nothing; a second seeding is refused.
    assert director_jobs.run_director_job(job_id=job.pk).status == BackgroundJob.Status.DONE
    assert Round.objects.filter(event=event, kind=Round.Kind.PLAYOFF).count() == 1
    with pytest.raises(SpinnerError) as info:
        playoffs.check_can_seed(event)
    assert info.value.code == "playoff_started"
