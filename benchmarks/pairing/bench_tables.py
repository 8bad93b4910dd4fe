"""Benchmark Swiss pairing at tables of 3 and 4: 1,000 players at tables of 4, round 6 (target
under 2 s), and a few neighbours, with repeat meetings against the proven lower bound.

History: rounds 1-5 played with ``pair_tables`` and seeded random scores
(``tournaments.pairing.simulate_tables``: placings 4/2/1/0, spread against the tablemates' mean).
Time: ``pair_tables`` end to end (ranking, history, seating search, tables, seat-order and
first-leader draws), median of ``--runs`` runs. The machine is shared: the load average is
printed before and after.

Run from the repository root:  .venv/bin/python benchmarks/pairing/bench_tables.py
It writes benchmarks/pairing/RESULTS_tables.md (``--out`` to change).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tournaments.pairing import TablesOptions, check_tables_round, pair_tables  # noqa: E402
from tournaments.pairing.simulate_tables import simulate_tables  # noqa: E402

SALT = "bench"
CASES = [(1000, (4,), 6, 2.0), (1000, (4, 3), 6, 2.0), (999, (4, 3), 6, 2.0), (200, (4, 3), 6, 0.5)]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def run_case(size: int, sizes: tuple[int, ...], round_no: int, runs: int) -> dict[str, object]:
    options = TablesOptions(table_sizes=sizes)
    entries, history, _ = simulate_tables(size, round_no - 1, seed=size, salt=SALT, options=options)
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = pair_tables(entries, history, round_no=round_no, salt=SALT, options=options)
        times.append(time.perf_counter() - start)
    assert result is not None
    start = time.perf_counter()
    violations = check_tables_round(result, entries, history, salt=SALT)
    check_time = time.perf_counter() - start
    print(f"{size} at {sizes}: median {statistics.median(times):.3f}s", flush=True)
    return {
        "size": size,
        "sizes": sizes,
        "round": round_no,
        "median": statistics.median(times),
        "min": min(times),
        "max": max(times),
        "tables": len(result.tables),
        "byes": len(result.byes),
        "repeats": result.repeats,
        "bound": result.repeat_lower_bound,
        "violations": len(violations),
        "check": check_time,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS_tables.md"))
    args = parser.parse_args()
    before = load()
    rows = [run_case(n, sizes, r, args.runs) for n, sizes, r, _ in CASES]
    after = load()
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    lines = [
        "# Swiss pairing at tables of 3 and 4: benchmark",
        "",
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"- uname -a: `{' '.join(platform.uname())}`",
        f"- nproc: {nproc}, shared with other jobs; load average (1, 5, 15 min) before the runs "
        f"{before}, after {after}",
        f"- Python {platform.python_version()}",
        "",
        f"Command: `.venv/bin/python benchmarks/pairing/bench_tables.py --runs {args.runs}`. "
        "History: rounds 1 to 5 paired by `pair_tables` with seeded random scores; time is "
        f"`pair_tables` end to end for the last round, median of {args.runs} runs (min-max "
        "beside it). Repeats are pairs of players at one table who had shared a table before; "
        "the bound is `repeat_lower_bound` (proven). The checker column is "
        "`check_tables_round` (violations found, and its time).",
        "",
        "| players | sizes | round | median s (min-max) | target s | tables | byes | "
        "repeats | lower bound | checker |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row, (_, _, _, target) in zip(rows, CASES, strict=True):
        ok = "yes" if row["median"] < target else "**missed**"  # type: ignore[operator]
        lines.append(
            f"| {row['size']} | {'/'.join(map(str, row['sizes']))} | {row['round']} | "  # type: ignore[call-overload]
            f"{row['median']:.3f} ({row['min']:.3f}-{row['max']:.3f}) | {target} ({ok}) | "
            f"{row['tables']} | {row['byes']} | {row['repeats']} | {row['bound']} | "
            f"{row['violations']} in {row['check']:.2f} s |"
        )
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
