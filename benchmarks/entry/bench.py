"""Benchmark: what entering a match on the table's phone costs, in inputs (taps and keys).

A 10-hand Five Up match in partnerships (to 200 raw), played by the simulator (seed 1), is
entered on the phone page at 390x844 in Debian's Chromium against a live server, with the
browser tests' own steps (``tests/e2e/phone_entry.py``), which count every input they make:

- by tally: each scoring play, how each hand ended, the pips left (a key a digit typed);
- move by move: each tile played, each place chosen, each draw and pass, and each hand's end.

Targets (issue 29): a tally at most 12 inputs a hand on average; move entry at most 2 taps a
placement, 1 when the tile has one legal place.

Run from the repository root (a pytest module: it uses the browser tests' fixtures):
    .venv/bin/python -m pytest benchmarks/entry/bench.py -q -s -p no:cacheprovider
``ENTRY_BENCH_OUT``: where to write the figures as JSON (default: print only);
``ENTRY_BENCH_COMMIT``: the commit to name (default: the checkout's HEAD);
``ENTRY_BENCH_MOVE_HANDS``: how many hands to enter move by move (default 10; the code before
the fix of issue 29 can enter only the first).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.simulate import simulate
from tests.conftest import browser, chromium_path  # noqa: F401
from tests.e2e.phone_entry import Inputs, Phone, open_phone
from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401
from tournaments import game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

ROOT = Path(__file__).resolve().parents[2]
TARGET, SEED, HANDS = 200, 1, 10
FIGURES: dict[str, Any] = {}


def match(slug: str) -> tuple[Any, dict[str, Any]]:
    setup = make_setup(slug, rules="five-up", target=TARGET)
    expected = game.expected_game(setup.event, setup.matches[0])
    (sheet,) = simulate(
        "five-up",
        expected["players"],
        SEED,
        target=TARGET,
        hand_size=expected["hand_size"],
        partnerships=expected["partnerships"],
    )
    assert len(sheet["hands"]) == HANDS
    return setup, sheet


def figures(inputs: Inputs, hands: int) -> dict[str, Any]:
    one = [taps for legal, taps in inputs.placements if legal == 1]
    more = [taps for legal, taps in inputs.placements if legal > 1]
    return {
        "hands": hands,
        "taps": inputs.taps,
        "keys": inputs.keys,
        "inputs": inputs.total,
        "inputs_per_hand": round(inputs.total / hands, 2),
        "placements": len(inputs.placements),
        "placements_one_place": len(one),
        "taps_per_placement_one_place": round(sum(one) / len(one), 2) if one else None,
        "placements_more_places": len(more),
        "taps_per_placement_more_places": round(sum(more) / len(more), 2) if more else None,
    }


def test_a_10_hand_tally(live_server: Any, browser: Any) -> None:  # noqa: F811
    setup, sheet = orm(match, "bench-tally")
    page = open_phone(browser, live_server.url + setup.path())
    try:
        phone = Phone(page)
        phone.enter_tally(sheet)
        expect(page.locator("#winner")).to_be_visible()
    finally:
        page.context.close()
    FIGURES["tally"] = figures(phone.inputs, HANDS)


def test_a_10_hand_match_move_by_move(live_server: Any, browser: Any) -> None:  # noqa: F811
    hands = int(os.environ.get("ENTRY_BENCH_MOVE_HANDS", HANDS))
    setup, sheet = orm(match, "bench-moves")
    page = open_phone(browser, live_server.url + setup.path())
    try:
        phone = Phone(page)
        phone.enter_moves(sheet, hands=hands)
        if hands == HANDS:
            expect(page.locator("#winner")).to_be_visible()
        else:
            settled = page.get_by_role("heading", name=f"Hand {hands} settled")  # blocked
            went_out = page.locator("#last-hand", has_text=f"Hand {hands}:")  # a domino
            expect(settled.or_(went_out)).to_be_visible()
    finally:
        page.context.close()
    FIGURES["moves"] = figures(phone.inputs, hands)


def test_write_the_figures() -> None:
    """After the entries (both, or the one chosen with ``-k``): the figures, with the machine,
    the date and the commit."""
    assert FIGURES and set(FIGURES) <= {"tally", "moves"}
    commit = (
        os.environ.get("ENTRY_BENCH_COMMIT")
        or subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
    )
    report = {
        "commit": commit,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.node()} {platform.machine()} {platform.system()} "
        f"{platform.release()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "match": f"five-up, 4 players in partnerships, to {TARGET}, simulator seed {SEED}",
        **FIGURES,
    }
    text = json.dumps(report, indent=2)
    print(text)
    out = os.environ.get("ENTRY_BENCH_OUT")
    if out:
        Path(out).write_text(text + "\n")
