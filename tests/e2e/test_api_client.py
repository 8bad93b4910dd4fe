"""The example client (``docs/examples/api_client.py``) runs whole events through the API alone
against a real server: registration to the last confirmed result, then the finish (issue 19).

The client is a subprocess of a Python with nothing but its standard library (``-I -S``: no
site-packages, so it cannot reach our code); the server is the live test server, with the
Celery tasks eager, or sending them to a real worker on Redis writing to PostgreSQL. What it
did is then checked through the ORM and the selectors: every result confirmed from the tables'
own links, the standings snapshot equal to the standings computed afresh from those results,
the final placings as the bracket decided them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.conftest import poll
from tests.tournaments.api_support import private_cache
from tournaments.models import AuditEntry, Claim, Entry, Event, Match, MatchResult, Round
from tournaments.selectors.bracket import bracket_view
from tournaments.selectors.final_placings import current_places, placings_json, swiss_places
from tournaments.selectors.standings import LiveStandings, event_with_state, latest_standings
from tournaments.services.api_tokens import create_api_token
from tournaments.services.organisers import make_organiser

CLIENT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "api_client.py"


@pytest.fixture
def server(settings: Any, live_server: Any) -> Iterator[str]:
    """The live server, with throttle counters of its own (never the machine's Redis cache)."""
    with private_cache(settings):
        yield str(live_server.url)


def run_client(url: str, key: str, *args: str, timeout: float) -> str:
    """Run the client with the standard library alone; its output (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(CLIENT), "--base-url", url, "--token", key, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return done.stdout


def check_played_through_the_api(event: Event, director: User, output: str) -> None:
    """Everything the tables played was claimed by one side's link and confirmed by the
    other's; every round closed; the standings and placings are the selectors' own."""
    assert event.status == Event.Status.FINISHED
    entries = event.entries.count()
    assert entries == event.entries.filter(status=Entry.Status.CHECKED_IN).count()
    assert not event.rounds.exclude(status=Round.Status.CLOSED).exists()
    played = Match.objects.filter(round__event=event, is_bye=False)
    results = MatchResult.objects.filter(match__in=played, is_current=True)
    assert played.exists() and results.count() == played.count()
    assert set(results.values_list("source", flat=True)) == {MatchResult.Source.AGREED}
    assert all(r.verified for r in results)
    claims = Claim.objects.filter(match__in=played)
    assert set(claims.values_list("origin", flat=True)) == {Claim.Origin.TABLE}
    assert set(claims.values_list("side", flat=True)) == {0, 1}  # side A claims, B confirms
    # Every director's step was the director's, through the API key (the worker closes a
    # decided play-off round itself, with no actor, when it drafts the next).
    steps = ["round.generate_requested", "round.publish", "entry.check_in", "event.finish"]
    moves = AuditEntry.objects.filter(event=event, action__in=steps)
    assert set(moves.values_list("action", flat=True)) == set(steps)
    assert set(moves.values_list("actor_id", flat=True)) == {director.pk}
    swiss = event.rounds.exclude(kind=Round.Kind.PLAYOFF).values_list("pk", flat=True)
    closes = AuditEntry.objects.filter(event=event, action="round.close")
    assert {c.object_id for c in closes if c.actor_id == director.pk} >= {str(pk) for pk in swiss}
    assert moves.filter(action="event.finish").count() == 1

    # The standings: the snapshot is current and equals the standings computed afresh from the
    # confirmed results; the placings are the bracket's.
    # (With a worker, the last result's recompute may still be on its way: wait for it.)
    standings = poll(lambda: fresh(event), timeout=60)
    assert [(int(r["entry_id"]), int(r["rank"])) for r in standings.rows] == [
        (p.entry_id, p.rank) for p in swiss_places(event)
    ]
    assert event.placings == placings_json(event, current_places(event))
    assert len(event.placings) == entries
    view = bracket_view(event)
    assert view is not None and view.progress is not None
    assert event.placings[0]["entry_id"] == view.progress.champion
    # The client printed the same placings, in order.
    printed = re.findall(r"^ +(\d+)\. (.+?)(?: \(shared\))?$", output, re.MULTILINE)
    assert printed[:entries] == [(str(p["place"]), p["name"]) for p in event.placings]


def fresh(event: Event) -> LiveStandings | None:
    """The latest standings once they are current (None while a recompute is due)."""
    standings = latest_standings(event_with_state(event.slug))
    return None if standings.meta.updating else standings


def field(event: Event) -> set[tuple[str, frozenset[int]]]:
    return {
        (e.name, frozenset(e.members.values_list("player_id", flat=True)))
        for e in event.entries.all()
    }


def organiser_key() -> tuple[User, str]:
    user = User.objects.create_user(username="club-director")
    make_organiser(user=user)
    return user, create_api_token(user=user)[1]


@pytest.mark.django_db(transaction=True)
def test_the_client_runs_a_club_night_from_registration_to_the_finish(server: str) -> None:
    director, key = organiser_key()
    output = run_client(server, key, "--slug", "club-night", timeout=300)
    event = Event.objects.get(slug="club-night")
    assert list(event.directors.all()) == [director]
    assert event.entries.count() == 8
    assert event.rounds.filter(kind=Round.Kind.SWISS).count() == event.swiss_rounds == 3
    assert event.rounds.filter(kind=Round.Kind.PLAYOFF).count() == 2  # semi-finals, final
    assert "round 1 (swiss) published: 4 tables" in output
    check_played_through_the_api(event, director, output)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_client_plays_the_demo_events_field_to_its_champion(server: str) -> None:
    """The Done-when of issue 19: the demo event played from registration to its last
    confirmed result through the API alone. The demo's own event is past registration (three
    rounds played, the fourth in play), so ``--demo`` registers its 24 partnerships (the same
    players, by id) in a new event with the demo's settings and plays that one."""
    from tournaments.management.commands.demo import build_demo

    context, _ = build_demo()
    demo = context.event
    key = create_api_token(user=context.director)[1]
    output = run_client(server, key, "--demo", "--slug", "demo-api", timeout=600)
    event = Event.objects.get(slug="demo-api")
    assert event.entries.count() == demo.entries.count() == 24
    assert field(event) == field(demo)  # the same partnerships: names and players
    for name in ("rules", "swiss_rounds", "playoff", "playoff_qualifiers", "playoff_formats"):
        assert getattr(event, name) == getattr(demo, name), name
    final = Match.objects.filter(round__event=event, bracket_slot="W3-1")
    assert final.count() in (2, 3) and final.first().best_of == 3  # a best-of-3 final
    check_played_through_the_api(event, context.director, output)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_client_runs_its_event_with_a_real_worker(
    postgres: None, celery_worker_process: Callable[[str], Any], server: str
) -> None:
    """The production shape: generation jobs, standings and the play-off's next rounds done by
    a Celery worker on Redis (the client polls the jobs and waits out standings_updating)."""
    from spinner.celery import app

    worker = celery_worker_process(app.conf.task_default_queue)
    director, key = organiser_key()
    output = run_client(server, key, "--slug", "worker-night", "--seed", "7", timeout=600)
    assert worker.poll() is None, "the worker died; see test-artifacts/worker-*.log"
    check_played_through_the_api(Event.objects.get(slug="worker-night"), director, output)


