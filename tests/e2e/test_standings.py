"""The public standings in Chromium: live on a phone (updated without a reload), the team page's
chart, and the projector view."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.live_support import (
    confirm,
    make_director,
    make_entries,
    make_event,
    make_round,
)

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    """A cache of this test's own (never the machine's Redis, shared with other runs)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"live-{uuid.uuid4()}",
        }
    }


@pytest.mark.django_db(transaction=True)
def test_standings_update_live_on_a_phone(live_server: Any, phone: Any, artifacts: Path) -> None:
    event = make_event("live-phone", name="Spinner Winter Open")
    teams = make_entries(event, 6, prefix="Partnership")
    director = make_director(event)
    matches = make_round(
        event, 1, [(teams[0], teams[1]), (teams[2], teams[3]), (teams[4], teams[5])]
    )
    confirm(matches[0], 305, 120, director)  # tasks run eagerly: the snapshot is made at commit
    confirm(matches[1], 305, 300, director)

    phone.goto(f"{live_server.url}/events/{event.slug}/standings/")
    rows = phone.locator("table.standings tbody tr")
    assert rows.count() == 6
    assert rows.nth(0).locator("td.team").inner_text().startswith("Partnership 1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(artifacts / "standings-phone.png"), full_page=True)

    # A new result arrives: the table changes in place (htmx polling), the page is not reloaded.
    phone.evaluate("window.__notReloaded = true")
    confirm(matches[2], 305, 0, director)  # Partnership 5 wins by the largest margin
    first_team = rows.nth(0).locator("td.team a")
    phone.wait_for_function(
        "() => document.querySelector('table.standings tbody tr td.team a')"
        ".textContent.trim() === 'Partnership 5'",
        timeout=15_000,
    )
    assert first_team.inner_text() == "Partnership 5"
    assert phone.evaluate("window.__notReloaded === true")
    phone.screenshot(path=str(artifacts / "standings-phone-updated.png"), full_page=True)

    # The team page: history and the inline SVG chart, on a phone.
    first_team.click()
    phone.wait_for_url(f"**/events/{event.slug}/teams/{teams[4].pk}/")
    assert phone.locator("svg.progress-chart polyline").count() == 1
    assert "won 61–0" in phone.locator("ol.history").inner_text()  # five-up: raw / 5
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(artifacts / "team-phone.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_the_projector_view(live_server: Any, browser: Any, artifacts: Path) -> None:
    event = make_event("live-projector", name="Spinner Winter Open")
    teams = make_entries(event, 4)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3])])
    confirm(matches[0], 305, 120, director)
    confirm(matches[1], 200, 305, director)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/events/{event.slug}/standings/?projector=1")
        assert not page.locator("header.site").is_visible()
        size = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('table.standings td')).fontSize)"
        )
        assert size >= 24
        page.screenshot(path=str(artifacts / "standings-projector.png"))
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_a_match_page_on_a_phone_draws_the_table(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    from tests.tournaments.results_support import sheet
    from tournaments.services import decisions

    event = make_event("live-match", rules="all-fives", target=100)
    teams = make_entries(event, 2)
    director = make_director(event)
    (match,) = make_round(event, 1, [(teams[0], teams[1])])
    decisions.override_result(match=match, sheet=sheet("moves"), reason="sheet", actor=director)
    phone.goto(f"{live_server.url}/events/{event.slug}/matches/{match.pk}/")
    drawings = phone.locator("svg.table-svg")
    assert drawings.count() == len(sheet("moves")["hands"])
    box = drawings.first.bounding_box()
    assert box is not None and box["width"] > 100
    # A long line of tiles scrolls inside its figure; the page itself never scrolls sideways.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(artifacts / "match-phone.png"), full_page=True)
