"""Issue 30's API: ``time_zone`` on events (create, read, update) and the keep-apart pairs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from tests import factories
from tests.tournaments.api_support import assert_error, key, private_cache, user_client
from tests.tournaments.results_support import make_event
from tournaments.models import AuditEntry, EntryAvoidance, Event
from tournaments.permissions import ORGANISERS_GROUP

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Iterator[None]:
    with private_cache(settings):
        yield


def send(client: APIClient, method: str, url: str, data: Any = None) -> Any:
    return getattr(client, method)(url, data, format="json", HTTP_IDEMPOTENCY_KEY=key())


def test_time_zone_is_created_read_and_changed() -> None:
    boss = User.objects.create_user(username="org")
    boss.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = user_client(boss)
    body = {
        "name": "Chicago Open",
        "start_date": "2026-04-11",
        "end_date": "2026-04-11",
        "slug": "chicago",
        "time_zone": "America/Chicago",
    }
    made = send(client, "post", "/api/events/", body)
    assert made.status_code == 201, made.content
    assert made.json()["time_zone"] == "America/Chicago"
    assert Event.objects.get(slug="chicago").time_zone == "America/Chicago"
    assert client.get("/api/events/chicago/").json()["time_zone"] == "America/Chicago"
    changed = send(client, "patch", "/api/events/chicago/", {"time_zone": "Europe/Madrid"})
    assert changed.status_code == 200, changed.content
    assert changed.json()["time_zone"] == "Europe/Madrid"
    bad = send(client, "patch", "/api/events/chicago/", {"time_zone": "Europe/Madird"})
    assert_error(bad, 400, "invalid_time_zone")
    assert Event.objects.get(slug="chicago").time_zone == "Europe/Madrid"


def test_keep_apart_pairs_are_listed_added_and_removed() -> None:
    event = make_event("ev", status=Event.Status.REGISTRATION)
    boss = factories.make_director(event, "boss")
    ann, bob, cy = (factories.make_entry(event, n) for n in ("Ann", "Bob", "Cy"))
    client = user_client(boss)
    url = "/api/events/ev/avoidances/"
    assert client.get(url).json() == []
    made = send(client, "post", url, {"entry_x": bob.pk, "entry_y": ann.pk, "note": "sisters"})
    assert made.status_code == 201, made.content
    pair = made.json()
    assert pair["entries"] == sorted([ann.pk, bob.pk]) and pair["note"] == "sisters"
    assert set(pair["names"]) == {"Ann", "Bob"}
    assert [p["id"] for p in client.get(url).json()] == [pair["id"]]
    assert AuditEntry.objects.filter(event=event, action="entry.avoid_add").count() == 1
    again = send(client, "post", url, {"entry_x": ann.pk, "entry_y": bob.pk})
    assert_error(again, 409, "avoidance_exists")
    assert_error(
        send(client, "post", url, {"entry_x": cy.pk, "entry_y": cy.pk}), 400, "avoidance_same_entry"
    )
    other = factories.make_entry(make_event("other"), "Di")
    assert_error(
        send(client, "post", url, {"entry_x": cy.pk, "entry_y": other.pk}),
        400,
        "avoidance_other_event",
    )
    gone = client.delete(f"{url}{pair['id']}/")
    assert gone.status_code == 204
    assert not EntryAvoidance.objects.filter(event=event).exists()
    assert_error(client.delete(f"{url}{pair['id']}/"), 404, "avoidance_not_found")
    # Not a director of the event: the event is not revealed.
    stranger = user_client(User.objects.create_user(username="nosy"))
    assert_error(stranger.get(url), 404, "not_found")
