"""Each partnership holds its own link (issue 14), in Debian's Chromium at 390x844 with two
browser contexts as the two partnerships: side A's phone enters and submits, offers only "Submit
as" its own team and never a Confirm for its own claim; side B's phone opens its own link, sees
the claim and confirms it; the result is confirmed once and the audit log names side B."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401
from tournaments.models import AuditEntry, MatchResult

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

SEATS = ["Team A One (N)", "Team B One (E)", "Team A Two (S)", "Team B Two (W)"]


def tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def enter_short_match(page: Any, first_scorer: str = SEATS[0]) -> None:
    """Target 25 raw (5 points): Team A scores 30 in hand 1 (its first 15 to ``first_scorer``,
    North unless told), North goes out."""
    tap(page, SEATS[0])
    tap(page, f"{first_scorer} scores 3 points")
    tap(page, f"{SEATS[2]} scores 3 points")
    tap(page, f"{SEATS[1]} scores 1 point")
    tap(page, f"{SEATS[0]} dominoed")
    expect(page.locator("#pips-1")).to_be_focused()
    for pips in ("4", "2", "3"):
        page.keyboard.type(pips)
        page.keyboard.press("Enter")
    expect(page.locator("#winner")).to_contain_text("Team A wins")


def test_side_a_enters_and_side_b_confirms_on_its_own_link(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "sides", rules="five-up", target=25)
    match = setup.matches[0]

    # Side A's phone: its own link; it knows its team and offers only "Submit as Team A".
    phone.goto(live_server.url + setup.path(0, side=0))
    expect(phone.locator("#my-team")).to_have_text("Team A's phone")
    enter_short_match(phone)
    expect(phone.get_by_role("button", name="Submit as Team B")).to_have_count(0)
    tap(phone, "Submit as Team A")
    pending = phone.locator("#claim-pending-A")
    expect(pending).to_be_visible()
    # Its own claim waits for side B: no Confirm button here.
    expect(phone.locator("#waiting-for-other")).to_contain_text("Waiting for Team B to check it")
    expect(phone.locator("[data-action=confirm]")).to_have_count(0)
    phone.screenshot(path=str(artifacts / "side-a-waiting.png"))

    other_ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    try:
        other = other_ctx.new_page()
        other.set_default_timeout(15_000)
        other.goto(live_server.url + setup.path(0, side=1))
        expect(other.locator("#my-team")).to_have_text("Team B's phone")
        expect(other.locator("#claim-pending-A")).to_be_visible()
        confirm = other.get_by_role("button", name="Confirm for Team B", exact=True)
        expect(confirm).to_be_in_viewport(ratio=1)
        other.screenshot(path=str(artifacts / "side-b-confirm-view.png"))
        confirm.click()
        expect(other.locator("#claim-confirmed")).to_contain_text("Team A wins")
    finally:
        other_ctx.close()
    expect(phone.locator("#claim-confirmed")).to_contain_text("Result confirmed", timeout=20_000)

    results = orm(lambda: list(MatchResult.objects.filter(match=match)))
    assert [(r.version, r.is_current, r.source) for r in results] == [(1, True, "agreed")]
    by = orm(
        lambda: {
            e.action: e.after["by"]
            for e in AuditEntry.objects.filter(event=setup.event, action__startswith="claim.")
        }
    )
    assert by == {
        "claim.submit": "table 1, side A (Team A)",
        "claim.confirm": "table 1, side B (Team B)",
    }
    confirmed = orm(lambda: AuditEntry.objects.get(action="result.confirm"))
    assert confirmed.after["by"] == "table 1, side B (Team B)"
