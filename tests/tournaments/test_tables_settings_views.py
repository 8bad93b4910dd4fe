"""The director's pages for individual events at tables of 3 or 4: the settings form (its
refusals say what to fix and keep what was typed), the pairs kept apart on the entries page, and
the review of a round at tables of many; the same settings through the API's service."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests import factories
from tests.tournaments.api_support import assert_error, key, private_cache, user_client
from tests.tournaments.test_registration_views import event_form
from tournaments.errors import Conflict, NotFound, ValidationFailed
from tournaments.models import AuditEntry, Entry, EntryAvoidance, Event
from tournaments.services import avoidances, round_generation
from tournaments.services import events as event_services
from tournaments.services.organisers import make_organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss() -> User:
    user = User.objects.create_user(username="dana", password="pw-for-tests-123")
    make_organiser(user=user)  # only organisers create events
    return user


def client(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


def individual(**overrides: Any) -> dict[str, Any]:
    return event_form(
        **{
            "name": "Club Night",
            "rules": "all-fives",
            "entry_kind": "single",
            "table_size": "4",
            "mixed_table_sizes": "on",
            "table_confirmation": "majority",
            "placing_points": "5,3,1,0; 4,2,0",
            "avoid_same_club": "on",
            "playoff": "none",
            **overrides,
        }
    )


def test_an_individual_event_at_tables_of_four_through_the_form(boss: User) -> None:
    response = client(boss).post("/director/events/new/", individual())
    assert response.status_code == 302, response.context["form"].errors
    event = Event.objects.get(name="Club Night")
    assert (event.table_size, event.mixed_table_sizes, event.avoid_same_club) == (4, True, True)
    assert event.placing_points == {"4": [5, 3, 1, 0], "3": [4, 2, 0]}
    assert event.table_confirmation == "majority"
    page = client(boss).get(f"/director/events/{event.slug}/edit/").content.decode()
    assert 'value="5,3,1,0; 4,2,0"' in page


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"entry_kind": "partnership"}, "table_size", "individual players"),
        ({"format": "round_robin"}, "table_size", "Swiss rounds"),
        ({"hand_size": "9"}, "hand_size", "4 players"),
        ({"placing_points": "1,2,4"}, "placing_points", "from 1st place down"),
        ({"placing_points": "4,2,1,0,0"}, "placing_points", "5 numbers"),
        ({"placing_points": "proportional"}, "placing_points", "proportional 10"),
    ],
)
def test_settings_that_cannot_apply_say_what_to_fix(
    boss: User, overrides: dict[str, str], field: str, words: str
) -> None:
    response = client(boss).post("/director/events/new/", individual(**overrides))
    assert response.status_code == 200
    form = response.context["form"]
    assert words in " ".join(form.errors[field])
    assert form["name"].value() == "Club Night"  # nothing typed is lost
    assert not Event.objects.exists()


def test_the_service_refuses_api_placing_points_and_locks_the_table_size(boss: User) -> None:
    event = factories.make_event("night", rules="all-fives", entry_kind="single", table_size=3)
    with pytest.raises(ValidationFailed) as caught:
        event_services.update_event(actor=boss, event=event, placing_points={"4": [4, 2, 1]})
    assert caught.value.code == "invalid_placing_points"
    assert "needs 4 numbers" in caught.value.details["errors"]["placing_points"]
    updated = event_services.update_event(
        actor=boss, event=event, placing_points={"proportional": 12}
    )
    assert updated.placing_points == {"proportional": 12}
    for i in range(3):
        factories.make_entry(event, f"P{i}", status=Entry.Status.CHECKED_IN)
    round_generation.generate_round(event=event, actor=boss)
    with pytest.raises(Conflict) as locked:
        event_services.update_event(actor=boss, event=event, table_size=4)
    assert locked.value.code == "locked_after_start"


def test_pairs_kept_apart_from_the_entries_page(boss: User) -> None:
    event = factories.make_event("night", entry_kind="single")
    event.directors.add(boss)
    ann, bea, cid = (factories.make_entry(event, name) for name in ("Ann", "Bea", "Cid"))
    other = factories.make_entry(factories.make_event("elsewhere"), "Dot")
    url = f"/director/events/{event.slug}/entries/"
    page = client(boss).get(url).content.decode()
    assert "Keep apart" in page and "No pair is kept apart yet." in page
    response = client(boss).post(
        url + "apart/", {"entry_x": bea.pk, "entry_y": ann.pk, "note": "sisters"}
    )
    assert response.status_code == 302
    pair = EntryAvoidance.objects.get()
    assert (pair.entry_a_id, pair.entry_b_id, pair.note) == (ann.pk, bea.pk, "sisters")
    page = client(boss).get(url).content.decode()
    assert "sisters" in page
    assert (
        "asked to keep Ann and Bea apart"
        in client(boss).get(f"/director/events/{event.slug}/audit/").content.decode()
    )
    # refusals: the page again, what was typed kept, the reason said
    for data, words in (
        ({"entry_x": ann.pk, "entry_y": ann.pk, "note": "twice"}, "two different entries"),
        ({"entry_x": ann.pk, "entry_y": other.pk, "note": "other"}, "not an entry of"),
        ({"entry_x": bea.pk, "entry_y": ann.pk, "note": "again"}, "already kept apart"),
        ({"entry_x": "", "entry_y": cid.pk, "note": "none"}, "Choose the two entries"),
    ):
        refused = client(boss).post(url + "apart/", data)
        body = refused.content.decode()
        assert refused.status_code == 400 and words in body, body[-3000:]
        assert f'value="{data["note"]}"' in body
    assert EntryAvoidance.objects.count() == 1
    client(boss).post(url + f"apart/{pair.pk}/remove/")
    assert not EntryAvoidance.objects.exists()
    assert AuditEntry.objects.filter(action="entry.avoid_remove").count() == 1
    with pytest.raises(NotFound):
        avoidances.remove_avoidance(actor=boss, event=event, avoidance_id=pair.pk)


def test_the_review_page_shows_every_seat_and_the_reasons(boss: User) -> None:
    event = factories.make_event(
        "night", rules="all-fives", entry_kind="single", table_size=4, salt="review-salt"
    )
    event.directors.add(boss)
    names = [f"Player {i:02d}" for i in range(1, 11)]
    for name in names:
        factories.make_entry(event, name, status=Entry.Status.CHECKED_IN)
    rnd = round_generation.generate_round(event=event, actor=boss)
    page = client(boss).get(f"/director/events/{event.slug}/rounds/{rnd.number}/").content.decode()
    assert all(name in page for name in names)
    assert page.count('class="card match table-of-many"') == 3
    assert "Seat order drawn by lot" in page and "Repeat meetings" in page
    assert "The checker finds no violation." in page


def test_the_review_of_tables_of_many_in_spanish(boss: User) -> None:
    event = factories.make_event(
        "noche", rules="all-fives", entry_kind="single", table_size=4, mixed_table_sizes=False
    )
    event.directors.add(boss)
    for i in range(1, 10):
        factories.make_entry(event, f"Jugador {i}", status=Entry.Status.CHECKED_IN)
    rnd = round_generation.generate_round(event=event, actor=boss)
    c = client(boss)
    page = c.get(
        f"/director/events/{event.slug}/rounds/{rnd.number}/", HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "grupo de puntuación 0: puestos 1, 2, 3, 4" in page
    assert "jugadores en mesas de 4: descansan 1" in page  # 9 at tables of 4 only: one bye
    assert "Orden de asientos sorteado con la sal del torneo." in page
    entries = c.get(f"/director/events/{event.slug}/entries/", HTTP_ACCEPT_LANGUAGE="es")
    assert "Mantener separados" in entries.content.decode()


def test_the_api_sets_up_tables_of_three_and_refuses_what_cannot_apply(settings: Any) -> None:
    with private_cache(settings):
        tables_through_the_api()


def tables_through_the_api() -> None:
    org = User.objects.create_user(username="org")
    make_organiser(user=org)
    api = user_client(org)
    new = {"name": "Cutthroat", "start_date": "2026-04-11", "end_date": "2026-04-11"}

    def post(body: dict[str, Any]) -> Any:
        return api.post("/api/events/", body, format="json", HTTP_IDEMPOTENCY_KEY=key())

    partnership = post({**new, "table_size": 3})  # partnership by default
    error = assert_error(partnership, 400, "table_size_needs_individuals")
    assert "individual players" in error["message"]
    upside_down = post({**new, "entry_kind": "single", "placing_points": {"3": [0, 2, 4]}})
    assert_error(upside_down, 400, "invalid_placing_points")
    made = post(
        {
            **new,
            "rules": "all-fives",
            "entry_kind": "single",
            "table_size": 3,
            "mixed_table_sizes": False,
            "placing_points": {"3": [3, 1, 0]},
            "table_confirmation": "majority",
            "avoid_same_club": True,
        }
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["table_size"], body["mixed_table_sizes"], body["placing_points"]) == (
        3,
        False,
        {"3": [3, 1, 0]},
    )
    assert body["table_confirmation"] == "majority" and body["avoid_same_club"] is True
