"""The entries API (issue 19): register (late entries too), list and search, edit, check in,
withdraw and reinstate, and the CSV import with its preview, through HTTP; each write the
pages' service with its audit entry, error codes, If-Match versions and Idempotency-Keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests import factories
from tests.tournaments.api_support import assert_error, key, private_cache, user_client
from tests.tournaments.players_support import entry_of, make_player
from tests.tournaments.results_support import make_round
from tournaments.models import AuditEntry, Entry, Event, Player

pytestmark = pytest.mark.django_db

URL = "/api/events/ev/entries/"


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Iterator[None]:
    with private_cache(settings):
        yield


@pytest.fixture
def event() -> Event:
    return factories.make_event("ev", status=Event.Status.REGISTRATION)


@pytest.fixture
def client(event: Event) -> APIClient:
    return user_client(factories.make_director(event, "boss"))


def send(client: APIClient, method: str, url: str, data: Any = None, **headers: str) -> Any:
    """A JSON write with a fresh idempotency key unless one is given."""
    extra = {"HTTP_IDEMPOTENCY_KEY": key()}
    for name, value in headers.items():
        extra["HTTP_" + name.upper().replace("-", "_")] = value
    return getattr(client, method)(url, data, format="json", **extra)


def csv(client: APIClient, text: str | bytes, query: str = "", **headers: str) -> Any:
    extra = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()}
    return client.post(URL + "import/" + query, data=text, content_type="text/csv", **extra)


def pair(a: str, b: str, **more: Any) -> dict[str, Any]:
    return {"players": [{"name": a}, {"name": b}], **more}


def test_register_an_entry_by_name_and_club_or_a_known_players_id(
    event: Event, client: APIClient
) -> None:
    known = make_player("Bo Lee", "Sevilla")  # with a public record: a listed event's entry
    entry_of(factories.make_event("older", public_listing=True), "Old", known, make_player("Zed"))
    body = {
        "players": [
            {"name": " Ana  Ramírez ", "club": "Sevilla", "rating": 1500},
            {"id": known.pk},
        ],
        "team": "Aces",
        "seed": 3,
    }
    made = send(client, "post", URL, body)
    assert made.status_code == 201, made.content
    answer = made.json()
    assert answer["name"] == "Aces" and answer["seed"] == 3 and answer["late"] is False
    assert answer["status"] == "registered"
    assert [p["name"] for p in answer["players"]] == ["Ana Ramírez", "Bo Lee"]
    assert answer["players"][1]["id"] == known.pk
    assert made["Location"] == f"{URL}{answer['id']}/"
    assert made["ETag"] == f'"{answer["version"]}"'
    ana = Player.objects.get(name="Ana Ramírez")
    assert ana.rating == 1500 and ana.club == "Sevilla"
    audit = AuditEntry.objects.get(event=event, action="entry.register")
    assert audit.after["players"] == [ana.pk, known.pk] and audit.after["seed"] == 3
    # The same name and club is the same player: already entered.
    ana_again = {"players": [{"name": "Ana Ramírez", "club": "Sevilla"}, {"name": "Cy Diaz"}]}
    assert_error(send(client, "post", URL, ana_again), 409, "player_already_entered")


def test_registration_refusals_have_the_services_codes(event: Event, client: APIClient) -> None:
    assert_error(
        send(client, "post", URL, {"players": [{"name": "Solo"}]}), 400, "wrong_player_count"
    )
    assert_error(send(client, "post", URL, pair("Ann", " Ann ")), 400, "same_player_twice")
    hidden = make_player("Hidden")  # in no event the director may see
    unseen = send(client, "post", URL, {"players": [{"name": "Ann"}, {"id": hidden.pk}]})
    assert assert_error(unseen, 400, "player_not_found")["details"] == {
        "players": {"1": "No such player."}
    }
    both = send(client, "post", URL, {"players": [{"id": 1, "name": "x"}, {"name": "y"}]})
    assert_error(both, 400, "invalid")
    assert_error(send(client, "post", URL, pair("A", "B", late=True)), 409, "no_rounds_yet")
    factories.make_entry(event, "Seeded", seed=4)
    assert_error(send(client, "post", URL, pair("C", "D", seed=4)), 409, "seed_taken")
    assert Entry.objects.filter(event=event).count() == 1
    assert not Player.objects.filter(name__in=["Ann", "A", "C"]).exists()


def test_late_entries_once_rounds_exist(event: Event, client: APIClient) -> None:
    make_round(event)
    assert_error(send(client, "post", URL, pair("New", "Comer")), 409, "rounds_started")
    late = send(client, "post", URL, pair("New", "Comer", late=True))
    assert late.status_code == 201 and late.json()["late"] is True
    assert AuditEntry.objects.filter(event=event, action="entry.register_late").count() == 1


def test_one_key_registers_once(event: Event, client: APIClient) -> None:
    first = send(client, "post", URL, pair("A", "B"), Idempotency_Key="reg-1")
    again = send(client, "post", URL, pair("A", "B"), Idempotency_Key="reg-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Entry.objects.filter(event=event).count() == 1
    other = send(client, "post", URL, pair("C", "D"), Idempotency_Key="reg-1")
    assert_error(other, 422, "idempotency_mismatch")


def test_the_list_filters_by_status_and_name_a_page_at_a_time(
    event: Event, client: APIClient
) -> None:
    for name in ("Delta", "alpha", "Charlie", "Bravo", "Echo"):
        factories.make_entry(event, name, players=(f"{name} one", f"{name} two"))
    Entry.objects.filter(name="Charlie").update(status=Entry.Status.CHECKED_IN)
    names: list[str] = []
    url: str | None = URL + "?limit=2"
    while url:
        page = client.get(url).json()
        names += [e["name"] for e in page["results"]]
        url = page["next"]
    assert sorted(names) == sorted(["Delta", "alpha", "Charlie", "Bravo", "Echo"])
    assert len(names) == 5
    checked = client.get(URL, {"status": "checked_in"}).json()["results"]
    assert [e["name"] for e in checked] == ["Charlie"]
    found = client.get(URL, {"q": "ECHO ON"}).json()["results"]
    assert [e["name"] for e in found] == ["Echo"]
    assert [p["name"] for p in found[0]["players"]] == ["Echo one", "Echo two"]
    assert_error(client.get(URL, {"status": "present"}), 400, "invalid")


def test_edit_name_seed_and_pinned_table_each_audited(event: Event, client: APIClient) -> None:
    entry = factories.make_entry(event, "Aces")
    url = f"{URL}{entry.pk}/"
    read = client.get(url)
    assert read.status_code == 200 and read.json()["name"] == "Aces"
    body = {"name": "Aces High", "seed": 2, "pinned_table": 1, "reason": "Step-free access"}
    edited = send(client, "patch", url, body, If_Match=read["ETag"])
    assert edited.status_code == 200, edited.content
    assert {k: edited.json()[k] for k in ("name", "seed", "pinned_table")} == {
        "name": "Aces High",
        "seed": 2,
        "pinned_table": 1,
    }
    actions = dict(AuditEntry.objects.filter(event=event).values_list("action", "after"))
    assert actions == {
        "entry.rename": {"name": "Aces High"},
        "entry.set_seed": {"seed": 2},
        "entry.pin_table": {"pinned_table": 1},
    }
    assert AuditEntry.objects.get(action="entry.pin_table").reason == "Step-free access"
    stale = send(client, "patch", url, {"seed": 3}, If_Match=read["ETag"])
    assert_error(stale, 412, "stale_version")
    unpinned = send(client, "patch", url, {"pinned_table": None}, If_Match=edited["ETag"])
    assert unpinned.status_code == 200 and unpinned.json()["pinned_table"] is None
    assert_error(send(client, "patch", url, {"reason": "why"}), 400, "invalid")


def test_a_failed_edit_keeps_nothing_of_it(event: Event, client: APIClient) -> None:
    entry = factories.make_entry(event, "Aces")
    factories.make_entry(event, "Kings", seed=1)
    refused = send(client, "patch", f"{URL}{entry.pk}/", {"name": "Renamed", "seed": 1})
    assert_error(refused, 409, "seed_taken")
    entry.refresh_from_db()
    assert entry.name == "Aces" and entry.seed is None
    assert not AuditEntry.objects.filter(event=event).exists()
    assert_error(client.get(f"{URL}999999/"), 404, "entry_not_found")


def test_an_edit_replayed_with_its_key_changes_once(event: Event, client: APIClient) -> None:
    entry = factories.make_entry(event, "Aces")
    url = f"{URL}{entry.pk}/"
    first = send(client, "patch", url, {"seed": 5}, Idempotency_Key="seed-5")
    again = send(client, "patch", url, {"seed": 5}, Idempotency_Key="seed-5")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again["ETag"] == first["ETag"]
    assert AuditEntry.objects.filter(action="entry.set_seed").count() == 1


def test_check_in_undo_withdraw_reinstate_as_the_list_buttons(
    event: Event, client: APIClient
) -> None:
    entry = factories.make_entry(event, "Aces")
    url = f"{URL}{entry.pk}/"
    checked = send(client, "post", url + "check-in/", {}, Idempotency_Key="in-1")
    assert checked.status_code == 200 and checked.json()["status"] == "checked_in"
    assert checked.json()["checked_in_at"] is not None
    replay = send(client, "post", url + "check-in/", {}, Idempotency_Key="in-1")
    assert replay.status_code == 200 and replay["Idempotent-Replayed"] == "true"
    assert_error(send(client, "post", url + "check-in/", {}), 409, "already_checked_in")
    undone = send(client, "post", url + "undo-check-in/", {})
    assert undone.json()["status"] == "registered"
    assert_error(send(client, "post", url + "undo-check-in/", {}), 409, "not_checked_in")
    gone = send(client, "post", url + "withdraw/", {"reason": "Unwell"})
    assert gone.json()["status"] == "withdrawn" and gone.json()["withdrawn_at"]
    assert_error(send(client, "post", url + "check-in/", {}), 409, "entry_withdrawn")
    assert_error(send(client, "post", url + "withdraw/", {}), 409, "already_withdrawn")
    back = send(client, "post", url + "reinstate/", {"reason": "Better"})
    assert back.json()["status"] == "registered"
    assert_error(send(client, "post", url + "reinstate/", {}), 409, "not_withdrawn")
    log = AuditEntry.objects.filter(event=event).order_by("pk")
    assert [(a.action, a.reason) for a in log] == [
        ("entry.check_in", ""),
        ("entry.undo_check_in", ""),
        ("entry.withdraw", "Unwell"),
        ("entry.reinstate", "Better"),
    ]
    assert_error(send(client, "post", url + "check-in/", {"reason": "x"}), 400, "invalid")
    assert_error(send(client, "post", url + "teleport/", {}), 404, "not_found")


PARTNERS = "player_a,club_a,player_b,club_b,team,seed\nAna,Sevilla,Bo,Sevilla,Aces,1\nCy,,Di,,,\n"


def test_the_import_previews_as_a_dry_run_then_imports_all_lines(
    event: Event, client: APIClient
) -> None:
    preview = csv(client, PARTNERS, "?dry_run=1")
    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert body["ok"] is True and body["errors"] == [] and body["warnings"] == []
    assert [(r["line"], r["team"], r["seed"]) for r in body["rows"]] == [
        (2, "Aces", 1),
        (3, "", None),
    ]
    assert body["rows"][0]["players"][0] == {
        "name": "Ana",
        "club": "Sevilla",
        "rating": None,
        "known": False,
        "offer": None,
        "offer_key": "2:0",
    }
    assert not Entry.objects.filter(event=event).exists()
    done = csv(client, PARTNERS, Idempotency_Key="imp-1")
    assert done.status_code == 201, done.content
    assert done.json()["created"] == 2
    assert sorted(e["name"] for e in done.json()["entries"]) == ["Aces", "Cy & Di"]
    replay = csv(client, PARTNERS, Idempotency_Key="imp-1")
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert Entry.objects.filter(event=event).count() == 2
    assert AuditEntry.objects.filter(event=event, action="entries.import").count() == 1


def test_a_bad_import_reports_each_line_and_saves_nothing(event: Event, client: APIClient) -> None:
    text = "Ana,,Bo,,,x\nAna,,Cy,,,\n,,Di,,,\n"
    preview = csv(client, text, "?dry_run=1").json()
    assert preview["ok"] is False
    assert [e["line"] for e in preview["errors"]] == [1, 2, 3]
    refused = csv(client, text)
    body = assert_error(refused, 400, "import_invalid")
    assert body["details"]["errors"] == preview["errors"]
    assert not Entry.objects.filter(event=event).exists()
    assert not Player.objects.exists()


def test_the_import_reads_excel_text_accepts_offers_and_closes_with_rounds(
    event: Event, client: APIClient
) -> None:
    jose = make_player("José Ramírez")
    text = "player_a,player_b\nJose Ramirez,Eve\n"
    preview = csv(client, text.encode("utf-16"), "?dry_run=1").json()
    offer = preview["rows"][0]["players"][0]
    assert offer["offer"] == {"id": jose.pk, "name": "José Ramírez", "club": ""}
    done = csv(client, text.encode("utf-16"), f"?reuse={offer['offer_key']}")
    assert done.status_code == 201, done.content
    assert done.json()["entries"][0]["players"][0]["id"] == jose.pk
    assert_error(csv(client, text, "?reuse=line-2"), 400, "invalid")
    as_json = send(client, "post", URL + "import/", {"csv": text})
    assert_error(as_json, 415, "unsupported_media_type")
    make_round(event)
    assert_error(csv(client, "Ann,Bea\n"), 409, "rounds_started")


def test_another_events_director_and_a_table_get_nothing(event: Event) -> None:
    entry = factories.make_entry(event, "Aces")
    other = factories.make_event("other")
    stranger = user_client(factories.make_director(other, "stranger"))
    assert_error(stranger.get(URL), 404, "not_found")
    assert_error(send(stranger, "post", f"{URL}{entry.pk}/check-in/", {}), 404, "not_found")
    assert_error(APIClient().get(URL), 401, "not_authenticated")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_the_lists_read_a_fixed_number_of_queries_however_long(
    event: Event, client: APIClient
) -> None:
    urls = (URL, "/api/events/ev/audit/", "/api/events/")

    def counts() -> list[int]:
        found = []
        for url in urls:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            found.append(len(queries))
        return found

    first = send(client, "post", URL, pair("A", "B")).json()["id"]
    send(client, "post", f"{URL}{first}/check-in/", {})
    few = counts()
    for n in range(6):
        made = send(client, "post", URL, pair(f"P{n}", f"Q{n}")).json()["id"]
        send(client, "post", f"{URL}{made}/check-in/", {})
    assert counts() == few, few


def test_one_key_with_other_parameters_is_another_request(event: Event, client: APIClient) -> None:
    make_player("José Ramírez")
    text = "player_a,player_b\nJose Ramirez,Eve\n"
    first = csv(client, text, "?reuse=2:0", Idempotency_Key="imp")
    assert first.status_code == 201
    other = csv(client, text, "?reuse=2:1", Idempotency_Key="imp")
    assert_error(other, 422, "idempotency_mismatch")
