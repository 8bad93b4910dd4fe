"""Entering a simulated match on the table's phone page, as a player does it: the steps the
browser tests (and ``benchmarks/entry``) share.

A sheet from ``scoring.simulate`` is typed in tap by tap, by tally (each scoring play one tap,
then how the hand ended and the pips left) or move by move (each tile played, each draw and
pass); nothing is made up here. Every input is counted in an ``Inputs`` (taps, and keys typed
into the pips and score fields), so that a benchmark can say what an entry costs.

``in_view``: each control of a play (a tile, its place, a draw, a pass, "End the hand") is
checked to be in the page's view (below the sticky scorebar, above the dock, and on top at its
centre) and at least 44 px either way before it is tapped: reachable without a scroll.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from scoring.tiles import Tile
from tests.conftest import ARTIFACTS

MIN_TAP_PX = 44  # a play's control, at least this wide and high


@dataclass
class Inputs:
    """What the entry cost: taps, keys typed, and the placements made (with one legal place,
    and with more)."""

    taps: int = 0
    keys: int = 0
    placements: list[tuple[int, int]] = field(default_factory=list)  # (legal places, taps)
    hands: int = 0

    @property
    def total(self) -> int:
        return self.taps + self.keys


@dataclass
class Phone:
    """One phone page, its seat labels and its display divisor (from the page's config)."""

    page: Any
    inputs: Inputs = field(default_factory=Inputs)
    in_view: bool = False
    checked: int = 0  # controls checked to be in view before their tap
    shots: Path | None = None  # where to keep a screenshot of each state of move entry once
    shot: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        cfg = self.page.evaluate(
            "() => JSON.parse(document.getElementById('phone-config').textContent)"
        )
        self.labels = [
            f"{s['player']} ({s['compass']})" if s.get("compass") else s["player"]
            for s in cfg["seats"]
        ]
        self.divisor = int(cfg["divisor"])
        self.tally_values = list(cfg["tally_values"])

    def screenshot(self, name: str) -> None:
        if self.shots is not None and name not in self.shot:
            self.shot.add(name)
            self.page.screenshot(path=str(self.shots / f"{name}.png"))

    # ----------------------------------------------------------------- taps and keys
    def tap_locator(self, locator: Any, *, play: bool = False) -> None:
        expect(locator).to_be_visible()
        if self.in_view and play:
            assert_in_view(self.page, locator, min_side=MIN_TAP_PX)
            self.checked += 1
        locator.click()
        self.inputs.taps += 1

    def tap(self, name: str | re.Pattern[str], *, play: bool = False) -> None:
        exact = isinstance(name, str)
        self.tap_locator(self.page.get_by_role("button", name=name, exact=exact), play=play)

    def type_into(self, locator: Any, text: str) -> None:
        locator.fill(text)
        self.inputs.keys += len(text)

    def points(self, raw: int) -> str:
        shown = raw // self.divisor if raw % self.divisor == 0 else raw / self.divisor
        return f"{shown} point" if shown == 1 else f"{shown} points"

    # ----------------------------------------------------------------- a hand's end
    def end_hand(self, i: int, hand: dict[str, Any], *, moves: bool) -> None:
        """How hand ``i`` (0-based) ended and the pips left; nothing when the target ended the
        match during the hand (the simulator wrote no end)."""
        if "end" not in hand:
            return
        if moves:
            self.tap("End the hand", play=True)
            self.screenshot("moves-4-ending")
        finisher = hand.get("finisher")
        self.tap(
            f"{self.labels[finisher]} dominoed"
            if finisher is not None
            else "Blocked (nobody can play)"
        )
        for seat, tiles in enumerate(hand["remaining"]):
            if seat != finisher:
                field = self.page.locator(f"#pips-{seat}")
                self.type_into(field, str(sum(Tile.parse(t).pips for t in tiles)))
        self.tap(f"Settle hand {i + 1}")
        self.inputs.hands += 1

    def next_leader(self, i: int, hands: list[dict[str, Any]]) -> None:
        """After hand ``i`` was blocked, the next leader (chosen by lot at the table)."""
        if i + 1 < len(hands) and hands[i].get("end") == "blocked":
            self.tap(self.labels[hands[i + 1]["leader"]])

    def heading(self, i: int, leader: int) -> None:
        expect(
            self.page.get_by_role("heading", name=f"Hand {i + 1} · {self.labels[leader]} led")
        ).to_be_visible()

    # ----------------------------------------------------------------- move by move
    def enter_moves(self, sheet: dict[str, Any], *, hands: int | None = None) -> None:
        """The sheet's hands (the first ``hands`` of them) move by move."""
        chosen = sheet["hands"][:hands] if hands else sheet["hands"]
        self.tap(self.labels[chosen[0]["leader"]])  # the first leader, by lot at the table
        for i, hand in enumerate(chosen):
            self.heading(i, hand["leader"])
            if self.page.get_by_role("button", name="Move by move", exact=True).count():
                self.tap("Move by move")
            expect(self.page.locator("#layout")).to_be_visible()
            for k, move in enumerate(hand["moves"]):
                if i == 1 and k == 2:
                    self.screenshot("moves-1-hand-2-tiles")
                self.move(move, recorded=k + 1)
            self.end_hand(i, hand, moves=True)
            self.next_leader(i, chosen)

    def move(self, move: dict[str, Any], *, recorded: int) -> None:
        """One simulated move; ``recorded``: how many entries the hand has after it (a phone
        entry per simulated move: draws of one turn are one entry, counted)."""
        page = self.page
        entries = page.locator("#entry ol.entries > li")
        if "draw" in move:
            for n in range(len(move["draw"])):
                self.tap("Drew one more" if n else "Drew from the boneyard", play=True)
            expect(entries).to_have_count(recorded)
            return
        if move.get("pass"):
            self.tap("Passed", play=True)
            expect(entries).to_have_count(recorded)
            return
        tile = str(Tile.parse(move["play"]))
        before = self.inputs.taps
        self.tap(f"Tile {tile}", play=True)
        places = page.locator("#entry button[data-action=place]")  # (not the drawing's targets)
        confirm = page.get_by_role("button", name=re.compile(r"^Confirm: "))
        # Placed at once (one legal place), or its places are offered.
        expect(entries.nth(recorded - 1).or_(places.first).or_(confirm)).to_be_visible()
        legal = places.count() if places.count() else 1
        if entries.count() < recorded:
            on = move.get("on")
            where = "Open the hand" if on is None else "On " + str(Tile.parse(on)).replace("-", "|")
            if places.count():
                self.screenshot("moves-2-places")
                name = re.compile("^" + re.escape(where + " → "))
                self.tap_locator(places.and_(page.get_by_role("button", name=name)), play=True)
            # The code before: the place, then its Confirm.
            expect(entries.nth(recorded - 1).or_(confirm)).to_be_visible()
            if entries.count() < recorded:
                self.tap_locator(confirm, play=True)
        expect(entries).to_have_count(recorded)
        expect(entries.nth(recorded - 1)).to_contain_text(tile.replace("-", "|"))
        if move.get("score"):
            expect(entries.nth(recorded - 1)).to_contain_text(self.points(move["score"]))
        self.inputs.placements.append((legal, self.inputs.taps - before))
        if legal > 1:
            self.screenshot("moves-3-placed")

    # ----------------------------------------------------------------- the tally
    def enter_tally(self, sheet: dict[str, Any], *, hands: int | None = None) -> None:
        """The sheet's hands as a tally: each scoring play one tap (or "Other…" and its
        points), then how the hand ended."""
        chosen = sheet["hands"][:hands] if hands else sheet["hands"]
        self.tap(self.labels[chosen[0]["leader"]])
        for i, hand in enumerate(chosen):
            self.heading(i, hand["leader"])
            for move in hand["moves"]:
                score = move.get("score") or 0
                if not score:
                    continue
                label = self.labels[move["seat"]]
                if score in self.tally_values:
                    self.tap(f"{label} scores {self.points(score)}")
                else:
                    self.tap("Other…")
                    field = self.page.get_by_label(re.compile("^Another score"))
                    self.type_into(field, str(score // self.divisor))
                    self.tap(f"to {label}")
            self.end_hand(i, hand, moves=False)
            self.next_leader(i, chosen)


def assert_in_view(page: Any, locator: Any, *, min_side: float = 0, timeout: float = 5.0) -> None:
    """``locator`` is whole between the sticky scorebar and the dock, and is what a tap at its
    centre reaches (nothing lies over it), and at least ``min_side`` px either way: it can be
    tapped without a scroll. Polled with a
    deadline: the engine's answer may redraw the entry (and the page bring it into view)."""
    deadline = time.monotonic() + timeout
    while True:
        found = locator.evaluate(IN_VIEW)
        fits = found["hit"] and found["top"] >= found["bar"] - 0.5
        large = min(found["w"], found["h"]) >= min_side - 0.5
        if fits and large and found["bottom"] <= found["floor"] + 0.5:
            return
        if time.monotonic() > deadline:
            page.screenshot(path=str(ARTIFACTS / "not-in-view.png"))
            raise AssertionError(f"not in view without a scroll: {found}")
        time.sleep(0.05)


IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  const bar = document.querySelector(".scorebar").getBoundingClientRect().bottom;
  const dock = document.getElementById("dock");
  const inDock = dock.contains(el);
  const floor = !inDock && dock.offsetHeight ? dock.getBoundingClientRect().top : innerHeight;
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return { top: r.top, bottom: r.bottom, w: r.width, h: r.height,
           bar: inDock ? 0 : bar, floor: floor,
           hit: !!hit && (hit === el || el.contains(hit)),
           label: el.getAttribute("aria-label") || el.textContent };
}"""


def open_phone(
    browser: Any, url: str, *, width: int = 390, height: int = 844, font: int = 0
) -> Any:
    """A new browser context with one page at ``url``; ``font``: the browser's default font
    size in px (as a reader who enlarged it has it), set through Chromium's DevTools protocol."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=1, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    if font:
        cdp = context.new_cdp_session(page)
        cdp.send("Page.enable")
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": font, "fixed": font}})
    page.goto(url)
    return page
