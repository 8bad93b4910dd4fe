"""What splitting the engine's per-move loop into functions would cost.

``scoring.verify._Replay.move_hand`` is the one function over 60 lines the house keeps: its loop
runs once per move and keeps the layout in local variables (free sides, branch sides, ports per
value, the on-table mask, the end total, the turn, the draw state). Split into a function per
move kind, every move would pay a call that passes that state in and hands the changed part back.

This script measures that price on the engine's own corpus, in one process, interleaved:
``inline`` replays every move's placement arithmetic in the loop; ``split`` does the same
arithmetic in a function taking the state and returning the new end total (the least a split
must pass). Both run the real moves of the benchmark corpus (``bench.py``'s simulated matches).
The ratio ``split / inline`` of the medians is the figure; over 1.05 the split costs more than the
5 % the house allows, and the loop stays whole. It compares the placement step only (the loop's
fixed costs dilute it in the full engine), so ``verify``'s own slowdown is also printed: the
added time of the split per move against the measured time per move of ``scoring.verify``.

Run from the project's root: ``.venv/bin/python benchmarks/engine/split_cost.py --runs 9``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import scoring
from scoring.sheet import PLAY, parse_sheet
from scoring.simulate import simulate
from scoring.tiles import TILES

LOW = tuple(t.low for t in TILES)
HIGH = tuple(t.high for t in TILES)


def corpus(matches: int) -> list[dict[str, Any]]:
    sheets: list[dict[str, Any]] = []
    for rules, players in (("five-up", 4), ("all-fives", 3), ("five-up-7", 2)):
        sheets.extend(simulate(rules, players, seed=11, count=matches))
    return sheets


def plays(sheets: list[dict[str, Any]]) -> list[list[tuple[int, int]]]:
    """Per hand, its placements as (tile index, on index or -1)."""
    out: list[list[tuple[int, int]]] = []
    for sheet in sheets:
        for hand in parse_sheet(sheet).hands:
            assert hand.moves is not None
            out.append(
                [
                    (tile.index, -1 if on is None else on.index)
                    for kind, _seat, tile, on, _claimed, _drawn, _k in hand.moves
                    if kind == PLAY and tile is not None
                ]
            )
    return out


def inline(hands: list[list[tuple[int, int]]]) -> int:
    check = 0
    for hand in hands:
        free = [0] * 28
        ports = [0] * 7
        total = 0
        on_table = 0
        for ti, oj in hand:
            xl, xh = LOW[ti], HIGH[ti]
            if oj < 0:
                free[ti] = 3
                ports[xl] += 1
                ports[xh] += 1
                total = xl + xh
            else:
                v = LOW[oj] if free[oj] & 1 else HIGH[oj]
                free[oj] &= 2 if v == LOW[oj] else 1
                ports[v] -= 1
                total += (xh if xl == v else xl) - v
                free[ti] = 2 if xl == v else 1
            on_table |= 1 << ti
        check += total + on_table.bit_count()
    return check


def _place(
    ti: int, oj: int, free: list[int], ports: list[int], total: int, on_table: int
) -> tuple[int, int]:
    xl, xh = LOW[ti], HIGH[ti]
    if oj < 0:
        free[ti] = 3
        ports[xl] += 1
        ports[xh] += 1
        total = xl + xh
    else:
        v = LOW[oj] if free[oj] & 1 else HIGH[oj]
        free[oj] &= 2 if v == LOW[oj] else 1
        ports[v] -= 1
        total += (xh if xl == v else xl) - v
        free[ti] = 2 if xl == v else 1
    return total, on_table | 1 << ti


def split(hands: list[list[tuple[int, int]]]) -> int:
    check = 0
    for hand in hands:
        free = [0] * 28
        ports = [0] * 7
        total = 0
        on_table = 0
        for ti, oj in hand:
            total, on_table = _place(ti, oj, free, ports, total, on_table)
        check += total + on_table.bit_count()
    return check


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--matches", type=int, default=60)
    args = parser.parse_args()
    sheets = corpus(args.matches)
    hands = plays(sheets)
    moves = sum(len(h["moves"]) for s in sheets for h in s["hands"])
    placements = sum(len(h) for h in hands)
    gc.freeze()
    assert inline(hands) == split(hands)
    a: list[float] = []
    b: list[float] = []
    v: list[float] = []
    for _ in range(args.runs):  # interleaved, so drift in the machine's speed hits both alike
        t0 = time.process_time()
        inline(hands)
        t1 = time.process_time()
        split(hands)
        t2 = time.process_time()
        for sheet in sheets:
            scoring.verify(sheet)
        t3 = time.process_time()
        a.append(t1 - t0)
        b.append(t2 - t1)
        v.append(t3 - t2)
    per_call = (statistics.median(b) - statistics.median(a)) / placements
    per_move = statistics.median(v) / moves
    print(f"corpus: {len(sheets)} matches, {moves} moves, {placements} placements")
    print(f"placement step inline: {statistics.median(a) * 1e3:.1f} ms (median of {args.runs})")
    print(f"placement step split:  {statistics.median(b) * 1e3:.1f} ms")
    print(f"ratio split / inline:  {statistics.median(b) / statistics.median(a):.2f}")
    print(f"one call costs {per_call * 1e9:.0f} ns; verify spends {per_move * 1e9:.0f} ns a move")
    print(f"split's added cost in verify: {per_call * placements / statistics.median(v):.1%}")


if __name__ == "__main__":
    main()
