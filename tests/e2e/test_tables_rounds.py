"""In Chromium at 390x844: a director sets up an individual All Fives event at tables of 4 (and
3), tries wrong placing points, names a pair to keep apart (trying the same player twice first),
generates round 1 and reviews its tables of many, every seat shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests import factories
from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll

__all__ = ["clean_teardown"]


def shot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_director_sets_up_tables_of_four_and_reviews_round_one(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    from django.contrib.auth.models import User

    from tournaments.models import Entry, EntryAvoidance, Event, Round, RoundSeat
    from tournaments.services.organisers import make_organiser

    user = User.objects.create_user(username="dana", password="pw-for-tests-123")
    make_organiser(user=user)

    phone.goto(f"{live_server.url}/director/events/new/")
    phone.get_by_label("Username").fill("dana")
    phone.get_by_label("Password").fill("pw-for-tests-123")
    phone.get_by_role("button", name="Log in").click()
    phone.locator("#id_name").fill("Club Night Cutthroat")
    phone.locator("#id_start_date").fill("2027-03-06")
    phone.locator("#id_end_date").fill("2027-03-06")
    phone.locator("#id_rules").select_option("all-fives")
    phone.locator("#id_entry_kind").select_option("single")
    phone.locator("#id_table_size").select_option("4")
    phone.locator("#id_playoff").select_option("none")
    phone.locator("#id_avoid_same_club").check()
    # a tired director types the points upside down
    phone.locator("#id_placing_points").fill("0,1,2,4")
    phone.get_by_role("button", name="Create event").click()
    error = phone.get_by_text("gives a lower place more points than a higher one")
    error.wait_for()
    assert phone.locator("#id_name").input_value() == "Club Night Cutthroat"
    no_sideways_scroll(phone)
    error.scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "1-placing-points-refused.png"))
    phone.locator("#id_placing_points").fill("4,2,1,0; 4,2,0")
    phone.get_by_role("button", name="Create event").click()
    phone.get_by_role("heading", name="Club Night Cutthroat").wait_for()
    event = Event.objects.get(name="Club Night Cutthroat")
    assert (event.table_size, event.mixed_table_sizes, event.avoid_same_club) == (4, True, True)

    # ten players checked in (two of them of one club), registered at the desk beforehand
    names = [
        "Ana Ruiz",
        "Bea Ruiz",
        "Carlos Vega",
        "Dora Lind",
        "Eli Moss",
        "Fran Soto",
        "Gus Kerr",
        "Hana Ito",
        "Ivan Petrov",
        "Juno Park",
    ]
    for i, name in enumerate(names):
        club = "Domino Club Sur" if i in (2, 3) else ""
        factories.make_entry(event, name, club=club, status=Entry.Status.CHECKED_IN)

    phone.goto(f"{live_server.url}/director/events/{event.slug}/entries/")
    phone.get_by_label("Keep", exact=True).select_option(label="Ana Ruiz")
    phone.get_by_label("apart from").select_option(label="Ana Ruiz")
    phone.get_by_label("Note (optional, e.g. “sisters”)").fill("sisters")
    phone.get_by_role("button", name="Keep them apart").click()
    refused = phone.get_by_text("Choose two different entries to keep apart.")
    refused.wait_for()
    assert phone.get_by_label("Note (optional, e.g. “sisters”)").input_value() == "sisters"
    refused.scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "2-same-entry-refused.png"))
    phone.get_by_label("apart from").select_option(label="Bea Ruiz")
    phone.get_by_role("button", name="Keep them apart").click()
    phone.get_by_text("Ana Ruiz and Bea Ruiz are kept apart from the next round.").wait_for()
    assert EntryAvoidance.objects.filter(event=event).count() == 1
    no_sideways_scroll(phone)
    phone.locator("#apart-section").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "3-pair-kept-apart.png"))

    phone.goto(f"{live_server.url}/director/events/{event.slug}/rounds/")
    phone.get_by_role("button", name="Generate the next round").click()
    phone.get_by_role("heading", name="Round 1").wait_for()
    assert phone.get_by_text("The checker finds no violation.").is_visible()
    assert phone.locator("ol.pairings > li.table-of-many").count() == 3  # 4 + 3 + 3
    assert phone.locator("ol.pairings ol.seats > li").count() == 10
    no_sideways_scroll(phone)
    shot(phone, artifacts, "4-round-one-review")
    rnd = Round.objects.get(event=event, number=1)
    tables: dict[int, set[str]] = {}
    for seat in RoundSeat.objects.filter(round=rnd).select_related("entry"):
        tables.setdefault(seat.match_id, set()).add(seat.entry.name)
    for at_table in tables.values():
        assert not {"Ana Ruiz", "Bea Ruiz"} <= at_table
        assert not {"Carlos Vega", "Dora Lind"} <= at_table
    phone.get_by_text("How this round was made").click()
    phone.get_by_text("Repeat meetings", exact=True).wait_for()
    shot(phone, artifacts, "5-how-it-was-made")
    phone.get_by_role("button", name="Publish round 1").click()
    phone.get_by_role("button", name="Yes, publish round 1").click()
    phone.get_by_text("Round 1 is published.").wait_for()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
