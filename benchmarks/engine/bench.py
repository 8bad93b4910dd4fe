"""Benchmark the rules engine: moves/s and hands/s on one core.

Usage, from the project's root:
    .venv/bin/python benchmarks/engine/bench.py [--hands 10000] [--runs 5] [--memory-mb 0]

1. A corpus of simulated matches (every rule set, 2 to 4 players, greedy and random bots, fixed
   seeds) with at least ``--hands`` hands is built once.
2. Pure call: ``scoring.verify`` over the already-decoded sheets (dicts in, verdicts out), run
   ``--runs`` times; CPU time of this process (``time.process_time``) and wall time, medians.
   "Moves" counts every entry of ``moves``: plays, draws and passes.
3. 15-hand matches: every corpus match with exactly 15 hands, each verified 20 times; the median
   time of one verification.
4. The command: ``manage.py verify_scoresheet --jsonl`` over the corpus written as JSONL, run
   ``--runs`` times; the child's CPU time (user + sys) and wall time, medians, with and without
   the start-up of an empty run (Django's import and set-up).
5. Optional (``--memory-mb N``): the command over an N-MB input made by repeating the corpus; its
   peak RSS shows that memory does not grow with the input.

The corpus is moved to the GC's permanent generation (``gc.freeze()``) once built: the command
holds one sheet at a time, so the cyclic collector's full passes over a corpus of millions of
objects would be an artefact of the benchmark.

The machine is shared with other work, so CPU time (which waiting for a core does not count) is
the figure to read; wall time is printed beside it.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scoring import parse_sheet, verify, verify_parsed  # noqa: E402
from scoring.simulate import simulate  # noqa: E402


def corpus(min_hands: int) -> list[dict[str, Any]]:
    sheets: list[dict[str, Any]] = []
    hands = 0
    seed = 0
    while hands < min_hands:
        for rules in ("five-up", "all-fives", "five-up-7"):
            for players in (2, 3, 4):
                for bot in ("greedy", "random"):
                    for s in simulate(rules, players, seed=seed, count=1, bot=bot):
                        sheets.append(s)
                        hands += len(s["hands"])
        seed += 1
    return sheets


def count(sheets: list[dict[str, Any]]) -> tuple[int, int]:
    hands = sum(len(s["hands"]) for s in sheets)
    moves = sum(len(h["moves"]) for s in sheets for h in s["hands"])
    return hands, moves


def time_pure(
    sheets: list[Any], runs: int, fn: Callable[[Any], Any] = verify
) -> tuple[float, float, float]:
    """(median CPU, median wall, best CPU) seconds of ``fn`` over every sheet."""
    cpu, wall = [], []
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        for s in sheets:
            fn(s)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall), min(cpu)


def time_15(sheets: list[dict[str, Any]]) -> tuple[int, float, float]:
    fifteen = [s for s in sheets if len(s["hands"]) == 15]
    per: list[float] = []
    for s in fifteen:
        c0 = time.process_time()
        for _ in range(20):
            verify(s)
        per.append((time.process_time() - c0) / 20)
    if not per:
        return 0, float("nan"), float("nan")
    return len(fifteen), statistics.median(per), max(per)


def child_run(path: str) -> tuple[float, float, int]:
    """(child CPU seconds, wall seconds, answered lines) of one --jsonl run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "manage.py", "verify_scoresheet", "--jsonl", path],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    wall = time.perf_counter() - w0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, out.stdout.count(b"\n")


def time_command(sheets: list[dict[str, Any]], runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "corpus.jsonl")
        empty = os.path.join(tmp, "empty.jsonl")
        with open(path, "w") as f:
            for i, s in enumerate(sheets):
                f.write(json.dumps({"id": i, "sheet": s}, separators=(",", ":")) + "\n")
        Path(empty).write_text("")
        size = os.path.getsize(path)
        full = [child_run(path) for _ in range(runs)]
        idle = [child_run(empty) for _ in range(runs)]
        assert all(n == len(sheets) for _c, _w, n in full)
    return {
        "bytes": size,
        "cpu": statistics.median(c for c, _w, _n in full),
        "wall": statistics.median(w for _c, w, _n in full),
        "startup_cpu": statistics.median(c for c, _w, _n in idle),
        "startup_wall": statistics.median(w for _c, w, _n in idle),
    }


def memory(sheets: list[dict[str, Any]], megabytes: int) -> tuple[int, float, int]:
    """(input bytes, seconds, peak RSS KiB of the child) for an input of about N MB."""
    block = "".join(
        json.dumps({"id": i, "sheet": s}, separators=(",", ":")) + "\n"
        for i, s in enumerate(sheets)
    ).encode()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.jsonl")
        written = 0
        with open(path, "wb") as f:
            while written < megabytes * 1_000_000:
                f.write(block)
                written += len(block)
        code = (
            "import resource, subprocess, sys\n"
            "subprocess.run([sys.executable, 'manage.py', 'verify_scoresheet', '--jsonl',"
            f" {path!r}], stdout=subprocess.DEVNULL, check=True)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        )
        w0 = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
        return written, time.perf_counter() - w0, int(out.stdout.strip())


def machine() -> str:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"- `uname -a`: {' '.join(platform.uname())}\n"
        f"- `nproc`: {os.cpu_count()}\n"
        f"- CPU: {model}\n"
        f"- Python {platform.python_version()} ({platform.python_implementation()})\n"
        f"- load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n"
        f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )


