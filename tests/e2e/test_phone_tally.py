"""The entry page at the table, in Debian's Chromium at 390x844: a whole (short) match entered
as a tally (one tap a score, the next hand led at once by whoever went out), the sheet surviving
a reload, the submission and the other side's confirmation on its own phone."""

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


def settle(page: Any, finisher: str | None, pips: dict[str, str], hand: int) -> None:
    """End the hand: dominoed by ``finisher`` (None: blocked), with each seat's pips left."""
    tap(page, f"{finisher} dominoed" if finisher else "Blocked (nobody can play)")
    for label, value in pips.items():
        page.get_by_label(label, exact=True).fill(value)
    tap(page, f"Settle hand {hand}")


def test_full_match_in_tally_form_then_the_other_side_confirms(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    # Five Up, four players, a short game: 25 raw (5 points) wins.
    setup = orm(make_setup, "tally", rules="five-up", target=25)
    url = live_server.url + setup.path()
    phone.goto(url)
    expect(phone.locator("h1")).to_have_text("Table 1 · Round 1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    tap(phone, "Team A One (N)")  # the first leader, by lot
    expect(phone.get_by_role("heading", name="Hand 1 · Team A One (N) led")).to_be_visible()

    # Hand 1: A scores 10 and 15, B 5, each in one tap; seat S dominoes; pips 3, 12, -, 7 are
    # debited 5, 10, 5.
    tap(phone, "Team A One (N) scores 2 points")
    tap(phone, "Team B One (E) scores 1 point")
    tap(phone, "Team A Two (S) scores 3 points")
    expect(score(phone, 0)).to_have_text("5")
    expect(score(phone, 1)).to_have_text("1")
    phone.screenshot(path=str(artifacts / "02-hand-1-tally.png"), full_page=True)
    settle(
        phone,
        "Team A Two (S)",
        {"Team A One (N)": "3", "Team B One (E)": "12", "Team B Two (W)": "7"},
        hand=1,
    )
    # The one who went out leads the next hand at once; the settlement is the engine's.
    expect(phone.get_by_role("heading", name="Hand 2 · Team A Two (S) led")).to_be_visible()
    expect(phone.locator("#last-hand")).to_have_text(
        "Hand 1: Team A Two went out; settled Team A −1, Team B −3."
    )
    expect(score(phone, 0)).to_have_text("4")
    expect(score(phone, 1)).to_have_text("-2")

    # A reload loses nothing.
    phone.reload()
    expect(score(phone, 0)).to_have_text("4")
    expect(phone.locator("#last-hand")).to_contain_text("settled Team A −1")

    # Hand 2: pegged for the side, as a scorekeeper may: A scores 10.
    tap(phone, "By side")
    tap(phone, "Team A scores 2 points")
    # Hand 2 is blocked: every seat's pips are debited (3 -> 5, 2 -> 0, 4 -> 5, 10 -> 10).
    settle(
        phone,
        None,
        {
            "Team A One (N)": "3",
            "Team B One (E)": "2",
            "Team A Two (S)": "4",
            "Team B Two (W)": "10",
        },
        hand=2,
    )
    expect(phone.locator("#settlement")).to_have_text("Settlement: Team A −2, Team B −2.")
    expect(score(phone, 0)).to_have_text("4")  # 20 + 10 - 10 raw
    # After a block the next leader is drawn by lot: the entrant picks the player.
    expect(
        phone.get_by_role("heading", name="The hand was blocked: who leads hand 3?")
    ).to_be_visible()
    tap(phone, "Team B One (E)")
    expect(phone.get_by_role("heading", name="Hand 3 · Team B One (E) led")).to_be_visible()
    tap(phone, "By player")
    tap(phone, "Team A One (N) scores 2 points")
    settle(
        phone,
        "Team A One (N)",
        {"Team B One (E)": "2", "Team A Two (S)": "4", "Team B Two (W)": "10"},
        hand=3,
    )
    expect(phone.locator("#winner")).to_have_text("Team A wins, 5 to -6.")
    phone.screenshot(path=str(artifacts / "03-match-over.png"), full_page=True)

    tap(phone, "Submit as Team A")
    pending = phone.locator("#claim-pending-A")
    expect(pending).to_be_visible()
    phone.screenshot(path=str(artifacts / "04-submitted.png"), full_page=True)
    claims = orm(lambda: list(Claim.objects.filter(match=setup.matches[0])))
    assert [(c.side, c.status, c.verified) for c in claims] == [(0, "submitted", True)]
    assert claims[0].sheet["hands"][1]["tally"] == [{"entity": 0, "score": 10}]
    assert len(claims[0].sheet["hands"]) == 3  # the empty hand begun after the last is not sent

    # The other side opens its own link (side B's) on its own phone: the claim and Confirm.
    other_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = other_ctx.new_page()
        other.goto(live_server.url + setup.path(0, side=1))
        expect(other.locator("#claim-pending-A")).to_contain_text("Team A 5 – -6 Team B")
        other.screenshot(path=str(artifacts / "05-other-side-sees-claim.png"), full_page=True)
        tap(other, "Confirm for Team B")
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
    phone.goto(live_server.url + setup.path(0, side=1))  # side B's link
    tap(phone, "Enter the final score only (unverified)")
    expect(phone.locator("#entry")).to_contain_text("Marked unverified")
    phone.get_by_label("Team A (points)").fill("61")
    phone.get_by_label("Team B (points)").fill("40")
    tap(phone, "Submit as Team B")
    expect(phone.locator("#claim-pending-B")).to_contain_text("final score only, unverified")
    claim = orm(lambda: Claim.objects.get(match=setup.matches[0]))
    assert (claim.side, claim.kind, claim.verified) == (1, "final_score", False)
    assert (claim.score_a_halves, claim.score_b_halves, claim.winner_side) == (610, 400, 0)
    phone.screenshot(path=str(artifacts / "final-score-only.png"), full_page=True)

    # Side A, on its own phone, sees the claim first (its own empty sheet steps aside).
    other_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = other_ctx.new_page()
        other.goto(live_server.url + setup.path(0, side=0))
        expect(other.locator("#claim-pending-B")).to_be_visible()
        expect(other.locator("#entry")).to_be_hidden()
        tap(other, "Confirm for Team A")
        expect(other.locator("#claim-confirmed")).to_contain_text("Final score only: unverified")
    finally:
        other_ctx.close()


def test_no_final_score_only_where_the_event_needs_the_sheet(live_server: Any, phone: Any) -> None:
    setup = orm(make_setup, "sheetonly", rules="five-up")
    phone.goto(live_server.url + setup.path())
    expect(phone.get_by_role("button", name="Team A One (N)")).to_be_visible()
    expect(
        phone.get_by_role("button", name="Enter the final score only (unverified)")
    ).to_have_count(0)
