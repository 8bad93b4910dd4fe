"""The entry page at the table, in Debian's Chromium at 390x844: a whole (short) match entered
as a tally, a wrong tally value caught and explained by the engine, the sheet surviving a reload,
the submission and the other side's confirmation on its own phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401
from tournaments.models import Claim, MatchResult

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]


def tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def score(page: Any, entity: int) -> Any:
    return page.locator(f'#board .score[data-entity="{entity}"]')


def settle(page: Any, finisher: str | None, pips: dict[str, str]) -> None:
    """End the hand: dominoed by ``finisher`` (None: blocked), with each seat's pips left."""
    tap(page, "End the hand")
    tap(page, f"{finisher} dominoed" if finisher else "Blocked (nobody can play)")
    for label, value in pips.items():
        page.get_by_label(label, exact=True).fill(value)
    tap(page, "Settle the hand")


def test_full_match_in_tally_form_then_the_other_side_confirms(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    # Five Up, four players, a short game: 25 raw (5 points) wins.
    setup = orm(make_setup, "tally", rules="five-up", target=25)
    url = live_server.url + setup.path()
    phone.goto(url)
    expect(phone.locator("h1")).to_have_text("Table 1 · Round 1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    tap(phone, "Seat 0 · Team A One (A)")  # the first leader, by lot
    expect(phone.get_by_role("heading", name="Hand 1 · Team A One (A) led")).to_be_visible()

    # A wrong value (12 pips is no placement score): the engine catches it and says where.
    tap(phone, "Seat 1 · Team B One (B)")
    phone.get_by_label("Other total, in pips").fill("12")
    tap(phone, "Add")
    verdict = phone.locator("#verdict")
    expect(verdict).to_contain_text("Hand 1, score 1:")
    expect(verdict).to_contain_text("multiple of five")
    expect(verdict).to_contain_text("12 is not a placement score")
    phone.screenshot(path=str(artifacts / "01-wrong-tally-value.png"), full_page=True)
    tap(phone, "Undo last")
    expect(verdict).to_contain_text("no mistake so far")

    # Hand 1: A scores 10 and 15, B 5; seat 2 dominoes; pips 3, 12, -, 7 are debited 5, 10, 5.
    tap(phone, "Seat 0 · Team A One (A)")
    tap(phone, "Score 2 points")
    tap(phone, "Seat 1 · Team B One (B)")
    tap(phone, "Score 1 point")
    tap(phone, "Seat 2 · Team A Two (A)")
    tap(phone, "Score 3 points")
    expect(score(phone, 0)).to_have_text("5")
    expect(score(phone, 1)).to_have_text("1")
    phone.screenshot(path=str(artifacts / "02-hand-1-tally.png"), full_page=True)
    settle(
        phone,
        "Team A Two (A)",
        {
            "Seat 0 · Team A One (A)": "3",
            "Seat 1 · Team B One (B)": "12",
            "Seat 3 · Team B Two (B)": "7",
        },
    )
    expect(phone.locator("#settlement")).to_have_text("Settlement: Team A (A) -1, Team B (B) -3.")
    expect(score(phone, 0)).to_have_text("4")
    expect(score(phone, 1)).to_have_text("-2")

    # A reload loses nothing.
    phone.reload()
    expect(score(phone, 0)).to_have_text("4")
    expect(phone.locator("#settlement")).to_be_visible()

    # Hand 2: the domino player (seat 2) leads; A scores 10; seat 0 dominoes: A reaches 25.
    tap(phone, "Start hand 2")
    expect(phone.get_by_role("heading", name="Hand 2 · Team A Two (A) led")).to_be_visible()
    tap(phone, "By side")  # pegged for the side, as a scorekeeper may
    tap(phone, "Team A (A)")
    tap(phone, "Score 2 points")
    # Hand 2 is blocked: every seat's pips are debited (3 -> 5, 2 -> 0, 4 -> 5, 10 -> 10).
    settle(
        phone,
        None,
        {
            "Seat 0 · Team A One (A)": "3",
            "Seat 1 · Team B One (B)": "2",
            "Seat 2 · Team A Two (A)": "4",
            "Seat 3 · Team B Two (B)": "10",
        },
    )
    expect(phone.locator("#settlement")).to_have_text("Settlement: Team A (A) -2, Team B (B) -2.")
    expect(score(phone, 0)).to_have_text("4")  # 20 + 10 - 10 raw
    # After a block the next leader is drawn by lot: the entrant picks the seat.
    expect(
        phone.get_by_role("heading", name="The hand was blocked: who leads hand 3?")
    ).to_be_visible()
    tap(phone, "Seat 1 · Team B One (B)")
    expect(phone.get_by_role("heading", name="Hand 3 · Team B One (B) led")).to_be_visible()
    tap(phone, "By player")
    tap(phone, "Seat 0 · Team A One (A)")
    tap(phone, "Score 2 points")
    settle(
        phone,
        "Team A One (A)",
        {
            "Seat 1 · Team B One (B)": "2",
            "Seat 2 · Team A Two (A)": "4",
            "Seat 3 · Team B Two (B)": "10",
        },
    )
    expect(phone.locator("#winner")).to_have_text("Team A (A) wins, 5 to -6.")
    phone.screenshot(path=str(artifacts / "03-match-over.png"), full_page=True)

    tap(phone, "Submit as side A")
    pending = phone.locator("#claim-pending-A")
    expect(pending).to_be_visible()
    phone.screenshot(path=str(artifacts / "04-submitted.png"), full_page=True)
    claims = orm(lambda: list(Claim.objects.filter(match=setup.matches[0])))
    assert [(c.side, c.status, c.verified) for c in claims] == [(0, "submitted", True)]
    assert claims[0].sheet["hands"][1]["tally"] == [{"entity": 0, "score": 10}]

    # The other side opens the same link on its own phone: the pending claim and Confirm.
    other_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = other_ctx.new_page()
        other.goto(url)
        expect(other.locator("#claim-pending-A")).to_contain_text("Team A 5 – -6 Team B")
        other.screenshot(path=str(artifacts / "05-other-side-sees-claim.png"), full_page=True)
        tap(other, "Confirm as side B")
        expect(other.locator("#claim-confirmed")).to_contain_text("Team A wins")
        other.screenshot(path=str(artifacts / "06-other-side-confirmed.png"), full_page=True)
    finally:
        other_ctx.close()
    # Both see the confirmed result.
    expect(phone.locator("#claim-confirmed")).to_contain_text("Result confirmed", timeout=20_000)
    result = orm(lambda: MatchResult.objects.get(match=setup.matches[0], is_current=True))
    assert (result.score_a_halves, result.score_b_halves, result.winner_side) == (50, -60, 0)
    phone.screenshot(path=str(artifacts / "07-both-confirmed.png"), full_page=True)


def test_final_score_only_where_the_event_allows_it(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "final", rules="five-up", allow_final_score_only=True)
    url = live_server.url + setup.path()
    phone.goto(url)
    tap(phone, "Enter the final score only (unverified)")
    expect(phone.locator("#entry")).to_contain_text("Marked unverified")
    phone.get_by_label("Team A (A) (points)").fill("61")
    phone.get_by_label("Team B (B) (points)").fill("40")
    tap(phone, "Submit as side B")
    expect(phone.locator("#claim-pending-B")).to_contain_text("final score only, unverified")
    claim = orm(lambda: Claim.objects.get(match=setup.matches[0]))
    assert (claim.side, claim.kind, claim.verified) == (1, "final_score", False)
    assert (claim.score_a_halves, claim.score_b_halves, claim.winner_side) == (610, 400, 0)
    phone.screenshot(path=str(artifacts / "final-score-only.png"), full_page=True)

    # Side A, on its own phone, sees the claim first (its own empty sheet steps aside).
    other_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = other_ctx.new_page()
        other.goto(url)
        expect(other.locator("#claim-pending-B")).to_be_visible()
        expect(other.locator("#entry")).to_be_hidden()
        tap(other, "Confirm as side A")
        expect(other.locator("#claim-confirmed")).to_contain_text("Final score only: unverified")
    finally:
        other_ctx.close()


def test_no_final_score_only_where_the_event_needs_the_sheet(live_server: Any, phone: Any) -> None:
    setup = orm(make_setup, "sheetonly", rules="five-up")
    phone.goto(live_server.url + setup.path())
    expect(phone.get_by_role("button", name="Seat 0 · Team A One (A)")).to_be_visible()
    expect(
        phone.get_by_role("button", name="Enter the final score only (unverified)")
    ).to_have_count(0)