def profile(sheets: list[dict[str, Any]]) -> str:
    prof = cProfile.Profile()
    prof.enable()
    for s in sheets:
        verify(s)
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(8)
    lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls"))
    return "\n".join(lines[start:])


def report_command(sheets: list[dict[str, Any]], runs: int, hands: int, moves: int) -> None:
    """The section on ``manage.py verify_scoresheet --jsonl``: the whole run and its start-up."""
    c = time_command(sheets, runs)
    net_cpu = c["cpu"] - c["startup_cpu"]
    net_wall = c["wall"] - c["startup_wall"]
    print(f"## `manage.py verify_scoresheet --jsonl` (median of {runs} runs)")
    print(f"input {c['bytes'] / 1e6:.1f} MB\n")
    print("| | CPU | wall |\n|---|---|---|")
    print(f"| whole run | {c['cpu']:.3f} s | {c['wall']:.3f} s |")
    print(f"| start-up (empty input) | {c['startup_cpu']:.3f} s | {c['startup_wall']:.3f} s |")
    print(f"| moves/s, whole run | {moves / c['cpu']:,.0f} | {moves / c['wall']:,.0f} |")
    print(f"| hands/s, whole run | {hands / c['cpu']:,.0f} | {hands / c['wall']:,.0f} |")
    print(f"| moves/s, less start-up | {moves / net_cpu:,.0f} | {moves / net_wall:,.0f} |")
    print(f"| hands/s, less start-up | {hands / net_cpu:,.0f} | {hands / net_wall:,.0f} |\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--memory-mb", type=int, default=0)
    ap.add_argument("--no-command", action="store_true")
    args = ap.parse_args()

    sheets = corpus(args.hands)
    hands, moves = count(sheets)
    assert all(verify(s).valid for s in sheets)
    # The corpus (millions of objects) stays in memory for the whole benchmark; without this,
    # the cyclic GC's full collections would scan it again and again while verify allocates,
    # a cost the command (one sheet in memory at a time) never pays.
    gc.collect()
    gc.freeze()
    print(f"## Machine\n{machine()}\n")
    print(f"## Corpus\n{len(sheets)} simulated matches, {hands} hands, {moves} moves\n")

    cpu, wall, best = time_pure(sheets, args.runs)
    print(f"## Pure `scoring.verify` (decoded sheets in, verdicts out; {args.runs} runs)")
    print("| | CPU, median | wall, median | CPU, best run |\n|---|---|---|---|")
    print(f"| total | {cpu:.3f} s | {wall:.3f} s | {best:.3f} s |")
    print(f"| moves/s | {moves / cpu:,.0f} | {moves / wall:,.0f} | {moves / best:,.0f} |")
    print(f"| hands/s | {hands / cpu:,.0f} | {hands / wall:,.0f} | {hands / best:,.0f} |")
    print(
        f"| per hand | {cpu / hands * 1e6:.1f} µs | {wall / hands * 1e6:.1f} µs |"
        f" {best / hands * 1e6:.1f} µs |\n"
    )
    parsed = [parse_sheet(s) for s in sheets]
    pc, _pw, pb = time_pure(sheets, args.runs, parse_sheet)
    rc, _rw, rb = time_pure(parsed, args.runs, verify_parsed)
    print("Split (CPU, median / best): `parse_sheet` (shape checks, tuples) then the replay")
    print(f"(`verify_parsed`): {pc / moves * 1e9:.0f} / {pb / moves * 1e9:.0f} ns and")
    print(f"{rc / moves * 1e9:.0f} / {rb / moves * 1e9:.0f} ns per move.\n")

    n15, med15, max15 = time_15(sheets)
    print(
        f"## 15-hand matches\n{n15} matches of exactly 15 hands; one verification: median "
        f"{med15 * 1e3:.3f} ms CPU, slowest {max15 * 1e3:.3f} ms\n"
    )

    if not args.no_command:
        report_command(sheets, args.runs, hands, moves)

    if args.memory_mb:
        size, secs, rss = memory(sheets, args.memory_mb)
        print(
            f"## Constant memory\n{size / 1e6:.0f} MB through `--jsonl` in {secs:.1f} s wall; "
            f"peak RSS of the command {rss / 1024:.1f} MiB\n"
        )

    print("## Profile of the pure call (cProfile, sorted by own time)\n```")
    print(profile(sheets))
    print("```")


if __name__ == "__main__":
    main()
