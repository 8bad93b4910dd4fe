"""Two sides disagree on one play's scorer (issue 29), in Debian's Chromium at 390x844 with two
browser contexts as the two partnerships: side A sends its sheet; side B disagrees and sends its
own, which gives hand 1's first play to North's partner (the same totals). Both phones then show
the first difference in words, in view, without a reload; side A corrects that play from the
disagreement (no retyping) and sends again, side B's phone shows the confirmed result, and the
stored result is the corrected sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_phone_sides import SEATS, tap
from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401
from tournaments.models import MatchResult

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]


def enter(page: Any, first_scorer: str) -> None:
    """Target 25 raw (5 points): the first play's 15 to ``first_scorer``, then South 15 and
    East 5; North goes out (pips 4, 2, 3)."""
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


def in_view(page: Any, selector: str) -> None:
    """The element is on screen (in the viewport, not under the sticky score bar) and is the
    first claim the page shows, above the entry."""
    expect(page.locator(selector)).to_be_in_viewport()
    box = page.locator(selector).bounding_box()
    bar = page.locator(".scorebar").bounding_box()
    assert box is not None and bar is not None
    assert box["y"] >= bar["y"] + bar["height"] - 1 and box["y"] + box["height"] <= 844
    order = page.evaluate(
        "() => !!(document.getElementById('claim-status').compareDocumentPosition("
        "document.getElementById('entry')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    assert order, "the disagreement comes before the entry"


def test_a_disagreement_on_one_scorer_is_named_in_view_and_corrected_on_one_phone(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "differ", rules="five-up", target=25)
    match = setup.matches[0]
    phone.on("dialog", lambda d: d.accept())

    phone.goto(live_server.url + setup.path(0, side=0))
    enter(phone, SEATS[0])
    tap(phone, "Submit as Team A")
    expect(phone.locator("#claim-pending-A")).to_be_visible()

    other_ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    try:
        other = other_ctx.new_page()
        other.set_default_timeout(15_000)
        other.on("dialog", lambda d: d.accept())
        other.goto(live_server.url + setup.path(0, side=1))
        expect(other.locator("#claim-pending-A")).to_be_visible()
        tap(other, "Disagree")
        # entering its own sheet, side B keeps the dock (the engine's verdict, the connection)
        shown = "() => getComputedStyle(document.getElementById('dock')).display"
        other.wait_for_function(f"({shown})() !== 'none'")
        enter(other, SEATS[2])
        expect(other.locator("#verdict")).to_be_visible()
        tap(other, "Submit as Team B")

        said_b = (
            "Hand 1, play 1: your sheet gives 3 to Team A Two (S); theirs gives 3 to "
            "Team A One (N)."
        )
        said_a = (
            "Hand 1, play 1: your sheet gives 3 to Team A One (N); theirs gives 3 to "
            "Team A Two (S)."
        )
        expect(other.locator("#difference-sentence")).to_have_text(said_b)
        in_view(other, "#difference-sentence")
        expect(other.locator("#conflict-heading")).to_be_focused()
        expect(other.locator("#submitted")).to_be_hidden()
        other.screenshot(path=str(artifacts / "side-b-disagreement.png"))
        # side A's phone, polling: no reload
        expect(phone.locator("#difference-sentence")).to_have_text(said_a, timeout=20_000)
        in_view(phone, "#difference-sentence")
        expect(phone.locator("#conflict-heading")).to_be_focused()
        phone.screenshot(path=str(artifacts / "side-a-disagreement.png"))

        # side A checks: South did score it. It takes that play from side B's sheet, no retyping.
        tap(phone, "Use their version of hand 1, play 1")
        submit = phone.get_by_role("button", name="Submit as Team A", exact=True)
        expect(submit).to_be_visible()
        submit.click()
        expect(phone.locator("#claim-confirmed")).to_contain_text("Team A wins", timeout=20_000)
        expect(other.locator("#claim-confirmed")).to_contain_text(
            "Result confirmed", timeout=20_000
        )
        expect(other.locator("#show-entry")).to_have_count(0)
        other.screenshot(path=str(artifacts / "side-b-confirmed.png"))
    finally:
        other_ctx.close()

    result = orm(lambda: MatchResult.objects.get(match=match, is_current=True))
    assert result.source == "agreed"
    first = result.sheet["hands"][0]["tally"][0]
    assert first == {"seat": 2, "score": 15}
