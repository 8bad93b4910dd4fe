"""Benchmark the Swiss pairing forced into rematches: 2,000 entries, round 10 (issue 17).

No rematch-free pairing of the field exists, so the round needs the fewest rematches. The history
is nine simulated Swiss rounds (``tournaments.pairing.simulate``, seeded) plus, for ``--hard``
entries drawn from the field, a past match against every other entry (as if they had met the
whole field): each of them must meet someone again. For each case:

- ``pair_swiss`` (the production path: ``rematches.hard_entries`` certifies the fewest
  rematches, then a window with rematches allowed) is timed end to end: wall and process CPU,
  median of ``--runs`` runs;
- with ``--dense``, the dense reference (``SwissOptions(dense=True)``: every pair a candidate,
  what the fallback did before) runs once, and its rematches and total weight are compared;
- one run under cProfile gives where the time goes.

Run from the repository root:
    .venv/bin/python benchmarks/pairing/bench_rematches.py [--runs 5] [--dense]
It writes benchmarks/pairing/RESULTS_rematches.md (``--out`` to change). Target: < 5 s.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import os
import platform
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rustworkx as rx  # noqa: E402

from tournaments.pairing import EntryRecord, PastMatch, SwissOptions, pair_swiss  # noqa: E402
from tournaments.pairing.simulate import simulate  # noqa: E402

SALT = "bench-rematches"
TARGET = 5.0


def forced(
    size: int, rounds: int, hard: int, seed: int
) -> tuple[list[EntryRecord], list[PastMatch]]:
    """``rounds`` simulated rounds, then ``hard`` entries that have met everyone."""
    entries, history, _ = simulate(size, rounds, seed=seed, salt=SALT)
    by_id = {e.entry_id: e for e in entries}
    for x in random.Random(seed).sample(sorted(by_id), hard):
        a = by_id[x]
        history.extend(
            PastMatch(rounds, a.entry_id, a.player_ids, b.entry_id, b.player_ids)
            for b in entries
            if b.entry_id != x
        )
    return entries, history


def timed(fn, runs: int) -> tuple[list[float], list[float], object]:  # type: ignore[no-untyped-def]
    walls, cpus, value = [], [], None
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        value = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return walls, cpus, value


def profile(fn, top: int = 14) -> str:  # type: ignore[no-untyped-def]
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    fn()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    return "\n".join(lines[start : start + top + 1])


def run_case(size: int, hard: int, runs: int, dense: bool) -> dict[str, object]:
    entries, history = forced(size, 9, hard, seed=size + hard)
    print(f"{size} entries, {hard} met everyone: history of {len(history)} matches", flush=True)

    def production():  # type: ignore[no-untyped-def]
        return pair_swiss(entries, history, round_no=10, salt=SALT)

    production()  # warm-up
    walls, cpus, rp = timed(production, runs)
    row: dict[str, object] = {
        "size": size,
        "hard": hard,
        "wall": statistics.median(walls),
        "cpu": statistics.median(cpus),
        "walls": walls,
        "rematches": rp.rematches,  # type: ignore[attr-defined]
        "window": rp.window,  # type: ignore[attr-defined]
        "weight": rp.total_weight,  # type: ignore[attr-defined]
        "notes": rp.notes,  # type: ignore[attr-defined]
        "profile": profile(production),
    }
    if dense:
        options = SwissOptions(dense=True)
        w, c = time.perf_counter(), time.process_time()
        reference = pair_swiss(entries, history, round_no=10, salt=SALT, options=options)
        row["dense_wall"] = time.perf_counter() - w
        row["dense_cpu"] = time.process_time() - c
        row["dense_rematches"] = reference.rematches
        row["dense_weight"] = reference.total_weight
    print(f"  median {row['wall']:.2f} s wall, {row['cpu']:.2f} s CPU", flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=2000)
    parser.add_argument("--hard", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--dense", action="store_true", help="also the dense reference (minutes)")
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).with_name("RESULTS_rematches.md")
    )
    args = parser.parse_args()
    load = os.getloadavg()
    rows = [run_case(args.size, hard, args.runs, args.dense) for hard in args.hard]
    load_after = os.getloadavg()
    lines = [
        "# Swiss pairing forced into rematches (issue 17)",
        "",
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"- uname -a: `{' '.join(platform.uname())}`; nproc: {os.cpu_count()} (shared)",
        f"- load average (1, 5, 15 min): {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} before, "
        f"{load_after[0]:.1f} {load_after[1]:.1f} {load_after[2]:.1f} after",
        f"- Python {platform.python_version()}, rustworkx {rx.__version__}",
        "",
        f"Command: `.venv/bin/python benchmarks/pairing/bench_rematches.py --runs {args.runs}"
        f"{' --dense' if args.dense else ''}`. {args.size} entries, nine simulated rounds, then "
        "the given number of entries made to have met everyone; round 10 paired by "
        f"`pair_swiss`, median of {args.runs} runs after a warm-up (wall and process CPU).",
        "",
        "| entries | met everyone | median wall s | median CPU s | target s | rematches | "
        "window | dense reference: rematches, same total weight, wall s, CPU s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        ok = "yes" if float(row["wall"]) < TARGET else "**missed**"  # type: ignore[arg-type]
        reference = "not run"
        if "dense_weight" in row:
            same = "yes" if row["dense_weight"] == row["weight"] else "**no**"
            reference = (
                f"{row['dense_rematches']}, {same}, {row['dense_wall']:.0f}, {row['dense_cpu']:.0f}"
            )
        lines.append(
            f"| {row['size']} | {row['hard']} | {row['wall']:.2f} | {row['cpu']:.2f} | "
            f"{TARGET} ({ok}) | {row['rematches']} | {row['window']} | {reference} |"
        )
    lines += ["", "## Where the time goes (cProfile, process CPU, one run, cumulative)", ""]
    for row in rows:
        lines += [f"### {row['hard']} met everyone", "", "```", str(row["profile"]), "```", ""]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
