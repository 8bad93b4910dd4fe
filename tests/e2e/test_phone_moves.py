"""One hand entered move by move at 390x844: a tile with one legal place placed at its tap, one
with more at the tap of its place (a button, or its target on the drawn table), the engine
counting every score; then the same phone is handed across the table and the other side
confirms."""

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


def entry(page: Any, n: int) -> Any:
    return page.locator("#entry ol.entries > li").nth(n)


def play_one_place(page: Any, n: int, seat: str, tile: str, text: str, scores: str) -> None:
    """Tap ``tile`` (it has one legal place): it is placed, with the engine's score."""
    tap(page, f"Tile {tile}")
    expect(entry(page, n)).to_have_text(f"{seat}: {text}" + (f" — {scores}" if scores else ""))


def test_one_hand_move_by_move_then_confirmed_with_the_other_link_on_the_same_phone(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    # Five Up with two tiles a seat and a 15-raw (3-point) game: one hand decides it.
    setup = orm(make_setup, "moves", rules="five-up", target=15, hand_size=2)
    phone.goto(live_server.url + setup.path())
    tap(phone, "Team A One (N)")
    tap(phone, "Move by move")
    expect(phone.get_by_role("button", name="Quick tally")).to_be_visible()

    # Any tile opens the hand: one place, so one tap places it.
    play_one_place(phone, 0, "Team A One (N)", "1-4", "1|4 to open", "1 point")  # 1 + 4 = 5
    tap(phone, "Drew from the boneyard")  # seat 1 draws one tile, then plays it
    expect(phone.get_by_text("Team B One (E) to play (after drawing 1).")).to_be_visible()
    play_one_place(phone, 2, "Team B One (E)", "4-4", "4|4 on 1|4", "")  # 1 + 8 = 9
    # 1|1 goes only on 1|4's free 1 (the spinner 4|4 has no 1): one place again.
    play_one_place(phone, 3, "Team A Two (S)", "1-1", "1|1 on 1|4", "2 points")  # 2 + 8 = 10
    # 4|6 goes only on the spinner 4|4 (the tile with two places: test_phone_long_hand.py).
    play_one_place(phone, 4, "Team B Two (W)", "4-6", "4|6 on 4|4", "")  # 2 + 6 = 8
    expect(phone.locator("#verdict")).to_contain_text("no mistake so far")
    phone.screenshot(path=str(artifacts / "01-placed.png"), full_page=True)
    tap(phone, "Tile 1-5")  # 5 + 6 = 11: seat 0's last tile
    expect(entry(phone, 5)).to_have_text("Team A One (N): 1|5 on 1|1")
    expect(phone.locator("#verdict")).to_contain_text("this hand is over")
    expect(phone.locator('#board .score[data-entity="0"]')).to_have_text("3")
    phone.screenshot(path=str(artifacts / "02-hand-entered.png"), full_page=True)

    tap(phone, "End the hand")
    tap(phone, "Team A One (N) dominoed")
    phone.locator("#pips-1").fill("3")
    phone.locator("#pips-2").fill("2")
    phone.locator("#pips-3").fill("4")
    tap(phone, "Settle hand 1")
    expect(phone.locator("#winner")).to_have_text("Team A wins, 3 to -2.")
    tap(phone, "Submit as Team A")
    expect(phone.locator("#claim-pending-A")).to_be_visible()

    # Side A's link cannot confirm its own claim: no Confirm button for it.
    expect(phone.locator("#claim-pending-A")).to_contain_text("1 hand, checked by the rules engine")
    expect(phone.get_by_role("button", name="Confirm for Team B")).to_have_count(0)
    # Handed across the table: side B opens its own link on this phone, checks and confirms.
    # The phone that sent the claim asks first whether this is the other team (issue 29).
    phone.goto(live_server.url + setup.path(0, side=1))
    expect(phone.locator("#claim-pending-A")).to_contain_text("1 hand, checked by the rules engine")
    asked: list[str] = []
    phone.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    tap(phone, "Confirm for Team B")
    expect(phone.locator("#claim-confirmed")).to_contain_text("Team A wins")
    assert asked and "Are you the other team?" in asked[0]
    phone.screenshot(path=str(artifacts / "03-confirmed.png"), full_page=True)
    claim = orm(lambda: Claim.objects.get(match=setup.matches[0], side=0))
    moves = claim.sheet["hands"][0]["moves"]
    assert moves[1] == {"seat": 1, "draw": 1}
    assert [(m["seat"], m.get("play"), m.get("on"), m.get("score")) for m in moves] == [
        (0, "1-4", None, 5),
        (1, None, None, None),
        (1, "4-4", "1-4", 0),
        (2, "1-1", "1-4", 10),
        (3, "4-6", "4-4", 0),
        (0, "1-5", "1-1", 0),
    ]
    result = orm(lambda: MatchResult.objects.get(match=setup.matches[0], is_current=True))
    assert (result.score_a_halves, result.score_b_halves, result.verified) == (30, -20, True)


def test_a_refused_drawing_is_told_in_plain_words_and_keeps_what_was_entered(
    live_server: Any, phone: Any, settings: Any, artifacts: Path
) -> None:
    # The position helper allows three answers a minute to this table: the fourth is refused.
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], table_position="3/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    setup = orm(make_setup, "moves-refused", rules="five-up", target=15, hand_size=2)
    phone.goto(live_server.url + setup.path())
    tap(phone, "Team A One (N)")
    tap(phone, "Move by move")  # 1: the empty table
    play_one_place(phone, 0, "Team A One (N)", "1-4", "1|4 to open", "1 point")  # 2 and 3
    tap(phone, "Tile 4-4")  # 4: refused
    error = phone.locator("#move-error")
    expect(error).to_have_text(
        "Too many taps at once: wait a moment, then tap the tile again. Nothing entered is lost."
    )
    expect(error).not_to_contain_text("throttled")
    phone.screenshot(path=str(artifacts / "refused.png"))
    expect(phone.locator("#entry ol.entries > li")).to_have_count(1)
    phone.reload()  # what was entered is on the phone, refused or not
    expect(entry(phone, 0)).to_have_text("Team A One (N): 1|4 to open — 1 point")
