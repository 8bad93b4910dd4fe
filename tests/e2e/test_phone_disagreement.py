"""Two sides disagree on one play's scorer (issue 29), in Debian's Chromium at 390x844 with two
browser contexts as the two partnerships: side A sends its sheet; side B disagrees and sends its
own, which gives hand 1's first play to North's partner (the same totals). Both phones then show
the first difference in words, in view, without a reload; side A corrects that play from the
disagreement (no retyping) and sends again, side B's phone shows the confirmed result, and the
stored result is the corrected sheet."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_phone_sides import SEATS, enter_short_match, tap
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
    enter_short_match(page, first_scorer)


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
        # the sentence spoke of the sheet sent: it says so now, until the sheet goes again
        expect(phone.locator("#difference-taken")).to_contain_text("That was the sheet you sent")
        expect(phone.locator("#difference-sentence")).to_have_class(re.compile("superseded"))
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
    assert result.sheet is not None
    first = result.sheet["hands"][0]["tally"][0]
    assert first == {"seat": 2, "score": 15}


def test_a_side_reopens_the_hand_changes_the_scorer_in_place_and_sends_again(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "reopen", rules="five-up", target=25)
    match = setup.matches[0]
    phone.goto(live_server.url + setup.path(0, side=0))
    enter(phone, SEATS[0])
    tap(phone, "Submit as Team A")
    expect(phone.locator("#claim-pending-A")).to_be_visible()

    other_ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    try:
        other = other_ctx.new_page()
        other.set_default_timeout(15_000)
        other.goto(live_server.url + setup.path(0, side=1))
        tap(other, "Disagree")
        enter(other, SEATS[2])
        tap(other, "Submit as Team B")
        expect(other.locator("#difference-sentence")).to_contain_text("Hand 1, play 1")
        in_view(other, "#difference-sentence")

        # side B was wrong: it reopens hand 1 of its sent sheet; the plays and how the hand
        # ended are still there (pips typed back in); it gives play 1 to North in place
        tap(other, "Reopen hand 1 of our sheet")
        expect(other.locator("#pips-1")).to_have_value("4")
        scorer = other.get_by_label("Who scored play 1")
        expect(scorer).to_have_value("2")
        scorer.select_option(label=SEATS[0])
        expect(other.locator("ol.entries li").first).to_contain_text("Team A One (N)")
        other.screenshot(path=str(artifacts / "side-b-reopened.png"))
        tap(other, "Settle hand 1")
        expect(other.locator("#winner")).to_contain_text("Team A wins")
        tap(other, "Submit as Team B")
        expect(other.locator("#claim-confirmed")).to_contain_text("Team A wins", timeout=20_000)
        expect(phone.locator("#claim-confirmed")).to_contain_text(
            "Result confirmed", timeout=20_000
        )
    finally:
        other_ctx.close()
    result = orm(lambda: MatchResult.objects.get(match=match, is_current=True))
    assert result.sheet is not None
    assert result.sheet["hands"][0]["tally"][0] == {"seat": 0, "score": 15}


def test_a_confirmation_on_the_submitting_phone_asks_and_is_marked(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "onephone", rules="five-up", target=25)
    match = setup.matches[0]
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    phone.on("dialog", answer)
    phone.goto(live_server.url + setup.path(0, side=0))
    enter(phone, SEATS[0])
    tap(phone, "Submit as Team A")
    expect(phone.locator("#claim-pending-A")).to_be_visible()
    # the same phone (the same browser storage: the same device id) opens side B's link
    phone.goto(live_server.url + setup.path(0, side=1))
    expect(phone.locator("#same-device")).to_have_text("This phone sent this result.")
    phone.get_by_role("button", name="Confirm for Team B", exact=True).click()
    expect(phone.locator("#claim-confirmed")).to_contain_text("Team A wins", timeout=20_000)
    assert any("Are you the other team?" in m for m in asked)
    # a confirmed result: this phone (nothing entered for side B) is not offered its own sheet
    expect(phone.locator("#show-entry")).to_have_count(0)
    claims = orm(
        lambda: list(match.claims.order_by("side").values("side", "device", "same_device"))
    )
    assert claims[0]["device"] and claims[0]["device"] == claims[1]["device"]
    assert [c["same_device"] for c in claims] == [False, True]
