"""The demo league's page on a phone (390x844) in Chromium: the season table (players, then
partnerships), each event with its champion, legible without sideways scrolling.

With SPINNER_UPDATE_SCREENS=1 the screenshot is also written to docs/screens/league-390.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from tests.e2e.test_bracket import shot
from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tournaments.management import demo_league
from tournaments.management.commands import demo
from tournaments.models import Event

__all__ = ["clean_teardown"]

pytestmark = pytest.mark.browser


def _build() -> list[Event]:
    """The demo league alone, built in one transaction as ``manage.py demo`` builds it."""
    with transaction.atomic():
        director = demo.ensure_users()
        demo_league.build_league(
            director,
            play_out=lambda e: demo.finish_demo(demo.DemoContext(event=e, director=director)),
        )
    return list(Event.objects.filter(league__slug="demo-league").order_by("start_date"))


@pytest.mark.django_db(transaction=True)
def test_the_demo_league_on_a_phone(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    from playwright.sync_api import expect

    events = _build()
    phone.goto(f"{live_server.url}/leagues/demo-league/")
    expect(phone.get_by_role("heading", level=1)).to_contain_text(demo_league.LEAGUE_NAME)
    players = phone.locator("table.season").first.locator("tbody tr")
    expect(players.first.locator("td.rank")).to_contain_text("1")
    assert players.count() >= 16
    # On a phone each row carries its events' points under the name; the event columns hide.
    expect(players.first.locator(".ev-line")).to_be_visible()
    expect(phone.locator("table.season th.ev").first).to_be_hidden()
    expect(phone.locator("h2#partnerships")).to_be_visible()
    cards = phone.locator("ol.league-events li")
    expect(cards).to_have_count(3)
    for card, event in zip(cards.all(), events, strict=True):
        expect(card.locator(".champion")).to_contain_text(event.placings[0]["name"])
    no_sideways_scroll(phone)
    smallest = phone.evaluate(
        "Math.min(...Array.from(document.querySelectorAll('table.season td'))"
        ".filter(td => td.offsetParent !== null)"
        ".map(td => parseFloat(getComputedStyle(td).fontSize)))"
    )
    assert smallest >= 12
    shot(phone, artifacts, "league-390.png")
    # Each name links to the player's page (the players' pages are issue 16's other part).
    expect(players.first.locator("td.team a").first).to_have_attribute(
        "href", re.compile(r"^/players/\d+/$")
    )
