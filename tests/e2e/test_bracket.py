"""A finished event on a phone (390x844) in Chromium: the public event page leads with the
champion and the podium, and its bracket page draws the play-off (the SVG scrolls sideways inside
the page, its text at least 12px).

Screenshots go to the test's artifacts folder; with SPINNER_UPDATE_SCREENS=1 they are also written
to docs/screens/ (``bracket-390.png``, ``event-finished-390.png``, listed in its README.md)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tests.tournaments.finish_support import play_bracket, seeded_event
from tournaments.selectors.bracket import bracket_view
from tournaments.services import finish

__all__ = ["clean_teardown"]

pytestmark = pytest.mark.browser

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"


def shot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / name), full_page=True)
    if os.environ.get("SPINNER_UPDATE_SCREENS") == "1":
        page.screenshot(path=str(SCREENS / name), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_a_finished_event_and_its_bracket_on_a_phone(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    from playwright.sync_api import expect

    event, boss, _ = seeded_event("winter-open", field=12, qualifiers=6, consolation="third_place")
    play_bracket(event, boss)
    finish.finish_event(event=event, actor=boss)
    view = bracket_view(event)
    assert view is not None and view.progress is not None
    champion = event.entries.get(pk=view.progress.champion).name

    phone.goto(f"{live_server.url}/events/{event.slug}/")
    banner = phone.get_by_test_id("champion")
    expect(banner).to_contain_text(champion)
    expect(phone.locator("ol.podium li")).to_have_count(3)
    box = banner.bounding_box()
    assert box is not None and box["y"] < 844  # on the first screen
    no_sideways_scroll(phone)
    shot(phone, artifacts, "event-finished-390.png")

    phone.get_by_role("link", name="The bracket").click()
    phone.wait_for_url(re.compile(r"/bracket/$"))
    expect(phone.get_by_test_id("champion")).to_contain_text(champion)
    expect(phone.locator("svg.bracket").first).to_be_visible()
    expect(
        phone.locator("svg.bracket g.side.win text.name", has_text=champion).first
    ).to_be_visible()
    no_sideways_scroll(phone)  # the drawing scrolls inside its own box, not the page
    smallest = phone.evaluate(
        "Math.min(...Array.from(document.querySelectorAll('svg.bracket text'))"
        ".map(t => parseFloat(getComputedStyle(t).fontSize)))"
    )
    assert smallest >= 12
    shot(phone, artifacts, "bracket-390.png")
