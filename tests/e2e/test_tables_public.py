"""Tables of three and four on a phone (issue 13), in Chromium at 390x844: the round page with
every seat, score and place, "find my table" as the player types a tablemate's name, the entry's
page, the match page and "my table" for a player in seat 3, in English and in Spanish; nothing
scrolls sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.tournaments.follow_support import private_cache
from tests.tournaments.public_tables_support import Night

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    private_cache(settings)


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.django_db(transaction=True)
def test_tables_of_many_on_a_phone(live_server: Any, phone: Any, artifacts: Path) -> None:
    night = Night()
    base = f"{live_server.url}/events/{night.event.slug}"

    phone.goto(f"{base}/rounds/1/")
    tables = phone.locator("li.match.many")
    expect(tables).to_have_count(4)
    table2 = phone.locator("#table-2 li.seat")
    expect(table2).to_have_count(4)
    expect(table2.nth(1)).to_contain_text("East")
    expect(table2.nth(1)).to_contain_text("Finn Walsh")
    expect(table2.nth(1).locator(".badge.placing")).to_have_text("=2nd")
    expect(phone.locator("#table-3 li.seat").nth(0).locator(".seat-score")).to_have_text("192.5")
    # the score and the place stay on the seat's line at 390 px
    line = table2.nth(1).bounding_box()
    badge = table2.nth(1).locator(".badge.placing").bounding_box()
    assert line is not None and badge is not None and badge["y"] < line["y"] + line["height"]
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "1-round.png"), full_page=True)

    # Find my table: a tablemate's name, typed as a tired player would (lower case, no accent).
    phone.get_by_label("Find my table").fill("hugo")
    expect(phone.locator("li.match.many")).to_have_count(1)
    expect(phone.locator("li.match.many .table-no")).to_contain_text("2")
    phone.get_by_label("Find my table").fill("nobody here")
    expect(phone.get_by_role("status")).to_contain_text("No table for")
    phone.screenshot(path=str(artifacts / "2-find-nothing.png"), full_page=True)

    gia = night.players[6]
    phone.goto(f"{base}/teams/{gia.pk}/")
    rows = phone.locator("ol.history > li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("South")
    expect(rows.nth(0).locator(".badge.placing")).to_have_text("=2nd")
    expect(rows.nth(0).locator(".tablemates li")).to_have_count(3)
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "3-entry.png"), full_page=True)

    phone.goto(f"{base}/matches/{night.t1[0].pk}/")
    expect(phone.locator(".match-head.many li.seat")).to_have_count(4)
    expect(phone.locator("ol.hands > li").first).to_contain_text("Led by")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "4-match.png"), full_page=False)

    # My table for Lea Novak (seat 3 of round 2's table 1).
    phone.goto(f"{base}/me/")
    phone.get_by_label("Your name").fill("lea novak")
    phone.get_by_role("button", name="Search").click()
    phone.get_by_role("button", name="Follow Lea Novak").click()
    live = phone.locator("#my-table")
    expect(live.locator(".my-seats li")).to_have_count(4)
    expect(live.locator(".my-seats li.mine")).to_contain_text("West")
    expect(live).to_contain_text("with Ana Ortiz, Eve Moreau, Ines Costa")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "5-my-table.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_tables_of_many_in_spanish(live_server: Any, spanish_phone: Any, artifacts: Path) -> None:
    night = Night()
    spanish_phone.goto(f"{live_server.url}/events/{night.event.slug}/rounds/1/")
    seats = spanish_phone.locator("#table-2 li.seat")
    expect(seats.nth(0)).to_contain_text("Norte")
    expect(seats.nth(0).locator(".badge.placing")).to_have_text("1.º")
    expect(seats.nth(2).locator(".badge.placing")).to_have_text("=2.º")
    expect(spanish_phone.locator("#table-3 .size")).to_have_text("3 jugadores")
    no_sideways_scroll(spanish_phone)
    spanish_phone.screenshot(path=str(artifacts / "round-es.png"), full_page=True)
