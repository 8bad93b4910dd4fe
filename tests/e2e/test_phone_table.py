"""Issue 14 at the table, in Debian's Chromium at 390x844: a 10-hand match entered as a tally
with every tap and key press counted, the controls in the first screen and never jumping, typed
pip counts kept through a 5-second network, plausibility before the tick, the engine's
explanation in view, the other team's claim checked hand by hand with Confirm and Disagree in
view, one message per state, and names instead of seat numbers.

Screenshots of every state go to the test's artifacts folder; with SPINNER_UPDATE_SCREENS=1 they
are also written to docs/screens/ (committed, listed in docs/screens/README.md)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import scoring
from tests.conftest import poll
from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401
from tournaments import game
from tournaments.models import Claim
from tournaments.selectors.results import match_board

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SEATS = ["Team A One (N)", "Team B One (E)", "Team A Two (S)", "Team B Two (W)"]

# The budget issue 14 sets for a 10-hand Five Up match entered as a tally.
TAP_BUDGET = 120

# A 10-hand Five Up match (target 61 points), as a scorekeeper meets it: three scoring plays a
# hand, one blocked hand. Per hand: the scores (seat, points), how it ended ("domino", seat) or
# ("blocked", the next leader drawn by lot), and the pips left in each seat's hand.
MATCH: list[tuple[list[tuple[int, int]], tuple[str, int], list[int]]] = [
    ([(0, 6), (1, 2), (2, 3)], ("domino", 2), [6, 9, 0, 4]),
    ([(2, 2), (3, 1), (0, 5)], ("domino", 0), [0, 3, 8, 12]),
    ([(0, 3), (1, 4), (2, 2)], ("domino", 1), [5, 0, 7, 2]),
    ([(1, 2), (2, 4), (0, 3)], ("domino", 2), [3, 11, 0, 6]),
    ([(2, 3), (3, 2), (0, 6)], ("domino", 0), [0, 8, 5, 3]),
    ([(0, 2), (1, 3), (2, 5)], ("blocked", 3), [4, 6, 3, 9]),
    ([(3, 2), (0, 4), (1, 1)], ("domino", 0), [0, 7, 2, 10]),
    ([(0, 3), (2, 4), (3, 2)], ("domino", 2), [9, 4, 0, 6]),
    ([(2, 7), (1, 2), (0, 3)], ("domino", 0), [0, 5, 7, 8]),
    ([(0, 6), (3, 3), (2, 3)], ("domino", 2), [2, 6, 0, 5]),
]


def shot(page: Any, artifacts: Path, name: str) -> None:
    """A 390x844 screenshot of what the player sees (the viewport, not the whole page)."""
    page.screenshot(path=str(artifacts / name))
    if os.environ.get("SPINNER_UPDATE_SCREENS") == "1":
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENS / name))


class Counted:
    """Every tap and key press the test makes, counted as a person would make them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.keys = 0

    def tap(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).click()
        self.taps += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1

    @property
    def total(self) -> int:
        return self.taps + self.keys


def box(page: Any, name: str) -> dict[str, float]:
    """Where a button is on the screen."""
    # Polled: a verdict arriving may draw the panel again between finding and measuring.
    found = poll(lambda: page.get_by_role("button", name=name, exact=True).bounding_box())
    assert found is not None, name
    return dict(found)


def place(page: Any, name: str) -> tuple[float, float]:
    """Where a button is on the page (scrolling aside): a change is a layout jump."""
    found = box(page, name)
    return (found["x"], found["y"] + float(page.evaluate("scrollY")))


def dock_top(page: Any) -> float:
    return float(
        page.evaluate(
            "() => { const d = document.getElementById('dock');"
            " return d.offsetParent === null ? innerHeight : d.getBoundingClientRect().top; }"
        )
    )


