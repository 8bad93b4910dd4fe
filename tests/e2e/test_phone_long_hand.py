"""A long hand entered move by move at 390x844 stays legible (issue 14): a real hand of 20+
tiles with several spinners, played by the engine's simulator and entered tap by tap on the
drawn table, for Five Up and Five Up (7 tiles).

After every pick and every placement the test measures the drawing in the browser: each tile's
short side at least ZOOM_MIN CSS px (20), each legal place's tap target at least 44 px, the last
tile placed and the legal places inside the table's pane and the page's view (between the
sticky scorebar and the dock), and no horizontal scroll of the page. The whole entry of a match
(to "Match over" and the submission) is watched by a PerformanceObserver for layout shifts.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import Tile, verify
from scoring.simulate import simulate
from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401
from tournaments import game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
MIN_TILE_PX = 20  # a tile's short side (phone.js ZOOM_MIN): its numbers (12 px) stay legible
MIN_TAP_PX = 44

# Layout shifts, as Chromium reports them, summed from the first paint: all of them, and those
# not within 500 ms of a tap (the ones the Cumulative Layout Shift counts).
CLS_SCRIPT = """
window.__shifts = { all: 0, unexpected: 0, entries: [] };
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) {
    window.__shifts.all += e.value;
    if (!e.hadRecentInput) {
      window.__shifts.unexpected += e.value;
      window.__shifts.entries.push({ value: e.value, at: e.startTime,
        nodes: (e.sources || []).map(function (s) {
          return (s.node ? (s.node.id || s.node.className || s.node.nodeName) : "?") + " " +
            Math.round(s.previousRect.y) + "->" + Math.round(s.currentRect.y) + " h" +
            Math.round(s.previousRect.height) + "->" + Math.round(s.currentRect.height); }) });
    }
  });
}).observe({ type: "layout-shift", buffered: true });
"""


def shot(page: Any, artifacts: Path, name: str, screen: str | None = None) -> None:
    """A screenshot in the test's artifacts; with SPINNER_UPDATE_SCREENS=1 also as ``screen``
    in docs/screens/ (listed in its README)."""
    page.screenshot(path=str(artifacts / name))
    if screen and os.environ.get("SPINNER_UPDATE_SCREENS") == "1":
        page.screenshot(path=str(SCREENS / screen))


def pips(tiles: list[str]) -> int:
    return sum(Tile.parse(t).pips for t in tiles)


def as_entered(hand: dict[str, Any]) -> dict[str, Any]:
    """A simulated hand as the phone writes it: draws as counts, pips left per seat."""
    moves = [
        {"seat": m["seat"], "draw": len(m["draw"])} if "draw" in m else dict(m)
        for m in hand["moves"]
    ]
    return {
        "leader": hand["leader"],
        "moves": moves,
        "end": hand["end"],
        "finisher": hand.get("finisher"),
        "remaining": [pips(r) for r in hand["remaining"]],
    }


def long_hand(expected: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The first simulated hand (seeds 0, 1, ...) of the event's game with 20+ tiles played, at
    least three doubles (spinners) among them, ending in a domino; and a target that makes it
    the match's last hand (the top score after it, if the engine says the match is then over
    with no fault, e.g. no side reaching it earlier in a game that ends at once)."""
    for seed in range(300):
        for sheet in simulate(
            expected["rules"],
            expected["players"],
            seed,
            hand_size=expected["hand_size"],
            partnerships=expected["partnerships"],
        ):
            for hand in sheet["hands"]:
                plays = [m["play"] for m in hand["moves"] if "play" in m]
                doubles = [t for t in plays if Tile.parse(t).is_double]
                if len(plays) >= 20 and len(doubles) >= 3 and hand["end"] == "domino":
                    entered = as_entered(hand)
                    top = max(after_hand(expected, entered, 100_000)["scores"])
                    decided = after_hand(expected, entered, top)
                    if top > 0 and decided["valid"] and decided["finished"]:
                        return entered, top
    raise AssertionError("the simulator gave no long hand")  # pragma: no cover


def after_hand(expected: dict[str, Any], hand: dict[str, Any], target: int) -> dict[str, Any]:
    """The engine's verdict on ``hand`` as a match's first hand, to ``target``."""
    sheet = {"format": "fives-scoresheet/1", **expected, "target": target, "hands": [hand]}
    return dict(verify(sheet).as_dict())


def tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def measure(page: Any) -> dict[str, Any]:
    """The drawing's figures, in CSS px of the page."""
    return page.evaluate(
        """() => {
          const box = (el) => { const r = el.getBoundingClientRect();
            return { l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height }; };
          const pane = document.getElementById("layout");
          const svg = pane.querySelector("svg.table-svg");
          const bar = document.querySelector(".scorebar").getBoundingClientRect().bottom;
          const dock = document.getElementById("dock");
          const floor = dock.offsetHeight ? dock.getBoundingClientRect().top : innerHeight;
          return {
            pane: box(pane), bar: bar, floor: floor,
            tiles: svg ? [...svg.querySelectorAll("g.tile > rect")].map(box) : [],
            spinners: svg ? svg.querySelectorAll("g.tile.spinner").length : 0,
            last: svg && svg.querySelector("g.tile.last > rect")
              ? box(svg.querySelector("g.tile.last > rect")) : null,
            targets: svg ? [...svg.querySelectorAll(".target")].map(box) : [],
            pageScrollX: document.documentElement.scrollWidth
              - document.documentElement.clientWidth,
            scrollX: window.scrollX,
            drawing: svg ? {
              scroll: [pane.scrollLeft, pane.scrollTop, pane.scrollWidth, pane.clientWidth],
              size: [svg.getAttribute("width"), svg.getAttribute("height")], box: box(svg),
              focus: svg.getAttribute("data-focus"), zoom: +svg.getAttribute("data-zoom") } : null,
          };
        }"""
    )


def inside(inner: dict[str, float], outer: dict[str, float], slack: float = 0.5) -> bool:
    return (
        inner["l"] >= outer["l"] - slack
        and inner["r"] <= outer["r"] + slack
        and inner["t"] >= outer["t"] - slack
        and inner["b"] <= outer["b"] + slack
    )


def assert_legible(m: dict[str, Any], *, what: str) -> bool:
    """Assert what the drawing must be; True when the legal places lie further apart than the
    pane holds even at the smallest zoom (then the pane is at that zoom, centred on them, and
    the places off the pane are a scroll away, or a tap on their buttons below)."""
    assert m["pageScrollX"] <= 0 and m["scrollX"] == 0, f"{what}: the page scrolls sideways"
    assert m["tiles"], what
    short = min(min(t["w"], t["h"]) for t in m["tiles"])
    assert short >= MIN_TILE_PX - 0.5, f"{what}: a tile's short side is {short:.1f} px"
    view = {"l": 0.0, "r": 390.0, "t": m["bar"], "b": m["floor"]}
    assert inside(m["pane"], view), f"{what}: the table is not in view: {m['pane']} in {view}"
    targets = m["targets"]
    for target in targets:
        assert min(target["w"], target["h"]) >= MIN_TAP_PX - 0.5, f"{what}: target {target}"
    if not targets:
        return False
    union = {
        "l": min(t["l"] for t in targets),
        "r": max(t["r"] for t in targets),
        "t": min(t["t"] for t in targets),
        "b": max(t["b"] for t in targets),
    }
    pane = m["pane"]
    fits = union["r"] - union["l"] <= pane["w"] and union["b"] - union["t"] <= pane["h"]
    if fits:
        for target in targets:
            assert inside(target, pane), (
                f"{what}: a legal place is out of view: {target} {m['drawing']}"
            )
        return False
    assert m["drawing"]["zoom"] == MIN_TILE_PX, f"{what}: spread places, not zoomed out: {m}"
    assert any(inside(t, pane) for t in targets), f"{what}: no legal place in view: {m['drawing']}"
    return True


def enter_hand(
    page: Any, hand: dict[str, Any], seat_labels: list[str], shots: Path, rules: str
) -> tuple[int, int, int]:
    """Enter ``hand`` move by move, tapping the drawn table; returns the number of placements,
    of picks placed on the drawing, and of those whose places did not fit the pane at once."""
    placed = picks = spread = 0
    shot_at = {1, 8, 16, 24}
    for m in hand["moves"]:
        if "draw" in m:
            for k in range(m["draw"]):
                tap(page, "Drew one more" if k else "Drew from the boneyard")
            continue
        if m.get("pass"):
            tap(page, "Passed")
            continue
        tile = str(Tile.parse(m["play"]))
        entries = page.locator("#entry ol.entries > li")
        count = entries.count()
        tap(page, f"Tile {tile}")
        # A tile with one legal place is placed at its tap; one with more offers its places.
        targets = page.locator("#layout svg .target")
        expect(entries.nth(count).or_(targets.first)).to_be_visible()
        if entries.count() == count:
            on = str(Tile.parse(m["on"]))
            target = page.locator(f'#layout svg .target[aria-label="Place on {on}"]')
            expect(target).to_have_count(1)
            measured = measure(page)
            spread += assert_legible(measured, what=f"{tile} picked")
            picks += 1
            if placed + 1 in shot_at:
                screen = f"11-moves-{rules}-pick.png" if placed + 1 == 16 else None
                shot(page, shots, f"pick-{placed + 1:02d}.png", screen)
            target.click()
        expect(entries).to_have_count(count + 1)
        score = m["score"]
        if score:
            points = score // 5
            unit = "point" if points == 1 else "points"
            expect(entries.nth(count)).to_contain_text(f"{points} {unit}")
        placed += 1
        # The table is drawn again with the tile just placed marked as the last one.
        expect(page.locator(f'#layout svg g.tile.last[data-tile="{tile}"]')).to_have_count(1)
        measured = measure(page)
        assert_legible(measured, what=f"{tile} placed")
        assert measured["last"] is not None and inside(measured["last"], measured["pane"]), (
            f"{tile} placed: the last tile is out of view: {measured['last']} in {measured['pane']}"
        )
        if placed in shot_at:
            screen = f"12-moves-{rules}-placed.png" if placed == 16 else None
            shot(page, shots, f"placed-{placed:02d}.png", screen)
    return placed, picks, spread


