"""A director on a phone (390x844, Debian's Chromium): log in, create an event, import a CSV
(preview with a bad line, fix it, confirm), search the entries and check them in with one tap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tournaments.models import AuditEntry, Entry, Event
from tournaments.services.organisers import make_organiser

CSV_WITH_A_MISTAKE = """player_a,club_a,rating_a,player_b,club_b,rating_b,team,seed
Marcia Campbell,Brixton Fives,1610,Desmond Reid,Brixton Fives,1580,Double Six,1
Claudette Henry,Leeds Caribbean Centre,high,Winston Grant,Leeds Caribbean Centre,,,
Yvonne Forde,Moss Side Fives,,Delroy Baptiste,Moss Side Fives,,,
Paulette Okafor,Handsworth Spinners,1490,Clive Persaud,Handsworth Spinners,1502,,2
"""


def fits_the_phone(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth") <= 390)


@pytest.mark.django_db(transaction=True)
def test_a_director_registers_and_checks_in_on_a_phone(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    # A superuser made dora an organiser: only organisers create events (issue 15).
    make_organiser(user=User.objects.create_user("dora", password="dominoes-2026"))
    shot = 0

    def snap(name: str) -> None:
        nonlocal shot
        shot += 1
        assert fits_the_phone(phone), f"{name} overflows 390px"
        phone.screenshot(path=str(artifacts / f"{shot:02d}-{name}.png"), full_page=True)

    # Log in: the director pages send us to the login page first.
    phone.goto(live_server.url + "/director/")
    assert "/accounts/login/" in phone.url
    phone.get_by_label("Username").fill("dora")
    phone.get_by_label("Password").fill("dominoes-2026")
    phone.get_by_role("button", name="Log in").click()
    phone.wait_for_url("**/director/")
    snap("my-events")

    # Create an event.
    phone.get_by_role("link", name="Create an event").click()
    phone.get_by_label("Name").fill("Brixton Friday Fives")
    phone.get_by_label("Start date").fill("2026-12-11")
    phone.get_by_label("End date").fill("2026-12-11")
    phone.get_by_label("Venue").fill("Marcus Garvey Hall")
    phone.get_by_label("Status").select_option("registration")
    phone.get_by_label("Swiss rounds").fill("4")
    phone.get_by_label("Tiebreaks").fill("buchholz, spread")
    phone.get_by_label("Public listing").check()
    snap("create-event-form")
    phone.get_by_role("button", name="Create event").click()
    phone.wait_for_url("**/director/events/brixton-friday-fives/")
    assert phone.get_by_role("heading", name="Brixton Friday Fives").is_visible()
    snap("dashboard-empty")
    event = Event.objects.get(slug="brixton-friday-fives")
    assert event.tiebreaks == ["buchholz", "spread"] and event.swiss_rounds == 4

    # Import: a preview with a bad line saves nothing and keeps the text for fixing.
    phone.get_by_role("link", name="Import CSV").click()
    phone.get_by_label("Paste the CSV").fill(CSV_WITH_A_MISTAKE)
    phone.get_by_role("button", name="Preview").click()
    errors = phone.locator(".import-errors")
    errors.wait_for()
    assert "Line 3:" in errors.inner_text() and "rating_a" in errors.inner_text()
    snap("import-errors")
    assert Entry.objects.filter(event=event).count() == 0
    box = phone.get_by_label("Paste the CSV")
    box.fill(box.input_value().replace(",high,", ",1420,"))
    phone.get_by_role("button", name="Check again").click()
    preview = phone.locator(".import-preview")
    preview.wait_for()
    assert "4 entries to create" in preview.inner_text()
    snap("import-preview")
    assert Entry.objects.filter(event=event).count() == 0
    phone.get_by_role("button", name="Import 4 entries").click()
    phone.wait_for_url("**/director/events/brixton-friday-fives/entries/")
    assert "Imported 4 entries" in phone.locator(".messages").inner_text()
    assert Entry.objects.filter(event=event).count() == 4
    snap("entries-imported")

    # Search as you type, then check in with one tap (htmx swaps the row).
    phone.get_by_label("Find a team or player").press_sequentially("okaf", delay=30)
    rows = phone.locator("#entry-rows > li.entry-row")
    expect(phone.locator("#entry-rows > li.entry-row")).to_have_count(1)
    assert "Paulette Okafor" in rows.first.inner_text()
    phone.get_by_role("button", name="Check in Paulette Okafor & Clive Persaud").click()
    phone.locator("#entry-rows li.entry-row.checked_in").wait_for()
    snap("checked-in-one")
    assert "/entries/?q=okaf" in phone.url

    phone.get_by_label("Find a team or player").fill("")
    expect(phone.locator("#entry-rows > li.entry-row")).to_have_count(4)
    phone.get_by_role("button", name="Check in Double Six").click()
    phone.locator("#entry-rows li.entry-row.checked_in").nth(1).wait_for()
    assert phone.locator("#checked-count").inner_text() == "2 of 4 checked in"
    snap("checked-in-two")

    statuses = dict(Entry.objects.filter(event=event).values_list("name", "status"))
    assert statuses["Double Six"] == Entry.Status.CHECKED_IN
    assert statuses["Paulette Okafor & Clive Persaud"] == Entry.Status.CHECKED_IN
    assert sorted(statuses.values()).count(Entry.Status.REGISTERED) == 2
    assert AuditEntry.objects.filter(event=event, action="entry.check_in").count() == 2

    # The dashboard counts them; the public page shows the event without contact details.
    phone.get_by_role("link", name="Desk").click()
    assert phone.locator("#count-checked-in").inner_text() == "2"
    snap("dashboard")
    phone.goto(live_server.url + "/events/brixton-friday-fives/")
    assert event.salt in phone.content()
    snap("public-event")
