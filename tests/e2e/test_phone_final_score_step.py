"""A final score only at a table of three in All Fives, in Debian's Chromium at 390x844: a score
no game can end with (off the 2.5 step the split settlement gives) is refused beside the fields,
naming the player and what to type, and what was typed is kept; the corrected score is sent.
Screenshots under ``test-artifacts/final-score-step/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.tournaments.phone_factory import PLAYERS, audit_flush, make_table_setup, orm  # noqa: F401
from tournaments.models import Claim

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

SHOTS = Path("test-artifacts/final-score-step")


def test_a_final_score_off_the_games_step_is_refused_and_kept(live_server: Any, phone: Any) -> None:
    setup = orm(make_table_setup, "steps", target=200, allow_final_score_only=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.goto(live_server.url + setup.path(0, side=2))  # seat C's link
    phone.get_by_role("button", name="Enter the final score only (unverified)", exact=True).click()
    field = [phone.get_by_label(f"{name} (points)") for name in PLAYERS[:3]]
    for box, text in zip(field, ("150,5", "200", "90"), strict=True):
        box.fill(text)
    error = phone.locator("#final-error")
    expect(error).to_have_text(
        f"{PLAYERS[0]}: 150,5 is not a score this game can end with; scores move in steps "
        "of 2.5 (type 150 or 152.5)."
    )
    phone.get_by_role("button", name=f"Submit as {PLAYERS[2]}", exact=True).click()
    expect(error).to_contain_text("150,5 is not a score")
    phone.screenshot(path=str(SHOTS / "refused.png"), full_page=True)
    assert orm(lambda: not Claim.objects.filter(match=setup.matches[0]).exists())
    expect(field[1]).to_have_value("200")
    expect(field[2]).to_have_value("90")
    # two at or past 200 where the match ends as soon as one reaches it is fine at three (a
    # split can tie two past it); the corrected score goes
    field[0].fill("152,5")
    expect(error).to_have_text("")
    phone.get_by_role("button", name=f"Submit as {PLAYERS[2]}", exact=True).click()
    expect(phone.locator("#claim-pending-C")).to_contain_text("final score only, unverified")
    phone.screenshot(path=str(SHOTS / "sent.png"), full_page=True)
    claim = orm(lambda: Claim.objects.get(match=setup.matches[0], side=2))
    assert claim.scores_halves == [305, 400, 180]
