"""Issue 29, scores the rules cannot produce, at the table in Debian's Chromium at 390x844: on a
Five Up tally (displayed points are raw/5), "Other…" scores above the most one play can make
are refused by the engine with what to fix, a rare but possible one gets "Check this", seventy
points by one player in a hand is refused where the tiles say so, and nothing typed is lost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import find_ruleset
from scoring.bounds import placement_bound, rare_above
from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

SEATS = ["Team A One (N)", "Team B One (E)", "Team A Two (S)", "Team B Two (W)"]
FIVE_UP = find_ruleset("five-up")
MOST = placement_bound(FIVE_UP) // 5  # in displayed points
RARE = rare_above(FIVE_UP) // 5


def other(page: Any, points: str, seat: int) -> None:
    page.get_by_role("button", name="Other…", exact=True).click()
    expect(page.locator("#other-raw")).to_be_focused()
    page.keyboard.type(points)
    page.get_by_role("button", name=f"to {SEATS[seat]}", exact=True).click()


def entries(page: Any) -> list[str]:
    """Each tally entry's words, without the scorer list that lets a side correct who scored."""
    texts: list[str] = page.locator("ol.entries li").evaluate_all(
        "items => items.map(li => { const c = li.cloneNode(true);"
        " c.querySelectorAll('select').forEach(s => s.remove());"
        " return c.textContent.replace(/\\s+/g, ' ').trim(); })"
    )
    return texts


def test_impossible_tally_scores_are_refused_and_a_rare_one_is_checked(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    assert (MOST, RARE) == (15, 9)  # what the words below say, as the engine derives them
    setup = orm(make_setup, "bounds", rules="five-up")
    phone.goto(live_server.url + setup.path())
    phone.get_by_role("button", name=SEATS[0], exact=True).click()
    verdict = phone.locator("#verdict")

    # 12 points is 60 raw: possible (the most is 75) but rare: "check this", not a refusal.
    other(phone, "12", 1)
    expect(verdict).to_contain_text("Check this: Hand 1, score 1:")
    expect(verdict).to_contain_text("12 points for one play is possible but rare")
    expect(verdict).not_to_contain_text("no mistake so far")
    expect(verdict).to_have_class("verdict check")
    phone.screenshot(path=str(artifacts / "01-check-this.png"))

    # One step of five above the bound: refused, saying what the most is and what to do; the
    # scores already typed stay.
    other(phone, str(MOST + 1), 2)
    expect(verdict).to_contain_text("Hand 1, score 2:")
    expect(verdict).to_contain_text(
        f"No single play can score {MOST + 1} points: the most is {MOST} points."
        " Undo it and enter the right score."
    )
    expect(verdict).to_contain_text(f"at most {MOST * 5}")  # the engine's own words
    assert entries(phone) == [
        "Team B One (E): 12 points",
        f"Team A Two (S): {MOST + 1} points ✗ No single play can score {MOST + 1} points: the"
        f" most is {MOST} points. Undo it and enter the right score. (hand 1, tally entry 2:"
        f" {(MOST + 1) * 5} is more than any placement can score in five-up (at most"
        f" {MOST * 5}))",
    ]
    phone.screenshot(path=str(artifacts / "02-above-the-bound.png"))
    verdict.get_by_role("button", name="Undo last").click()
    expect(verdict).to_contain_text("Check this")
    assert entries(phone) == ["Team B One (E): 12 points"]

    # Seventy points by one player in one play: refused the same way.
    other(phone, "70", 0)
    expect(verdict).to_contain_text("No single play can score 70 points")
    verdict.get_by_role("button", name="Undo last").click()
    expect(verdict).to_contain_text("Check this")

    # Seventy by one player as five plays of 14: each possible on a full table, so the hand
    # goes on with "check this"...
    for _ in range(5):
        other(phone, "14", 0)
    expect(phone.locator(".score-row").first).to_contain_text("70 this hand")
    expect(verdict).to_contain_text("Check this")
    # ...until the hand's end says 150 pips stayed in three hands: too few tiles reached the
    # table for those scores. Refused at the first that cannot fit, the pips kept.
    phone.get_by_role("button", name=f"{SEATS[0]} dominoed", exact=True).click()
    for seat in (1, 2, 3):
        phone.locator(f"#pips-{seat}").fill("50")
    phone.get_by_role("button", name="Settle hand 1", exact=True).click()
    expect(verdict).to_contain_text("This hand cannot have scored that much")
    expect(verdict).to_contain_text("Hand 1, score 1:")  # the 12: 8 tiles, 18 pips under it
    expect(verdict.get_by_role("button", name="Reopen hand 1")).to_be_visible()
    phone.screenshot(path=str(artifacts / "03-too-much-for-the-hand.png"))
    verdict.get_by_role("button", name="Reopen hand 1").click()
    expect(phone.locator(".score-row").first).to_contain_text("70 this hand")
    assert len(entries(phone)) == 6
