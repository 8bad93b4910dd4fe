"""Whole matches entered move by move, every hand (issue 29): a match the simulator played
(``scoring.simulate``, as ``manage.py simulate`` writes it) for each rule set, at a table of
four (Five Up, partnerships), of three (All Fives) and head to head (Five Up 7), typed in on
one side's phone at 390x844 tile by tile, draw by draw; the other side confirms from its own
browser context, and the stored result is the simulator's. Then the same at 360x640 with a
24 px default font, every tap made without a scroll.

Before the fix the second hand could not be drawn ("No such hand on the sheet."): the page
left the empty hand being entered off the sheet it sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.simulate import simulate
from scoring.tiles import Tile
from tests.e2e.phone_entry import Phone, open_phone
from tests.tournaments.phone_factory import (  # noqa: F401
    PLAYERS,
    audit_flush,
    make_setup,
    make_table_setup,
    orm,
)
from tournaments import game
from tournaments.models import Claim, Event, MatchResult
from tournaments.results_math import to_halves

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

TARGET = 100  # raw: a few hands a match, so that every test enters hands 2, 3 and more


def event_setup(rules: str) -> Any:
    """The event of ``rules`` at its table size: Five Up in partnerships (four), All Fives at a
    table of three, Five Up 7 head to head."""
    if rules == "all-fives":
        return make_table_setup(f"mv-{rules}", sizes=(3,), target=TARGET)
    if rules == "five-up-7":
        return make_setup(
            f"mv-{rules}", rules=rules, target=TARGET, entry_kind=Event.EntryKind.SINGLE
        )
    return make_setup(f"mv-{rules}", rules=rules, target=TARGET)


def simulated(setup: Any, *, hands: int = 3) -> dict[str, Any]:
    """The first simulated match (seeds 0, 1, ...) of the table's game with at least ``hands``
    hands, one of them blocked if the first 40 seeds give one."""
    expected = game.expected_game(setup.event, setup.matches[0])
    found: list[dict[str, Any]] = []
    for seed in range(40):
        (sheet,) = simulate(
            expected["rules"],
            expected["players"],
            seed,
            target=expected["target"],
            hand_size=expected["hand_size"],
            partnerships=expected["partnerships"],
        )
        if hands <= len(sheet["hands"]) <= 6:
            if any(h.get("end") == "blocked" for h in sheet["hands"]):
                return sheet
            found.append(sheet)
    assert found, "the simulator gave no match of that length"
    return found[0]


def as_entered(hand: dict[str, Any]) -> list[tuple[Any, ...]]:
    """A simulated hand's moves as the phone writes them (a draw: how many tiles)."""
    out: list[tuple[Any, ...]] = []
    for m in hand["moves"]:
        if "draw" in m:
            out.append((m["seat"], "draw", len(m["draw"])))
        elif m.get("pass"):
            out.append((m["seat"], "pass"))
        else:
            on = str(Tile.parse(m["on"])) if m.get("on") else None
            out.append((m["seat"], str(Tile.parse(m["play"])), on, m["score"]))
    return out


def stored(moves: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for m in moves:
        if "draw" in m:
            out.append((m["seat"], "draw", m["draw"]))
        elif m.get("pass"):
            out.append((m["seat"], "pass"))
        else:
            out.append((m["seat"], m["play"], m.get("on"), m["score"]))
    return out


def confirm_elsewhere(browser: Any, url: str, setup: Any, rules: str) -> None:
    """The other side (at a table of three, the two other players) confirms on its own phone."""
    others = [(1, f"Confirm as {PLAYERS[1]}"), (2, f"Confirm as {PLAYERS[2]}")]
    if rules != "all-fives":
        others = [(1, "Confirm for Team B")]
    for side, label in others:
        page = open_phone(browser, url + setup.path(0, side=side))
        try:
            expect(page.locator("#claim-pending-A")).to_contain_text("checked by the rules engine")
            page.get_by_role("button", name=label, exact=True).click()
            expect(page.locator("#claim-pending-A, #claim-confirmed").first).to_be_visible()
        finally:
            page.context.close()


def enter_and_confirm(
    browser: Any, live_server: Any, rules: str, artifacts: Path, **screen: Any
) -> Phone:
    """Enter the simulated match move by move on side A's phone, send it, confirm it from the
    other side(s), and check what is stored against the simulator's sheet."""
    setup = orm(event_setup, rules)
    sheet = orm(simulated, setup)
    page = open_phone(browser, live_server.url + setup.path(0, side=0), **screen)
    try:
        phone = Phone(page, in_view=bool(screen), shots=artifacts)
        phone.enter_moves(sheet)
        expect(page.locator("#winner")).to_be_visible()
        page.screenshot(path=str(artifacts / f"{rules}-match-over.png"))
        submit = "Submit as " + (PLAYERS[0] if rules == "all-fives" else "Team A")
        page.get_by_role("button", name=submit, exact=True).click()
        expect(page.locator("#claim-pending-A")).to_be_visible()
        confirm_elsewhere(browser, live_server.url, setup, rules)
        expect(page.locator("#claim-confirmed")).to_be_visible(timeout=20_000)
        page.screenshot(path=str(artifacts / f"{rules}-confirmed.png"))
    finally:
        page.context.close()

    claim = orm(lambda: Claim.objects.get(match=setup.matches[0], side=0))
    sent = claim.sheet
    assert sent is not None and len(sent["hands"]) == len(sheet["hands"]) >= 3
    for mine, theirs in zip(sent["hands"], sheet["hands"], strict=True):
        assert stored(mine["moves"]) == as_entered(theirs)
    result = orm(lambda: MatchResult.objects.get(match=setup.matches[0], is_current=True))
    halves = [to_halves(s) for s in sheet["result"]["scores"]]
    assert result.verified and result.source == MatchResult.Source.AGREED
    assert [result.score_a_halves, result.score_b_halves] == halves[:2]
    if len(halves) > 2:
        assert result.scores_halves == halves
    assert phone.inputs.hands == sum(1 for h in sheet["hands"] if "end" in h)
    return phone


@pytest.mark.parametrize("rules", ["five-up", "all-fives", "five-up-7"])
def test_a_whole_simulated_match_entered_move_by_move_then_confirmed(
    live_server: Any, browser: Any, artifacts: Path, rules: str
) -> None:
    phone = enter_and_confirm(browser, live_server, rules, artifacts)
    # One tap places a tile with one legal place; two, one with more.
    assert all(taps == (1 if legal == 1 else 2) for legal, taps in phone.inputs.placements)


def test_a_whole_match_by_moves_on_a_small_phone_with_a_large_font_needs_no_scroll_per_play(
    live_server: Any, browser: Any, artifacts: Path
) -> None:
    phone = enter_and_confirm(
        browser, live_server, "five-up", artifacts, width=360, height=640, font=24
    )
    assert phone.checked >= len(phone.inputs.placements) > 40