WATCH_SHIFTS = """() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__shifts.push({value: e.value, input: e.hadRecentInput, at: Math.round(e.startTime),
        what: e.sources.map((x) => x.node ? (x.node.id || x.node.className || x.node.nodeName) : '')
          .join(' ')});
    }
  }).observe({type: 'layout-shift', buffered: true});
}"""


def score(page: Any, entity: int) -> Any:
    return page.locator(f'#board .score[data-entity="{entity}"]')


def test_a_ten_hand_tally_in_at_most_120_taps_and_keys_without_jumps(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "taps", rules="five-up")
    phone.goto(live_server.url + setup.path())
    phone.evaluate(WATCH_SHIFTS)
    count = Counted(phone)

    # The first screen: the first actionable button well above the fold.
    first = box(phone, SEATS[0])
    assert first["y"] + first["height"] < 400, first
    shot(phone, artifacts, "01-first-leader.png")
    count.tap(SEATS[0])

    # Every tally button is on the first screen, clear of the dock.
    for seat in SEATS:
        for points in range(1, 8):
            b = box(phone, f"{seat} scores {points} point{'s' if points > 1 else ''}")
            assert b["y"] >= 0 and b["y"] + b["height"] <= dock_top(phone), (seat, points, b)
    blocked = box(phone, "Blocked (nobody can play)")
    assert blocked["y"] + blocked["height"] <= 844

    leader = 0
    entered = 0.0
    for i, (scores, (kind, who), remaining) in enumerate(MATCH):
        hand = i + 1
        expect(
            phone.get_by_role("heading", name=f"Hand {hand} · {SEATS[leader]} led")
        ).to_be_visible()
        # A new hand starts at the top: its buttons are in view without scrolling.
        assert phone.evaluate("scrollY") == 0
        anchor = place(phone, f"{SEATS[0]} scores 1 point")
        end_anchor = place(phone, "Blocked (nobody can play)")
        for seat, points in scores:
            count.tap(f"{SEATS[seat]} scores {points} point{'s' if points > 1 else ''}")
            # No jumps: the controls stay where the thumb is.
            assert place(phone, f"{SEATS[0]} scores 1 point") == anchor
            assert place(phone, "Blocked (nobody can play)") == end_anchor
        if hand == 1:
            shot(phone, artifacts, "02-entry.png")
        if hand == len(MATCH):  # the shifts are measured up to the last hand's end
            entered = float(phone.evaluate("performance.now()"))
        count.tap(f"{SEATS[who]} dominoed" if kind == "domino" else "Blocked (nobody can play)")
        # The first count has the focus; Enter moves on; the last Enter settles the hand.
        for seat, pips in enumerate(remaining):
            if kind == "domino" and seat == who:
                continue
            expect(phone.locator(f"#pips-{seat}")).to_be_focused()
            count.type(str(pips))
            count.press("Enter")
        leader = who
        if kind == "blocked" and hand < len(MATCH):
            expect(
                phone.get_by_role(
                    "heading", name=f"The hand was blocked: who leads hand {hand + 1}?"
                )
            ).to_be_visible()
            count.tap(SEATS[who])

    expect(phone.locator("#winner")).to_contain_text("Team A wins")
    count.tap("Submit as Team A")
    expect(phone.locator("#claim-pending-A")).to_be_visible()
    shot(phone, artifacts, "06-waiting-for-the-other-team.png")

    # The figure issue 14 asks for (committed in docs/screens/README.md): 108 for this match.
    print(f"\n10-hand tally: {count.taps} taps + {count.keys} keys = {count.total}")
    assert count.total <= TAP_BUDGET, (count.taps, count.keys)

    # What was stored is what the engine makes of the sheet the taps built.
    claim = orm(lambda: Claim.objects.get(match=setup.matches[0], side=0))
    assert claim.status == "submitted" and claim.verified
    assert len(claim.sheet["hands"]) == len(MATCH)
    verdict = scoring.verify(claim.sheet).as_dict()
    assert verdict["valid"] and verdict["finished"] and verdict["winner"] == 0
    expect(score(phone, 0)).to_have_text(game.format_displayed(verdict["scores"][0], setup.event))

    # Layout shift: none that the player did not cause (the Core Web Vitals' CLS), and the
    # controls never moved under a tap (checked above, tap by tap).
    shifts = phone.evaluate("window.__shifts")
    during = [s for s in shifts if not s["input"] and s["at"] < entered]
    unexpected = sum(s["value"] for s in during)
    # While the hands are entered only the closed "match and seats" line and the language switch
    # under it, at the very bottom, may move (when what is above them grows): nothing the player
    # taps or reads while entering. (Measured up to the last hand's end: the match-over panel and
    # the claim after it are new states.)
    controls = [s for s in during if s["what"] not in ("match-info", "phone-language", "dock")]
    print(f"layout shift without input while entering: {unexpected:.4f}; of the controls: 0")
    assert controls == [] and unexpected < 0.05, during


