"""The round clock on the phone (issue 12), in Debian's Chromium at 390x844: the time left counts
down in the scorebar; once the round's time is up (its clock set in the past in the database)
the phone says so and asks for "Time called"; the player taps it during the hand in play,
finishes the hand, and the engine ends the match there (the event's policy: finish the hand).
The stored claim's sheet carries ``time``.

Screenshots go to the test's artifacts folder; with SPINNER_UPDATE_SCREENS=1 they are also written
to docs/screens/ (``clock-phone-390.png``, ``time-called-390.png``)."""

from __future__ import annotations

import datetime
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.conftest import poll
from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401
from tournaments.models import Claim, Round

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SEATS = ["Team A One (N)", "Team B One (E)", "Team A Two (S)", "Team B Two (W)"]


def shot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / name))
    if os.environ.get("SPINNER_UPDATE_SCREENS") == "1":
        page.screenshot(path=str(SCREENS / name))


def tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def set_clock(rnd: Round, *, started: float, ends: float) -> None:
    """The round's clock, in minutes from now (negative: in the past)."""
    now = timezone.now()
    Round.objects.filter(pk=rnd.pk).update(
        clock_started_at=now + datetime.timedelta(minutes=started),
        clock_ends_at=now + datetime.timedelta(minutes=ends),
    )


def test_time_called_on_the_phone_ends_the_match_after_the_hand(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "clock", rules="five-up", target=25, time_policy="finish-hand")
    orm(set_clock, setup.round, started=-15, ends=30)
    phone.goto(live_server.url + setup.path(0, side=0))

    # The clock runs: the time left counts down in the scorebar (the server's seconds).
    label, left = phone.locator("#clock-label"), phone.locator("#clock-time")
    expect(label).to_have_text("Time left")
    expect(left).to_have_text(re.compile(r"^(30:00|29:[0-5]\d)$"))
    first = left.inner_text()
    expect(left).not_to_have_text(first)  # it counts (polled with a deadline, no sleep)
    tap(phone, SEATS[0])
    # Before time is up, "Time called" is there for a director's call aloud (it asks first).
    early = phone.get_by_role("button", name="Time called…", exact=True)
    expect(early).to_have_class(re.compile("secondary"))
    asked: list[str] = []

    def answer_no(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    phone.once("dialog", answer_no)
    early.click()
    expect(label).to_have_text("Time left")  # not recorded: the question was answered no
    assert asked and "has not run out" in asked[0]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    expect(phone.locator("#verdict")).to_contain_text("no mistake so far")
    shot(phone, artifacts, "clock-phone-390.png")

    # Time is up (the round's clock in the past); the phone says so and asks for time called.
    orm(set_clock, setup.round, started=-50, ends=-5)
    phone.reload()
    expect(label).to_have_text("Time is up")
    expect(left).to_have_text("0:00")
    called = phone.get_by_role("button", name="Time called", exact=True)
    expect(called).to_have_class(re.compile("time-up"))
    expect(phone.locator("#time-up")).to_contain_text("Time is up: record it in hand 1")
    expect(phone.get_by_role("button", name="Time called…", exact=True)).to_have_count(0)
    phone.screenshot(path=str(artifacts / "time-is-up.png"))
    # The sheet so far is kept: hand 1 is in play, led by North.
    expect(phone.get_by_role("heading", name=f"Hand 1 · {SEATS[0]} led")).to_be_visible()
    tap(phone, f"{SEATS[0]} scores 3 points")
    called.click()  # no question: the clock says time is up
    expect(label).to_have_text("Time called in hand 1")
    expect(phone.get_by_role("button", name="Time called", exact=True)).to_have_count(0)
    expect(phone.locator("#time-note")).to_contain_text(
        "Time was called in hand 1: the match ends when this hand is settled."
    )
    expect(phone.get_by_role("button", name="Undo time called")).to_be_visible()
    expect(phone.locator("#verdict")).to_contain_text("no mistake so far")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, artifacts, "time-called-390.png")

    # The hand is finished and settled: the engine ends the match there, short of the target.
    tap(phone, f"{SEATS[0]} dominoed")
    for seat, pips in ((1, "10"), (2, "3"), (3, "10")):
        phone.locator(f"#pips-{seat}").fill(pips)
    tap(phone, "Settle hand 1")
    expect(phone.locator("#winner")).to_have_text("Team A wins, 2 to -4.")
    expect(phone.locator("#time-ended")).to_have_text("Time was called in hand 1.")
    expect(phone.locator("#verdict")).to_contain_text("The match is over.")
    phone.screenshot(path=str(artifacts / "match-over-by-time.png"))
    tap(phone, "Submit as Team A")
    expect(phone.locator("#claim-pending-A")).to_be_visible()

    def stored() -> Claim | None:
        return orm(lambda: Claim.objects.filter(match=setup.matches[0], side=0).last())

    claim = poll(stored)
    assert claim.sheet["time"] == {"called_in_hand": 0, "policy": "finish-hand"}
    assert len(claim.sheet["hands"]) == 1
    assert claim.verified and claim.finished and claim.winner_side == 0
    assert claim.verdict["finished"] is True and claim.verdict["scores"] == [10, -20]
    assert claim.status == Claim.Status.SUBMITTED


