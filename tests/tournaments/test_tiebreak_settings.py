"""The event's tiebreaks (issue 30): a new event gets its format's defaults, whichever way it is
created; a change mid-event re-ranks the standings at once (a new snapshot, audited) and the
public page states the tiebreaks that snapshot applied; a finished event keeps its own."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests import factories
from tests.tournaments.api_support import key, user_client
from tests.tournaments.live_support import confirm, make_director, make_entries, make_round
from tournaments.errors import Conflict
from tournaments.models import AuditEntry, Event, StandingsSnapshot
from tournaments.selectors import standings as standings_reads
from tournaments.services import events as event_services
from tournaments.services.organisers import make_organiser
from tournaments.standings import DEFAULT_TIEBREAKS, default_tiebreaks

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)
SWISS = ["buchholz", "spread", "points_for"]
ROUND_ROBIN = ["head_to_head", "wins", "spread", "points_for"]


@pytest.fixture
def organiser() -> User:
    user = User.objects.create_user("orla", password="pw")
    make_organiser(user=user)
    return user


def test_the_defaults_are_the_standings_own() -> None:
    assert default_tiebreaks("swiss") == SWISS
    assert default_tiebreaks("round_robin") == ROUND_ROBIN
    assert set(DEFAULT_TIEBREAKS) == set(Event.Format.values)


@pytest.mark.parametrize(("format_", "expected"), [("swiss", SWISS), ("round_robin", ROUND_ROBIN)])
def test_the_service_gives_a_new_event_its_formats_tiebreaks(
    organiser: User, format_: str, expected: list[str]
) -> None:
    event = event_services.create_event(
        actor=organiser, name=f"New {format_}", start_date=DAY, end_date=DAY, format=format_
    )
    assert Event.objects.get(pk=event.pk).tiebreaks == expected
    chosen = event_services.create_event(
        actor=organiser, name="Chosen", start_date=DAY, end_date=DAY, tiebreaks=["wins"]
    )
    assert chosen.tiebreaks == ["wins"]  # a director's list is kept as given


def test_the_form_with_no_tiebreaks_gives_the_defaults(organiser: User) -> None:
    client = Client()
    client.force_login(organiser)
    page = client.get("/director/events/new/").content.decode()
    assert "Empty: the format&#x27;s defaults (Swiss: buchholz, spread, points_for" in page
    form = {
        "name": "Form Open",
        "start_date": "2026-12-05",
        "end_date": "2026-12-05",
        "status": "draft",
        "time_zone": "UTC",
        "rules": "five-up",
        "entry_kind": "partnership",
        "time_policy": "finish-hand",
        "round_minutes": "45",
        "format": "round_robin",
        "swiss_rounds": "5",
        "first_round": "random",
        "playoff": "none",
        "playoff_qualifiers": "8",
        "points_win": "2",
        "points_draw": "1",
        "points_loss": "0",
        "points_bye": "2",
        "margin_bonus_points": "0",
        "margin_bonus_at": "0",
        "tiebreaks": "",
    }
    response = client.post("/director/events/new/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Event.objects.get(name="Form Open").tiebreaks == ROUND_ROBIN


def test_the_api_with_no_tiebreaks_gives_the_defaults(organiser: User, settings: Any) -> None:
    from tests.tournaments.api_support import private_cache

    with private_cache(settings):
        made = user_client(organiser).post(
            "/api/events/",
            {"name": "Api Open", "start_date": "2026-12-05", "end_date": "2026-12-05"},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key(),
        )
    assert made.status_code == 201, made.content
    assert made.json()["tiebreaks"] == SWISS


def test_the_demo_event_is_created_through_the_service_with_tiebreaks() -> None:
    from io import StringIO

    from django.core.management import call_command

    call_command("demo", stdout=StringIO())
    assert all(e.tiebreaks for e in Event.objects.all())


def _tied_event() -> tuple[Event, User, list[Any]]:
    """Four teams after one round, listed with match points only (as an event made before the
    defaults): Team 1 beat Team 3 by 50, Team 2 beat Team 4 by 150, so 1 and 2 share first
    place and 3 and 4 third until spread separates them."""
    event = factories.make_event("tied", swiss_rounds=3, tiebreaks=["match_points"])
    teams = make_entries(event, 4)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[2]), (teams[1], teams[3])])
    confirm(matches[0], 100, 50, director)
    confirm(matches[1], 200, 50, director)
    return event, director, teams


def _order(event: Event) -> list[tuple[int, str]]:
    return [(r["rank"], r["name"]) for r in standings_reads.latest_standings(event).rows]


def test_a_tiebreak_change_re_ranks_the_standings_at_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event, director, _ = _tied_event()
    assert _order(event) == [(1, "Team 1"), (1, "Team 2"), (3, "Team 3"), (3, "Team 4")]
    before = StandingsSnapshot.objects.filter(event=event).order_by("-generation").first()
    assert before is not None
    # No result changes: the change alone re-ranks, in the same request (no task, no wait).
    event_services.update_event(actor=director, event=event, tiebreaks=["spread", "points_for"])
    latest = standings_reads.latest_standings(event)
    assert latest.meta.generation == before.generation + 1
    assert latest.tiebreaks == ["match_points", "spread", "points_for"]
    assert _order(event) == [(1, "Team 2"), (2, "Team 1"), (3, "Team 3"), (4, "Team 4")]
    assert not latest.meta.updating
    audit = AuditEntry.objects.get(event=event, action="standings.rerank")
    assert audit.actor == director
    assert audit.after == {
        "generation": before.generation + 1,
        "status": "new",
        "tiebreaks": ["match_points", "spread", "points_for"],
    }


def test_an_empty_list_on_update_is_the_formats_defaults(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event, director, _ = _tied_event()
    updated = event_services.update_event(actor=director, event=event, tiebreaks=[])
    assert updated.tiebreaks == SWISS
    assert standings_reads.latest_standings(event).tiebreaks == ["match_points", *SWISS]


def test_the_public_page_states_the_tiebreaks_it_applied(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event, director, _ = _tied_event()
    page = client.get(f"/events/{event.slug}/standings/").content.decode()
    assert "Update 1 ranks by, in order: Match points (MP)." in page
    # The event's setting changed behind the standings' back (no re-rank): the page still says
    # what its snapshot applied, not what the settings claim.
    Event.objects.filter(pk=event.pk).update(tiebreaks=["buchholz"])
    page = client.get(f"/events/{event.slug}/standings/").content.decode()
    assert "Update 1 ranks by, in order: Match points (MP)." in page
    assert "Buchholz (Bh)" not in page
    event_services.update_event(actor=director, event=event, tiebreaks=["spread"])
    page = client.get(f"/events/{event.slug}/standings/").content.decode()
    assert "Update 2 ranks by, in order: Match points (MP), Spread (+/-)." in page
    assert page.index("Team 2") < page.index("Team 1")


def test_recompute_now_applies_the_settings_as_they_are(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event, director, _ = _tied_event()
    Event.objects.filter(pk=event.pk).update(tiebreaks=["spread"])  # e.g. an older server's
    client.force_login(director)
    response = client.post(
        f"/director/events/{event.slug}/standings/", {"action": "recompute"}, follow=True
    )
    assert "Standings recomputed: update 2." in response.content.decode()
    assert _order(event)[0] == (1, "Team 2")
    response = client.post(
        f"/director/events/{event.slug}/standings/", {"action": "recompute"}, follow=True
    )
    assert "Standings recomputed: nothing changed." in response.content.decode()


def test_a_finished_event_keeps_its_tiebreaks(django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event, director, _ = _tied_event()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    with pytest.raises(Conflict) as refused:
        event_services.update_event(actor=director, event=event, tiebreaks=["spread"])
    assert refused.value.code == "tiebreaks_fixed_after_finish"
    assert Event.objects.get(pk=event.pk).tiebreaks == ["match_points"]
    # Other settings of a finished event still change (its venue, say).
    event_services.update_event(actor=director, event=event, venue="Hall")


def test_the_help_page_names_the_defaults_and_why(client: Client) -> None:
    page = client.get("/help/director/").content.decode()
    assert "Swiss rounds Buchholz, spread, points for; a round robin head to head, wins," in page
    assert "Buchholz would only reward losing to strong entries" in page