def test_typed_pips_survive_a_5_second_network(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "slow", rules="five-up")
    phone.goto(live_server.url + setup.path())
    phone.get_by_role("button", name=SEATS[0], exact=True).click()
    expect(phone.locator("#verdict")).to_contain_text("no mistake so far")

    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 5000, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    answers: list[str] = []
    phone.on("requestfinished", lambda r: answers.append(r.url) if "/verify/" in r.url else None)
    with phone.expect_request(lambda r: "/verify/" in r.url):
        phone.get_by_role("button", name=f"{SEATS[0]} scores 2 points", exact=True).click()
    seen = len(answers)
    # The verdict is on its way (5 s): the players go on and type the pips left.
    phone.get_by_role("button", name=f"{SEATS[2]} dominoed", exact=True).click()
    expect(phone.locator("#pips-0")).to_be_focused()
    phone.keyboard.type("12")
    phone.keyboard.press("Enter")
    phone.keyboard.type("7")
    phone.keyboard.press("Enter")
    phone.keyboard.type("9")
    assert len(answers) == seen  # typed before the late verdict came back
    shot(phone, artifacts, "07-slow-network-typing.png")
    # The late verdict arrives and the page is drawn again (the board shows its 2 points):
    # nothing typed is lost.
    expect(score(phone, 0)).to_have_text("2", timeout=20_000)
    assert len(answers) > seen
    values = [phone.locator(f"#pips-{s}").input_value() for s in (0, 1, 3)]
    assert values == ["12", "7", "9"]
    expect(phone.locator("#pips-3")).to_be_focused()
    # And a reload keeps them too (drafts are kept with the sheet).
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    phone.reload()
    assert [phone.locator(f"#pips-{s}").input_value() for s in (0, 1, 3)] == ["12", "7", "9"]


def test_no_tick_for_implausible_pips_and_the_engines_fault_in_view(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "plausible", rules="five-up")
    bounds = game.max_pips_left(setup.event)
    phone.goto(live_server.url + setup.path())
    phone.get_by_role("button", name=SEATS[0], exact=True).click()
    phone.get_by_role("button", name=f"{SEATS[1]} scores 1 point", exact=True).click()
    expect(phone.locator("#verdict")).to_contain_text("no mistake so far")
    phone.get_by_role("button", name=f"{SEATS[0]} dominoed", exact=True).click()
    phone.keyboard.type("297")
    # Next to the field, and in the dock instead of the tick.
    expect(phone.locator("#pips-error-1")).to_have_text(
        f"No hand can hold 297 pips (at most {bounds['hand']})."
    )
    verdict = phone.locator("#verdict")
    expect(verdict).to_contain_text("No hand can hold 297 pips")
    expect(verdict).not_to_contain_text("no mistake so far")
    phone.keyboard.press("Enter")
    phone.keyboard.type("100")
    phone.keyboard.press("Enter")
    phone.keyboard.type("100")
    phone.keyboard.press("Enter")  # settle: refused, nothing leaves the phone
    expect(verdict).not_to_contain_text("no mistake so far")
    expect(phone.get_by_role("button", name="Settle hand 1")).to_be_visible()
    shot(phone, artifacts, "03-fault-pips.png")
    phone.locator("#pips-1").fill("5")
    expect(phone.locator("#end-error")).to_be_hidden()
    phone.locator("#pips-2").fill("10")
    phone.locator("#pips-3").fill("8")
    phone.get_by_role("button", name="Settle hand 1", exact=True).click()
    expect(phone.get_by_role("heading", name=f"Hand 2 · {SEATS[0]} led")).to_be_visible()
    expect(verdict).to_contain_text("no mistake so far")


