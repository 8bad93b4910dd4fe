"""Roles on the director pages: staff see every event and change none they do not direct (403
``read_only_staff``, nothing written); superusers and the event's directors change it; a director
of another event gets 404."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.results_support import (
    make_director,
    make_entry,
    make_event,
    make_round,
    match_at,
    sheet,
)
from tournaments.models import (
    AuditEntry,
    BackgroundJob,
    Claim,
    Entry,
    Event,
    MatchResult,
    Round,
)
from tournaments.permissions import READ_ONLY_STAFF_MESSAGE, can_direct, can_oversee
from tournaments.services import claims

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _world() -> tuple[Event, User]:
    """An event with round 1 in play (table 1 in conflict), a draft round 2 and a registered
    entry; and its director."""
    event = make_event("home")
    boss = make_director(event, "boss")
    rnd = make_round(event)
    match = match_at(rnd, 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    claims.submit_claim(match=match, side=1, sheet=sheet("nodeal"))
    Round.objects.create(event=event, number=2, status=Round.Status.DRAFT)
    make_entry(event, "Late")
    return event, boss


def _login(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _staff() -> User:
    return User.objects.create_user("stella", is_staff=True)


def _snapshot(event: Event) -> tuple[Any, ...]:
    """Everything a director's change could write, for 'nothing changed' assertions."""
    return (
        sorted(Entry.objects.filter(event=event).values_list("pk", "status", "late", "seed")),
        sorted(Round.objects.filter(event=event).values_list("pk", "number", "status")),
        sorted(MatchResult.objects.values_list()),
        Claim.objects.count(),
        AuditEntry.objects.count(),
        BackgroundJob.objects.count(),
        sorted(event.directors.values_list("pk", flat=True)),
    )


def _reads(event: Event) -> list[str]:
    base = f"/director/events/{event.slug}"
    match = match_at(Round.objects.get(event=event, number=1), 1)
    return [
        f"{base}/",
        f"{base}/entries/",
        f"{base}/audit/",
        f"{base}/rounds/",
        f"{base}/rounds/1/",
        f"{base}/rounds/2/",
        f"{base}/rounds/1/results/",
        f"{base}/rounds/1/results/{match.pk}/",
        f"{base}/rounds/1/pairings-sheet/",
        f"{base}/standings/",
    ]


def _changes(event: Event) -> list[tuple[str, dict[str, Any]]]:
    base = f"/director/events/{event.slug}"
    late = Entry.objects.get(event=event, name="Late")
    match = match_at(Round.objects.get(event=event, number=1), 1)
    csv = "Ann,X,,Bob,X,\nCy,Y,,Di,Y,\n"
    return [
        (f"{base}/entries/{late.pk}/check-in/", {}),
        (f"{base}/rounds/generate/", {}),
        (f"{base}/rounds/2/publish/", {"confirm": "yes"}),
        (f"{base}/import/", {"action": "confirm", "text": csv}),
        (f"{base}/rounds/1/results/{match.pk}/resolve/", {"side": "0", "reason": "Signed"}),
        (
            f"{base}/rounds/1/results/{match.pk}/enter/",
            {"score_a": "100", "score_b": "95", "reason": "Board count"},
        ),
        (f"{base}/rounds/1/results/revoke-links/", {"reason": "Lost phone"}),
        (f"{base}/directors/", {"username": "stella"}),
        (f"{base}/standings/", {"action": "recompute"}),
    ]


def test_staff_read_every_director_page_of_an_event_they_do_not_direct() -> None:
    event, _ = _world()
    client = _login(_staff())
    for url in _reads(event):
        response = client.get(url)
        assert response.status_code == 200, url
    board = client.get(f"/director/events/{event.slug}/rounds/1/results/").content.decode()
    assert "/t/" not in board  # the tables' links are not shown to read-only staff
    assert READ_ONLY_STAFF_MESSAGE in board
    dashboard = client.get(f"/director/events/{event.slug}/").content.decode()
    assert 'data-code="read_only_staff"' in dashboard and "Add director" not in dashboard


def test_a_director_sees_the_actions_and_no_read_only_notice() -> None:
    event, boss = _world()
    dashboard = _login(boss).get(f"/director/events/{event.slug}/").content.decode()
    assert "read_only_staff" not in dashboard and "Add director" in dashboard


@pytest.mark.parametrize("index", range(9))
def test_staff_are_refused_every_change_and_nothing_is_written(index: int) -> None:
    event, _ = _world()
    url, data = _changes(event)[index]
    client = _login(_staff())
    before = _snapshot(event)
    response = client.post(url, data)
    assert response.status_code == 403, url
    assert b'data-code="read_only_staff"' in response.content
    assert READ_ONLY_STAFF_MESSAGE in response.content.decode()
    assert _snapshot(event) == before


def test_an_htmx_action_by_staff_gets_a_403_fragment() -> None:
    event, _ = _world()
    late = Entry.objects.get(event=event, name="Late")
    before = _snapshot(event)
    response = _login(_staff()).post(
        f"/director/events/{event.slug}/entries/{late.pk}/check-in/", **HTMX
    )
    assert response.status_code == 403
    body = response.content.decode()
    assert 'data-code="read_only_staff"' in body and "<html" not in body
    assert _snapshot(event) == before


def test_staff_do_not_get_the_table_cards_which_carry_the_links() -> None:
    event, boss = _world()
    cards = f"/director/events/{event.slug}/rounds/1/cards/"
    refused = _login(_staff()).get(cards)
    assert refused.status_code == 403
    assert b'data-code="read_only_staff"' in refused.content
    assert _login(boss).get(cards).status_code == 200


def test_a_superuser_changes_any_event() -> None:
    event, _ = _world()
    root = User.objects.create_superuser("root")
    client = _login(root)
    base = f"/director/events/{event.slug}"
    late = Entry.objects.get(event=event, name="Late")
    match = match_at(Round.objects.get(event=event, number=1), 1)
    assert client.post(f"{base}/entries/{late.pk}/check-in/").status_code == 302
    assert Entry.objects.get(pk=late.pk).status == Entry.Status.CHECKED_IN
    resolved = client.post(
        f"{base}/rounds/1/results/{match.pk}/resolve/", {"side": "0", "reason": "Signed"}
    )
    assert resolved.status_code == 302
    assert MatchResult.objects.get(match=match, is_current=True).source == "resolved"
    assert AuditEntry.objects.filter(actor=root).count() >= 2
    assert client.get(f"{base}/rounds/1/cards/").status_code == 200


def test_a_director_of_another_event_gets_404_on_reads_and_changes() -> None:
    event, _ = _world()
    other = make_director(make_event("away"), "away-boss")
    client = _login(other)
    before = _snapshot(event)
    for url in _reads(event):
        assert client.get(url).status_code == 404, url
    for url, data in _changes(event):
        assert client.post(url, data).status_code == 404, url
    assert _snapshot(event) == before


def test_the_role_predicates() -> None:
    event, boss = _world()
    staff = _staff()
    root = User.objects.create_superuser("root")
    stranger = User.objects.create_user("nobody")
    assert can_direct(boss, event) and can_oversee(boss, event)
    assert can_direct(root, event) and can_oversee(root, event)
    assert not can_direct(staff, event) and can_oversee(staff, event)
    assert not can_direct(stranger, event) and not can_oversee(stranger, event)
