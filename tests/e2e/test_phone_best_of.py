"""A best-of-3 play-off match on the phones, in Debian's Chromium: side A enters game 1, side B
confirms it on its own link, and both phones move on to game 2 by themselves ("Game 2 of 3 ·
series 1–0", a blank sheet), where the table plays on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_phone_sides import enter_short_match as enter_short_game
from tests.e2e.test_phone_sides import tap
from tests.tournaments.phone_factory import Setup, audit_flush, make_setup, orm  # noqa: F401
from tournaments.models import Match, MatchResult, Round

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]


def best_of_three_final() -> Setup:
    """One table in play, made a play-off final played best of 3 (as the bracket writes it)."""
    setup = make_setup("bestof", rules="five-up", target=25)
    Round.objects.filter(pk=setup.round.pk).update(kind=Round.Kind.PLAYOFF)
    Match.objects.filter(pk=setup.matches[0].pk).update(best_of=3, bracket_slot="W1-1")
    return setup


def test_both_phones_move_on_to_game_two_after_game_one_is_confirmed(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    setup = orm(best_of_three_final)
    phone.goto(live_server.url + setup.path(0, side=0))
    expect(phone.locator("#game-line")).to_have_text("Game 1 of 3 · series 0–0")
    enter_short_game(phone)
    tap(phone, "Submit as Team A")
    expect(phone.locator("#claim-pending-A")).to_be_visible()

    other_ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    try:
        other = other_ctx.new_page()
        other.set_default_timeout(15_000)
        other.goto(live_server.url + setup.path(0, side=1))
        other.get_by_role("button", name="Confirm for Team B", exact=True).click()
        # the confirming phone reloads itself to game 2, with a blank sheet
        expect(other.locator("#game-line")).to_have_text("Game 2 of 3 · series 1–0")
        expect(other.locator("#claim-pending-A")).to_have_count(0)
    finally:
        other_ctx.close()
    # side A's phone, polling, moves on too
    expect(phone.locator("#game-line")).to_have_text("Game 2 of 3 · series 1–0", timeout=25_000)
    expect(phone.locator("#winner")).to_have_count(0)
    phone.screenshot(path=str(artifacts / "best-of-game-2.png"))
    games = orm(
        lambda: [
            (m.game_no, MatchResult.objects.filter(match=m, is_current=True).exists())
            for m in Match.objects.filter(round=setup.round).order_by("game_no")
        ]
    )
    assert games == [(1, True), (2, False)]