def test_the_engines_explanation_stays_next_to_the_entry_and_in_view(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    # All Fives counts its own points: 12 is no placement score, and only the engine says so.
    setup = orm(make_setup, "fault", rules="all-fives")
    phone.goto(live_server.url + setup.path())
    phone.get_by_role("button", name=SEATS[0], exact=True).click()
    phone.get_by_role("button", name="Other…", exact=True).click()
    expect(phone.locator("#other-raw")).to_be_focused()
    phone.keyboard.type("12")
    phone.get_by_role("button", name=f"to {SEATS[1]}", exact=True).click()
    verdict = phone.locator("#verdict")
    expect(verdict).to_contain_text("Hand 1, score 1:")
    expect(verdict).to_contain_text("multiple of five")
    expect(verdict).to_contain_text("12 is not a placement score")
    expect(phone.locator("ol.entries li.fault")).to_contain_text("Team B One (E): 12 points ✗")
    # The dock is fixed at the bottom: in view wherever the page is scrolled.
    phone.mouse.wheel(0, 2000)
    expect(verdict).to_be_in_viewport()
    phone.mouse.wheel(0, -2000)
    shot(phone, artifacts, "04-fault-engine.png")
    phone.locator("#verdict").get_by_role("button", name="Undo last").click()
    expect(verdict).to_contain_text("no mistake so far")


def enter_short_match(page: Any, last_pips: str) -> None:
    """Target 25 raw (5 points): Team A scores 30 in hand 1, North goes out."""
    page.get_by_role("button", name=SEATS[0], exact=True).click()
    page.get_by_role("button", name=f"{SEATS[0]} scores 3 points", exact=True).click()
    page.get_by_role("button", name=f"{SEATS[2]} scores 3 points", exact=True).click()
    page.get_by_role("button", name=f"{SEATS[1]} scores 1 point", exact=True).click()
    page.get_by_role("button", name=f"{SEATS[0]} dominoed", exact=True).click()
    expect(page.locator("#pips-1")).to_be_focused()
    for pips in ("4", "2", last_pips):
        page.keyboard.type(pips)
        page.keyboard.press("Enter")
    expect(page.locator("#winner")).to_contain_text("Team A wins")


def test_the_other_team_checks_the_claim_hand_by_hand_then_disagrees(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "confirm", rules="five-up", target=25)
    url = live_server.url + setup.path()
    phone.goto(url)
    enter_short_match(phone, "3")
    phone.get_by_role("button", name="Submit as Team A", exact=True).click()
    expect(phone.locator("#claim-pending-A")).to_be_visible()

    other_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = other_ctx.new_page()
        other.set_default_timeout(15_000)
        other.goto(live_server.url + setup.path(0, side=1))  # side B's own link
        pending = other.locator("#claim-pending-A")
        expect(pending).to_be_visible()
        # Not 0-0 above the claim: the board shows the claim's score.
        expect(score(other, 0)).to_have_text("6")
        expect(score(other, 1)).to_have_text("-1")
        # Hand by hand: who scored, how it ended, the settlement and the running score.
        hand = pending.locator(".claim-hands li").first
        expect(hand).to_contain_text("Hand 1 · Team A One led")
        expect(hand).to_contain_text("Team A One 3, Team A Two 3, Team B One 1")
        expect(hand).to_contain_text("Team A One went out; settled Team A 0, Team B −2")
        expect(hand.locator(".running")).to_have_text("6 · −1")
        confirm = other.get_by_role("button", name="Confirm for Team B", exact=True)
        disagree = other.get_by_role("button", name="Disagree", exact=True)
        expect(confirm).to_be_in_viewport(ratio=1)
        expect(disagree).to_be_in_viewport(ratio=1)
        shot(other, artifacts, "05-confirm-view.png")

        # Team B disagrees: with no sheet of its own yet, it enters one (West had 13 left, not 3).
        disagree.click()
        expect(other.locator("#entry .notice")).to_contain_text("Enter your own sheet")
        enter_short_match(other, "13")
        # The engine's sentence (issue 29): which hand, what each sheet says, who it names;
        # above the claim's hands and again on the hand that differs.
        said = "Hand 1: your sheet leaves 13 pips with Team B Two (W); theirs leaves 3 pips"
        expect(pending.locator("#difference-before")).to_contain_text(said)
        expect(pending.locator("#first-difference")).to_contain_text(said)
        # While it enters its own sheet the dock stays (the engine's verdict, the connection);
        # Confirm and Disagree wait in the claim's box, one scroll away (issue 29).
        expect(other.locator("#dock")).to_be_in_viewport()
        expect(confirm).to_be_visible()
        disagree.click()  # now it sends its own sheet: the two conflict
        conflict = other.locator("#claim-conflict")
        expect(conflict).to_be_visible()
        # One state, one message: nothing on the page says the other side now confirms.
        expect(other.locator("#phone-app")).not_to_contain_text("now checks and confirms")
        expect(other.locator(".claim")).to_have_count(1)
        shot(other, artifacts, "08-conflict.png")
    finally:
        other_ctx.close()
    expect(phone.locator("#claim-conflict")).to_be_visible(timeout=20_000)
    expect(phone.locator("#phone-app")).not_to_contain_text("now checks and confirms")
    board = orm(lambda: match_board(setup.matches[0].pk))
    assert board is not None and board.state == "conflict"
    assert [c.side for c in board.claims if c is not None] == [0, 1]


def test_confirmed_and_the_final_score_checked_before_it_is_sent(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    setup = orm(make_setup, "finalcheck", rules="five-up", allow_final_score_only=True)
    goal = setup.event.target // 5 if setup.event.target else 61
    phone.goto(live_server.url + setup.path())
    phone.get_by_role("button", name="Enter the final score only (unverified)").click()
    phone.get_by_label("Team A (points)").fill("10")
    phone.get_by_label("Team B (points)").fill("5")
    error = phone.locator("#final-error")
    expect(error).to_contain_text(f"Nobody has reached {goal}")
    phone.get_by_role("button", name="Submit as Team A", exact=True).click()
    expect(error).to_contain_text(f"Nobody has reached {goal}")
    shot(phone, artifacts, "09-final-score-entry.png")
    assert orm(lambda: Claim.objects.count()) == 0
    phone.get_by_label("Team A (points)").fill("61")
    phone.get_by_label("Team B (points)").fill("40")
    expect(error).to_be_hidden()
    phone.get_by_role("button", name="Submit as Team A", exact=True).click()
    expect(phone.locator("#claim-pending-A")).to_be_visible()

    other_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = other_ctx.new_page()
        other.goto(live_server.url + setup.path(0, side=1))  # side B's own link
        other.get_by_role("button", name="Confirm for Team B", exact=True).click()
        expect(other.locator("#claim-confirmed")).to_contain_text("Team A wins")
        shot(other, artifacts, "10-done.png")
    finally:
        other_ctx.close()