def test_the_projector_counts_the_time_left_down_large(
    live_server: Any, browser: Any, artifacts: Path, settings: Any
) -> None:
    """The projector is kept as a document (tournaments/documents.py): its second visit is served
    from the cache, not rendered, and its clock counts down on the browser's clock to the moment
    the page names, corrected when the browser's time of day is wrong (seven minutes behind
    here); at 0 it says "Time is up" by itself, with no reload."""
    from django.test.signals import template_rendered

    from tests.tournaments.desk_support import states_round
    from tests.tournaments.follow_support import private_cache
    from tournaments import follow_versions

    private_cache(settings)
    settings.SPINNER_PUBLIC_DOCUMENTS = True
    renders: list[str] = []

    def count(sender: Any, template: Any, **kwargs: Any) -> None:
        renders.append(str(template.name))

    event, _boss, rnd, _ = orm(states_round, "hall")
    url = f"{live_server.url}/events/hall/projector/?view=pairings&page=1"
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.clock.install(time=time.time() - 7 * 60)  # a wall display whose clock is behind
    wall = context.new_page()
    template_rendered.connect(count)
    try:
        first = wall.goto(url)
        assert first is not None and first.headers["etag"].startswith('"d-')
        renders.clear()
        again = wall.goto(url)
        assert again is not None and again.headers["etag"] == first.headers["etag"]
        assert renders == []  # served from the cache: nothing rendered
        clock = wall.locator("#projector-clock .clock-time")
        # The server's 50 minutes, not the browser's 57 (corrected once the server's Date is in).
        expect(clock).to_have_text(re.compile(r"^(50:00|49:[0-5]\d)$"))
        expect(wall.locator("#projector-clock")).to_contain_text("left")
        first_text = clock.inner_text()
        expect(clock).not_to_have_text(first_text)  # live, from a page kept in the cache
        assert renders == []
        box = clock.bounding_box()
        assert box is not None and box["height"] >= 56  # large: 4rem in the bar
        wall.screenshot(path=str(artifacts / "projector-clock.png"))

        # Three seconds left (a change the director's pages would make: the pages' token moves).
        def nearly_up() -> None:
            set_clock(rnd, started=-50, ends=0.05)
            follow_versions.bump_pages(event)

        orm(nearly_up)
        wall.reload()
        assert "tournaments/projector/projector.html" in renders
        renders.clear()
        expect(wall.locator("#projector-clock")).to_have_text("Time is up", timeout=15_000)
        expect(wall.locator("#projector-clock")).to_have_class(re.compile(r"\bclock-expired\b"))
        assert renders == []  # counted to 0 and said so in the browser
        wall.screenshot(path=str(artifacts / "projector-time-is-up.png"))
    finally:
        template_rendered.disconnect(count)
        context.close()
