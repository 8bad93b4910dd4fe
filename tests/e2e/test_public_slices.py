"""In Chromium at 390x844, public pages kept as documents (tournaments/documents.py) and served in
slices (presenters/paging.py): a long round shows its first tables, the next ones arrive as the
reader scrolls, any slice is one tap away, and "find my table" finds a table in any slice; long
standings come a hundred places at a time with "find my team"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tests.tournaments.follow_support import make_followed_event, match_of, publish_next_round
from tournaments.presenters import paging
from tournaments.services.standings import recompute_standings
from tournaments.views import rounds as round_views

pytestmark = pytest.mark.browser

__all__ = ["clean_teardown"]


@pytest.mark.django_db(transaction=True)
def test_a_long_round_and_long_standings_on_a_phone(
    live_server: Any,
    phone: Any,
    artifacts: Path,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    clean_teardown: None,
) -> None:
    settings.SPINNER_PUBLIC_DOCUMENTS = True
    monkeypatch.setattr(round_views, "PER_PAGE", 4)
    monkeypatch.setattr(paging, "ROWS_PER_PAGE", 5)
    field = make_followed_event("hall", teams=23)  # 24 entries: 12 tables
    rnd = publish_next_round(field)
    recompute_standings(event_id=field.event.pk, force=True)
    url = f"{live_server.url}/events/hall/rounds/{rnd.number}/"

    phone.goto(url)
    cards = phone.locator("ol.pairings > li.card")
    expect(cards).to_have_count(4)
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "1-first-slice.png"), full_page=True)
    # Scrolling to the end brings the next slices in, in place.
    for shown in (8, 12):
        phone.locator("li.more").scroll_into_view_if_needed()
        expect(cards).to_have_count(shown)
    expect(phone.locator("li.more")).to_have_count(0)
    assert phone.locator("#table-12").is_visible()
    phone.screenshot(path=str(artifacts / "2-all-slices.png"), full_page=True)
    # A slice by its range, and a table found by name wherever it is.
    phone.goto(url)
    phone.get_by_role("link", name="9–12").click()
    expect(cards).to_have_count(4)
    assert "from=9" in phone.url and phone.locator("#table-9").is_visible()
    mine = match_of(rnd, field.ramirez)
    phone.get_by_label("Find my table").press_sequentially("ramirez", delay=30)
    expect(cards).to_have_count(1)
    assert cards.locator(".table-no .n").inner_text() == str(mine.table.number)
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "3-found.png"), full_page=True)

    phone.goto(f"{live_server.url}/events/hall/standings/")
    rows = phone.locator("table.standings tbody tr")
    expect(rows).to_have_count(5)
    phone.get_by_role("link", name="Places 6–10 of 24").click()
    expect(rows).to_have_count(5)
    assert "from=6" in phone.url
    phone.get_by_label("Find my team").fill("los ramirez")
    phone.get_by_role("button", name="Find").click()
    expect(rows).to_have_count(1)
    assert "Los Ramírez" in rows.inner_text()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "4-standings-found.png"), full_page=True)
