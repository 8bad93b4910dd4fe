"""A player's page and the player search on a phone (390x844) in Chromium.

Screenshots go to the test's artifacts folder; with SPINNER_UPDATE_SCREENS=1 the player page is
also written to docs/screens/ (``player-390.png``, listed in its README.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_bracket import shot
from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tests.tournaments.players_support import two_events

__all__ = ["clean_teardown"]

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_the_search_and_a_player_page_on_a_phone(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    from playwright.sync_api import expect

    w = two_events()
    phone.goto(f"{live_server.url}/events/")
    phone.get_by_label("Find a player").fill("ramirez")  # no accent typed
    phone.get_by_role("button", name="Search").click()
    phone.wait_for_url(re.compile(r"/players/\?q=ramirez"))
    result = phone.get_by_role("link", name="Ana Ramírez")
    expect(result).to_be_visible()
    no_sideways_scroll(phone)
    shot(phone, artifacts, "player-search-390.png")

    result.click()
    phone.wait_for_url(re.compile(rf"/players/{w.ana.pk}/$"))
    expect(phone.get_by_role("heading", name="Ana Ramírez")).to_be_visible()
    events = phone.locator("li.player-event")
    expect(events).to_have_count(2)
    expect(events.nth(0)).to_contain_text("Summer Cup")
    expect(events.nth(0)).to_contain_text("with Ed Obi")
    expect(events.nth(0)).to_contain_text("forfeit")
    expect(events.nth(1)).to_contain_text("with Bob Ray")
    expect(events.nth(1)).to_contain_text("Final place: 1")
    expect(events.nth(1)).to_contain_text("won 61–40")
    # the Spring Open's game was rated (the worker re-rates after each confirmed result)
    expect(phone.locator("section.rating")).to_contain_text("after 1 rated game")
    no_sideways_scroll(phone)
    shot(phone, artifacts, "player-390.png")