def open_table(browser: Any, live_server: Any, path: str) -> tuple[Any, Any]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.add_init_script(CLS_SCRIPT)
    page.goto(live_server.url + path)
    return context, page


def seat_labels(page: Any) -> list[str]:
    cfg = page.evaluate("() => JSON.parse(document.getElementById('phone-config').textContent)")
    return [f"{s['player']} ({s['compass']})" for s in cfg["seats"]]


@pytest.mark.parametrize("rules", ["five-up", "five-up-7"])
def test_a_long_hand_stays_legible_to_match_over_without_layout_shift(
    live_server: Any, browser: Any, artifacts: Path, rules: str
) -> None:
    # The hand decides the match: the target is the winning side's score after it.
    def event_setup() -> tuple[Any, dict[str, Any]]:
        setup = make_setup(f"long-{rules}", rules=rules)
        hand, top = long_hand(game.expected_game(setup.event))
        setup.event.target = top
        setup.event.save(update_fields=["target"])
        return setup, hand

    setup, hand = orm(event_setup)
    context, page = open_table(browser, live_server, setup.path())
    try:
        labels = seat_labels(page)
        tap(page, labels[hand["leader"]])
        tap(page, "Move by move")
        expect(page.get_by_text("The table is empty")).to_be_visible()
        placed, picks, spread = enter_hand(page, hand, labels, artifacts, rules)
        assert placed >= 20 and picks >= 1  # some tile had more than one place to choose
        measured = measure(page)
        assert measured["spinners"] >= 3, measured["spinners"]
        shot(page, artifacts, "long-hand-entered.png")

        # Zoom: the − button stops at the legible minimum; + brings the tiles back up.
        while page.get_by_role("button", name="Zoom out").is_enabled():
            tap(page, "Zoom out")
        smallest = measure(page)
        shot(page, artifacts, "long-hand-zoomed-out.png", f"13-moves-{rules}-zoomed-out.png")
        assert_legible(smallest, what="zoomed out")
        assert min(min(t["w"], t["h"]) for t in smallest["tiles"]) < 32
        tap(page, "Zoom in")
        zoomed = measure(page)
        assert min(min(t["w"], t["h"]) for t in zoomed["tiles"]) > min(
            min(t["w"], t["h"]) for t in smallest["tiles"]
        )

        # Pinch (two fingers spreading on the pane) zooms the drawing, never the page.
        # The pane's place now (the zoom taps may have scrolled the page since it was measured),
        # and the fingers' midpoint must land on it.
        now = measure(page)
        pane = now["pane"]
        top, bottom = max(pane["t"], now["bar"]), min(pane["b"], now["floor"])
        cx, cy = (pane["l"] + pane["r"]) / 2, (top + bottom) / 2
        assert page.evaluate(
            "([x, y]) => !!document.elementFromPoint(x, y)?.closest('#layout')", [cx, cy]
        ), (pane, page.evaluate("() => [window.scrollX, window.scrollY]"))
        cdp = context.new_cdp_session(page)
        before = page.evaluate("() => +document.querySelector('#layout svg').getAttribute('width')")

        def touch(kind: str, apart: float) -> None:
            points = (
                []
                if kind == "touchEnd"
                else [
                    {"x": cx - apart, "y": cy, "id": 1},
                    {"x": cx + apart, "y": cy, "id": 2},
                ]
            )
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", 30)
        for apart in (40, 55, 70):
            touch("touchMove", apart)
        touch("touchEnd", 0)
        expect(page.locator("#layout svg")).not_to_have_attribute("width", f"{before:.1f}")
        after = page.evaluate("() => +document.querySelector('#layout svg').getAttribute('width')")
        assert after > before
        assert page.evaluate("() => window.visualViewport.scale") == 1
        assert_legible(measure(page), what="pinched")
        shot(page, artifacts, "long-hand-pinched.png")

        # The hand's end and its settlement on a slow connection (600 ms each way), so that the
        # engine's "match over" arrives well after the tap: the page must not jump then.
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 600, "downloadThroughput": -1, "uploadThroughput": -1},
        )
        tap(page, "End the hand")
        tap(page, f"{labels[hand['finisher']]} dominoed")
        for seat, left in enumerate(hand["remaining"]):
            if seat != hand["finisher"]:
                page.locator(f"#pips-{seat}").fill(str(left))
        tap(page, "Settle hand 1")
        expect(page.get_by_role("heading", name="Match over")).to_be_visible()
        shot(page, artifacts, "match-over.png", f"14-moves-{rules}-match-over.png")
        tap(page, "Submit as Team A")
        expect(page.locator("#claim-pending-A")).to_be_visible()

        shifts = page.evaluate("() => window.__shifts")
        print(
            f"{rules}: {placed} tiles placed, {picks} on the drawing, {spread} with places"
            f" wider than the pane; layout shift {shifts}"
        )
        assert shifts["unexpected"] < 0.1, shifts
    finally:
        context.close()
