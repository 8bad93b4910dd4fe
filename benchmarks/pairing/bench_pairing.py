"""Benchmark the Swiss pairing: 500 and 2,000 teams at rounds 6 and 10.

For each case the history of the earlier rounds is simulated with a seeded RNG
(``tournaments.pairing.simulate``), then:

- ``pair_swiss`` (windowed, the production path) is timed end to end: median of ``--runs`` runs;
- the dense optimum (every rematch-free pair a candidate) is computed once, and its total weight
  compared with the windowed one;
- for the 500-team cases, networkx's ``max_weight_matching`` (pure Python) runs on exactly the
  candidate graph the windowed run used, next to rustworkx on the same graph (matching only);
- one run under cProfile gives where the time goes.

Run from the repository root:  .venv/bin/python benchmarks/pairing/bench_pairing.py
It writes benchmarks/pairing/RESULTS.md (``--out`` to change). Targets: 2,000 teams < 2 s,
500 teams < 0.3 s.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import platform
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import networkx as nx  # noqa: E402
import rustworkx as rx  # noqa: E402

from tournaments.pairing import SwissOptions, pair_swiss  # noqa: E402
from tournaments.pairing.ranking import rank_with_draws  # noqa: E402
from tournaments.pairing.simulate import simulate  # noqa: E402
from tournaments.pairing.swiss import candidate_edges, prepare_field, solve  # noqa: E402

SALT = "bench"
TARGET = {500: 0.3, 2000: 2.0}


def median_time(fn, runs: int) -> tuple[float, list[float]]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def machine() -> list[str]:
    cpu = "unknown"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    return [
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"- uname -a: `{' '.join(platform.uname())}`",
        f"- nproc: {nproc} (shared with other jobs)",
        f"- CPU: {cpu}",
        f"- Python {platform.python_version()}, rustworkx {rx.__version__}, "
        f"networkx {nx.__version__}",
    ]


def profile_summary(fn, top: int = 12) -> str:  # type: ignore[no-untyped-def]
    profiler = cProfile.Profile()
    profiler.enable()
    fn()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).sort_stats("cumulative")
    stats.print_stats(top)
    lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls"))
    return "\n".join(lines[start : start + top + 1])


def run_case(size: int, round_no: int, runs: int, dense: bool) -> dict[str, object]:
    entries, history, _ = simulate(size, round_no - 1, seed=size + round_no, salt=SALT)
    print(f"{size} teams, round {round_no}: history of {len(history)} matches", flush=True)

    def windowed():  # type: ignore[no-untyped-def]
        return pair_swiss(entries, history, round_no=round_no, salt=SALT)

    result = windowed()
    med, times = median_time(windowed, runs)
    row: dict[str, object] = {
        "size": size,
        "round": round_no,
        "median": med,
        "times": times,
        "window": result.window,
        "weight": result.total_weight,
        "rematches": result.rematches,
        "pairs": len(result.pairings),
    }
    if dense:
        start = time.perf_counter()
        opt = pair_swiss(
            entries, history, round_no=round_no, salt=SALT, options=SwissOptions(dense=True)
        )
        row["dense_time"] = time.perf_counter() - start
        row["dense_weight"] = opt.total_weight
    # the exact candidate graph of the windowed run, for the matching-only comparison
    options = SwissOptions()
    order, _ = rank_with_draws(
        [e for e in entries if e.active], salt=SALT, round_no=round_no, key=None
    )
    field = prepare_field(entries, history, order, options)
    assert result.window is not None
    edges = candidate_edges(field, result.window, allow_rematches=False)
    row["edges"] = len(edges)
    row["rx_time"], _ = median_time(lambda: solve(field.nodes, edges), runs)
    if size <= 500:
        graph = nx.Graph()
        graph.add_nodes_from(range(field.nodes))
        graph.add_weighted_edges_from(edges)
        start = time.perf_counter()
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        row["nx_time"] = time.perf_counter() - start
        row["nx_weight"] = sum(graph[a][b]["weight"] for a, b in matching)
        row["rx_weight"] = result.total_weight
    row["profile"] = profile_summary(windowed)
    print(f"  median {med:.3f}s window {result.window}", flush=True)
    return row


def baseline_and_profile(rows: list[dict[str, object]]) -> list[str]:
    """The report's last sections: the networkx baseline and where the time goes."""
    lines = [
        "",
        "## Baseline: networkx on the same 500-team graph",
        "",
        "The candidate graph of the windowed run (same nodes, edges and integer weights), "
        "matched by `networkx.max_weight_matching(maxcardinality=True)` (pure Python) and by "
        "`rustworkx.max_weight_matching(max_cardinality=True)` (matching only, median).",
        "",
        "| teams | round | edges | rustworkx s | networkx s | speed-up | same total weight |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        if "nx_time" not in row:
            continue
        lines.append(
            f"| {row['size']} | {row['round']} | {row['edges']} | {row['rx_time']:.3f} | "
            f"{row['nx_time']:.2f} | {row['nx_time'] / row['rx_time']:.0f}x | "  # type: ignore[operator]
            f"{'yes' if row['nx_weight'] == row['rx_weight'] else '**no**'} |"
        )
    lines += ["", "## Where the time goes (cProfile, one run, cumulative)", ""]
    for row in rows:
        lines += [
            f"### {row['size']} teams, round {row['round']}",
            "",
            "```",
            str(row["profile"]),
            "```",
            "",
        ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-dense-2000", action="store_true", help="skip the ~3 min dense run")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS.md"))
    args = parser.parse_args()
    rows = [
        run_case(size, r, args.runs, dense=not (size == 2000 and args.no_dense_2000))
        for size in (500, 2000)
        for r in (6, 10)
    ]
    lines = ["# Swiss pairing benchmark", "", *machine(), ""]
    lines += [
        f"Command: `.venv/bin/python benchmarks/pairing/bench_pairing.py --runs {args.runs}`. "
        "History simulated with a seeded RNG (random winners, margins 5-150, two-player teams); "
        "time is `pair_swiss` end to end (ranking, history, graph, matching, tables, "
        f"first-leader draws), median of {args.runs} runs.",
        "",
        "| teams | round | median s | target s | window | candidate edges | "
        "rematches | total weight = dense optimum | dense run s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        size = int(row["size"])  # type: ignore[call-overload]
        ok = "yes" if row["median"] < TARGET[size] else "**missed**"  # type: ignore[operator]
        same = (
            ("yes" if row["weight"] == row["dense_weight"] else "**no**")
            if "dense_weight" in row
            else "not run"
        )
        dense_time = f"{row['dense_time']:.1f}" if "dense_time" in row else "-"
        lines.append(
            f"| {size} | {row['round']} | {row['median']:.3f} | {TARGET[size]} ({ok}) | "
            f"{row['window']} | {row['edges']} | {row['rematches']} | {same} | {dense_time} |"
        )
    lines += baseline_and_profile(rows)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