@pytest.mark.parametrize(("size", "players"), [(3, 9), (4, 8)])
@pytest.mark.django_db(transaction=True)
def test_the_client_plays_tables_of_three_and_four(server: str, size: int, players: int) -> None:
    """Issue 30: the client seats individual players at tables of ``size``: one seat claims,
    the other seats confirm that claim (of_side) until the result stands."""
    _director, key = organiser_key()
    slug = f"tables-of-{size}"
    output = run_client(
        server,
        key,
        "--slug",
        slug,
        "--table-size",
        str(size),
        "--entries",
        str(players),
        timeout=300,
    )
    event = Event.objects.get(slug=slug)
    assert event.status == Event.Status.FINISHED and event.table_size == size
    assert not event.rounds.exclude(status=Round.Status.CLOSED).exists()
    played = Match.objects.filter(round__event=event, is_bye=False)
    assert played.count() == event.swiss_rounds * players // size
    assert set(played.values_list("table_entries", flat=True)) == {size}
    results = MatchResult.objects.filter(match__in=played, is_current=True)
    assert results.count() == played.count()
    assert set(results.values_list("source", flat=True)) == {MatchResult.Source.AGREED}
    claims = Claim.objects.filter(match__in=played)
    assert set(claims.values_list("origin", flat=True)) == {Claim.Origin.TABLE}
    assert 0 in set(claims.values_list("side", flat=True))  # seat 0 claims
    printed = re.findall(r"^ +(\d+)\. (.+?)(?: \(shared\))?$", output, re.MULTILINE)
    assert event.placings is not None
    assert printed[:players] == [(str(p["place"]), p["name"]) for p in event.placings]
