"""The events API (issue 19): create, list, read and change an event, its status steps and its
audit log, through HTTP; each write the pages' service with its audit entry, error codes,
If-Match versions and Idempotency-Keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from tests import factories
from tests.tournaments.api_support import assert_error, key, private_cache, user_client
from tests.tournaments.results_support import make_event, make_round
from tournaments.models import AuditEntry, Event, IdempotencyRecord
from tournaments.permissions import ORGANISERS_GROUP

pytestmark = pytest.mark.django_db

NEW = {"name": "Spring Open", "start_date": "2026-04-11", "end_date": "2026-04-11"}


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Iterator[None]:
    with private_cache(settings):
        yield


def organiser(name: str = "org") -> User:
    user = User.objects.create_user(username=name)
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    return user


def send(client: APIClient, method: str, url: str, data: Any = None, **headers: str) -> Any:
    """A JSON write with a fresh idempotency key unless one is given."""
    extra = {"HTTP_IDEMPOTENCY_KEY": key()}
    for name, value in headers.items():
        extra["HTTP_" + name.upper().replace("-", "_")] = value
    return getattr(client, method)(url, data, format="json", **extra)


def test_an_organiser_creates_an_event_and_directs_it() -> None:
    boss = organiser()
    client = user_client(boss)
    body = {**NEW, "slug": "spring", "rules": "five-up", "target": 305, "tiebreaks": ["buchholz"]}
    made = send(client, "post", "/api/events/", body)
    assert made.status_code == 201, made.content
    event = Event.objects.get(slug="spring")
    assert made["Location"] == "/api/events/spring/"
    assert made["ETag"] == f'"{made.json()["version"]}"'
    answer = made.json()
    assert answer["status"] == "draft" and answer["target"] == 305
    assert answer["tiebreaks"] == ["buchholz"] and answer["playoff_formats"] == {}
    assert list(event.directors.all()) == [boss]
    audit = AuditEntry.objects.get(event=event)
    assert audit.action == "event.create" and audit.actor == boss
    # The creator reads the draft; the public does not see it.
    assert client.get("/api/events/spring/").status_code == 200
    assert_error(APIClient().get("/api/events/spring/"), 404, "not_found")


def test_creating_answers_the_services_codes_and_keeps_nothing_half_made() -> None:
    client = user_client(organiser())
    bad_dates = send(client, "post", "/api/events/", {**NEW, "end_date": "2026-04-10"})
    assert assert_error(bad_dates, 400, "dates_out_of_order")["details"]["field"] == "end_date"
    points = send(client, "post", "/api/events/", {**NEW, "points_draw": 5})
    assert_error(points, 400, "points_out_of_order")
    typo = send(client, "post", "/api/events/", {**NEW, "rounds": 5})
    assert assert_error(typo, 400, "invalid")["details"] == {"rounds": ["Unknown field."]}
    make_event("taken")
    taken = send(client, "post", "/api/events/", {**NEW, "slug": "taken"})
    assert_error(taken, 409, "slug_taken")
    assert Event.objects.count() == 1
    stranger = user_client(User.objects.create_user(username="nobody"))
    assert_error(send(stranger, "post", "/api/events/", NEW), 403, "forbidden")


def test_creating_twice_with_one_key_makes_one_event() -> None:
    client = user_client(organiser())
    first = send(client, "post", "/api/events/", NEW, Idempotency_Key="make-1")
    again = send(client, "post", "/api/events/", NEW, Idempotency_Key="make-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() and again["Location"] == first["Location"]
    assert Event.objects.count() == 1
    other = send(client, "post", "/api/events/", {**NEW, "venue": "Hall"}, Idempotency_Key="make-1")
    assert_error(other, 422, "idempotency_mismatch")


def test_the_list_shows_listed_events_and_yours_newest_first_a_page_at_a_time() -> None:
    boss = User.objects.create_user(username="boss")
    for n in range(5):  # five listed, one a day
        factories.make_event(
            f"open-{n}", public_listing=True, start_date=f"2026-01-0{n + 1}", end_date="2026-02-01"
        )
    factories.make_event("hidden")  # running, not listed: not in the public list
    factories.make_event("draft", public_listing=True, status=Event.Status.DRAFT)
    mine = factories.make_event("mine", status=Event.Status.DRAFT)
    mine.directors.add(boss)
    public = APIClient().get("/api/events/").json()
    assert [e["slug"] for e in public["results"]] == [f"open-{n}" for n in (4, 3, 2, 1, 0)]
    assert public["next"] is None and public["next_cursor"] is None
    seen: list[str] = []
    client = user_client(boss)
    url: str | None = "/api/events/?limit=2"
    while url:
        page = client.get(url).json()
        assert len(page["results"]) <= 2
        seen += [e["slug"] for e in page["results"]]
        url = page["next"]
    assert seen == ["mine", "open-4", "open-3", "open-2", "open-1", "open-0"]  # mine: 2026-12-05
    drafts = client.get("/api/events/", {"status": "draft"}).json()
    assert [e["slug"] for e in drafts["results"]] == ["mine"]
    staff = user_client(User.objects.create_user(username="staff", is_staff=True))
    assert len(staff.get("/api/events/", {"limit": 100}).json()["results"]) == 8


def test_a_cursor_keeps_its_place_while_events_are_added() -> None:
    for n in range(4):
        factories.make_event(f"e{n}", public_listing=True, start_date=f"2026-01-0{n + 1}")
    first = APIClient().get("/api/events/", {"limit": 2}).json()
    assert [e["slug"] for e in first["results"]] == ["e3", "e2"]
    factories.make_event("newer", public_listing=True, start_date="2026-01-09")  # sorts first
    rest = APIClient().get("/api/events/", {"limit": 2, "cursor": first["next_cursor"]}).json()
    assert [e["slug"] for e in rest["results"]] == ["e1", "e0"]


def test_bad_list_parameters_say_what_to_fix() -> None:
    assert_error(APIClient().get("/api/events/", {"cursor": "made-up"}), 400, "invalid_cursor")
    assert_error(APIClient().get("/api/events/", {"status": "open"}), 400, "invalid")
    assert_error(APIClient().get("/api/events/", {"limit": 0}), 400, "invalid")
    assert_error(APIClient().get("/api/events/", {"limit": 101}), 400, "invalid")


def test_a_director_changes_settings_audited_with_the_version() -> None:
    event = make_event("ev", status=Event.Status.REGISTRATION)
    boss = factories.make_director(event, "boss")
    client = user_client(boss)
    read = client.get("/api/events/ev/")
    assert read.status_code == 200
    tag = read["ETag"]
    changed = send(
        client, "patch", "/api/events/ev/", {"round_minutes": 50, "reason": "late"}, If_Match=tag
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["round_minutes"] == 50 and changed["ETag"] != tag
    event.refresh_from_db()
    assert event.round_minutes == 50
    audit = AuditEntry.objects.get(event=event, action="event.update")
    assert audit.before == {"round_minutes": 45} and audit.after == {"round_minutes": 50}
    assert audit.reason == "late" and audit.actor == boss
    # The old version is stale now: refused, nothing written.
    stale = send(client, "patch", "/api/events/ev/", {"round_minutes": 60}, If_Match=tag)
    body = assert_error(stale, 412, "stale_version")
    assert body["details"]["current"] == changed.json()["version"]
    event.refresh_from_db()
    assert event.round_minutes == 50
    assert AuditEntry.objects.filter(action="event.update").count() == 1
    bad_tag = send(client, "patch", "/api/events/ev/", {"venue": "x"}, If_Match='"3"')
    assert_error(bad_tag, 400, "invalid_if_match")


def test_settings_errors_are_the_services_codes() -> None:
    event = make_event("ev")
    make_round(event)
    client = user_client(factories.make_director(event, "boss"))
    assert_error(
        send(client, "patch", "/api/events/ev/", {"rules": "five-up"}), 409, "locked_after_start"
    )
    assert_error(
        send(client, "patch", "/api/events/ev/", {"playoff": "single", "playoff_qualifiers": 1}),
        400,
        "invalid_number",
    )
    assert_error(
        send(client, "patch", "/api/events/ev/", {"playoff_formats": {"final": {"best_of": 2}}}),
        400,
        "invalid",
    )
    finished = send(client, "patch", "/api/events/ev/", {"status": "finished"})
    assert_error(finished, 409, "finish_from_the_event_page")
    assert not AuditEntry.objects.filter(event=event).exists()


def test_a_patch_replayed_with_its_key_changes_once() -> None:
    event = make_event("ev")
    client = user_client(factories.make_director(event, "boss"))
    first = send(client, "patch", "/api/events/ev/", {"venue": "Hall"}, Idempotency_Key="p1")
    again = send(client, "patch", "/api/events/ev/", {"venue": "Hall"}, Idempotency_Key="p1")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again["ETag"] == first["ETag"]
    assert AuditEntry.objects.filter(action="event.update").count() == 1
    assert IdempotencyRecord.objects.filter(key="p1").count() == 1


def test_publishing_takes_the_status_steps_the_pages_take() -> None:
    event = factories.make_event("ev", status=Event.Status.DRAFT)
    client = user_client(factories.make_director(event, "boss"))
    opened = send(client, "post", "/api/events/ev/publish/", {})
    assert opened.status_code == 200 and opened.json()["status"] == "registration"
    audit = AuditEntry.objects.get(event=event, action="event.update")
    assert audit.after == {"status": "registration"}
    assert APIClient().get("/api/events/ev/").status_code == 200  # public now
    running = send(client, "post", "/api/events/ev/publish/", {"status": "running"})
    assert running.json()["status"] == "running"
    assert_error(
        send(client, "post", "/api/events/ev/publish/", {"status": "open"}), 400, "invalid"
    )
    stale = send(client, "post", "/api/events/ev/publish/", {}, If_Match=opened["ETag"])
    assert_error(stale, 412, "stale_version")
    # With rounds, finishing is "Finish the event": refused until the event is decided.
    make_round(event)
    unfinished = send(client, "post", "/api/events/ev/publish/", {"status": "finished"})
    assert_error(unfinished, 409, "main_rounds_open")
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_finishing_an_event_without_rounds_is_a_status_step() -> None:
    event = factories.make_event("ev", status=Event.Status.REGISTRATION)
    client = user_client(factories.make_director(event, "boss"))
    done = send(
        client, "post", "/api/events/ev/publish/", {"status": "finished"}, Idempotency_Key="f"
    )
    again = send(
        client, "post", "/api/events/ev/publish/", {"status": "finished"}, Idempotency_Key="f"
    )
    assert done.status_code == again.status_code == 200 and done.json()["status"] == "finished"
    assert again["Idempotent-Replayed"] == "true"
    assert AuditEntry.objects.filter(event=event, action="event.update").count() == 1


def test_the_audit_log_reads_newest_first_in_sentences_filtered_and_paged() -> None:
    event = make_event("ev", status=Event.Status.REGISTRATION)
    boss = factories.make_director(event, "boss")
    client = user_client(boss)
    send(client, "patch", "/api/events/ev/", {"venue": "Hall"})
    added = send(
        client, "post", "/api/events/ev/entries/", {"players": [{"name": "A"}, {"name": "B"}]}
    )
    entry = added.json()["id"]
    send(client, "post", f"/api/events/ev/entries/{entry}/check-in/", {})
    log = client.get("/api/events/ev/audit/").json()
    assert [x["action"] for x in log["results"]] == [
        "entry.check_in",
        "entry.register",
        "event.update",
    ]
    first = log["results"][0]
    assert first["actor"] == "boss" and first["by"] is None
    assert first["summary"] == "boss checked in A & B"
    assert first["object_type"] == "entry" and first["object_id"] == str(entry)
    entries = client.get("/api/events/ev/audit/", {"action": "entry"}).json()
    assert [x["action"] for x in entries["results"]] == ["entry.check_in", "entry.register"]
    one = client.get("/api/events/ev/audit/", {"action": "event.update"}).json()
    assert [x["summary"] for x in one["results"]] == ["boss changed the event's settings: venue"]
    paged = client.get("/api/events/ev/audit/", {"limit": 2}).json()
    rest = client.get("/api/events/ev/audit/", {"limit": 2, "cursor": paged["next_cursor"]})
    assert [x["action"] for x in rest.json()["results"]] == ["event.update"]
    assert rest.json()["next"] is None
    assert_error(client.get("/api/events/ev/audit/", {"action": "Entry!"}), 400, "invalid")
    cursor = paged["next_cursor"]
    edited = cursor[:-1] + ("A" if cursor[-1] != "A" else "B")
    assert_error(client.get("/api/events/ev/audit/", {"cursor": edited}), 400, "invalid_cursor")


def test_a_cursor_of_one_list_is_refused_by_another() -> None:
    event = make_event("ev", status=Event.Status.REGISTRATION)
    for n in range(3):
        factories.make_event(f"open-{n}", public_listing=True)
    client = user_client(factories.make_director(event, "boss"))
    cursor = client.get("/api/events/", {"limit": 1}).json()["next_cursor"]
    assert cursor
    assert_error(client.get("/api/events/ev/audit/", {"cursor": cursor}), 400, "invalid_cursor")


def test_a_query_with_too_many_parameters_gets_the_error_body(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 20
    query = "&".join(f"reuse={n}:0" for n in range(21))
    refused = APIClient().get(f"/api/events/?{query}")
    assert_error(refused, 400, "bad_request")
    assert refused["Content-Type"] == "application/json"
