"""The director's round clock in Chromium at 390x844 (issue 12): on the round's page the clock
counts down; pause, +5 min, resume, then "Call time now" asks first; once time is called the
results board marks every table without a confirmed result as playing after time.

Screenshots go to the test's artifacts folder; with SPINNER_UPDATE_SCREENS=1 they are also written
to docs/screens/desk/ (``09-round-clock.png``, ``10-board-after-time.png``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_desk import log_in
from tests.e2e.test_desk import shot as desk_shot
from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tests.tournaments.desk_support import states_round

__all__ = ["clean_teardown"]


@pytest.mark.django_db(transaction=True)
def test_the_director_pauses_extends_and_calls_time(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    event, _, _, matches = states_round("clock-open")
    log_in(phone, f"{live_server.url}/director/events/{event.slug}/rounds/1/")
    line = phone.locator("#round-clock")
    count = line.locator(".clock-time")
    expect(count).to_have_text(re.compile(r"^(50:00|49:[0-5]\d)$"))
    first = count.inner_text()
    expect(count).not_to_have_text(first)  # live
    no_sideways_scroll(phone)
    desk_shot(phone, artifacts, "09-round-clock.png")

    phone.get_by_role("button", name="Pause the clock").click()
    expect(line).to_contain_text("(paused)")
    paused = count.inner_text()
    phone.get_by_role("button", name="+5 min").click()
    expect(phone.locator(".messages")).to_contain_text("5 min added to round 1's clock.")
    minutes, seconds = (int(x) for x in paused.split(":"))
    expect(count).to_have_text(f"{minutes + 5}:{seconds:02d}")  # paused: it stands still
    phone.get_by_role("button", name="Resume the clock").click()
    expect(line).not_to_contain_text("(paused)")

    phone.get_by_role("button", name="Call time now").click()
    expect(phone.get_by_role("heading", name="Call time in round 1 now?")).to_be_visible()
    phone.get_by_role("button", name="Yes, call time in round 1").click()
    expect(line).to_contain_text("Time is up")
    expect(line).to_contain_text("3 tables still playing after time")
    expect(phone.get_by_role("button", name="Pause the clock")).to_have_count(0)

    line.get_by_role("link", name="3 tables still playing after time").click()
    late = phone.locator("li.result-card.over-time")
    expect(late).to_have_count(3)
    expect(phone.locator("#over-time-count")).to_have_text("3 still playing after time")
    confirmed = phone.locator(f'li.result-card[data-match="{matches["confirmed"].pk}"]')
    expect(confirmed).not_to_have_class(re.compile("over-time"))
    no_sideways_scroll(phone)
    desk_shot(phone, artifacts, "10-board-after-time.png")
