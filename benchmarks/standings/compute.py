"""Benchmark: the pure standings computation for 2,000 teams x 10 Swiss rounds.

Only the pure part (``tournaments.standings``); the Django side adds the database load later (the
issue's target for the whole recompute, load included, is < 50 ms).

Run from the repository root:
    .venv/bin/python benchmarks/standings/compute.py [--teams 2000] [--rounds 10] [--runs 15]
    .venv/bin/python benchmarks/standings/compute.py --profile   # cProfile of one run

The event is generated from a seeded RNG: each round pairs the field by current match points
(random order within a score group, adjacent pairs), the stronger team (hidden rating) tends to
win; about 2 % draws, 1 % forfeits, a margin bonus for wins by 150 or more raw points.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments.standings import (
    Entry,
    PointsConfig,
    Result,
    RoundKind,
    compute_standings,
    unbroken_ties,
)

TIEBREAKS = [
    "match_points",
    "head_to_head",
    "buchholz",
    "median_buchholz",
    "opponents_win_rate",
    "wins",
    "spread",
    "points_for",
    "points_against",
]
POINTS = PointsConfig(win=2, draw=1, loss=0, bye=2, margin_bonus=1, margin_threshold=150)


def generate(teams: int, rounds: int, seed: int = 8) -> tuple[list[Entry], list[Result]]:
    rng = random.Random(seed)
    entries = [Entry(i, f"Team {i}") for i in range(1, teams + 1)]
    rating = {e.entry_id: rng.gauss(0, 1) for e in entries}
    points = dict.fromkeys(rating, 0)
    results: list[Result] = []
    match_id = 0
    for rnd in range(1, rounds + 1):
        order = sorted(rating, key=lambda e: (-points[e], rng.random()))
        if len(order) % 2:
            bye = order.pop()
            match_id += 1
            results.append(Result(match_id, rnd, RoundKind.SWISS, bye, None, 0, 0, None))
            points[bye] += 2
        for i in range(0, len(order), 2):
            a, b = order[i], order[i + 1]
            match_id += 1
            roll = rng.random()
            if roll < 0.02:
                score = rng.randrange(100, 300)
                results.append(Result(match_id, rnd, RoundKind.SWISS, a, b, score, score, None))
                points[a] += 1
                points[b] += 1
                continue
            forfeit = roll > 0.99
            a_wins = rng.random() < 1 / (1 + 10 ** (rating[b] - rating[a]))
            winner, loser = (a, b) if a_wins else (b, a)
            loser_score = 0 if forfeit else rng.randrange(0, 300)
            results.append(
                Result(
                    match_id,
                    rnd,
                    RoundKind.SWISS,
                    winner,
                    loser,
                    0 if forfeit else 305,
                    loser_score,
                    winner,
                    forfeit=forfeit,
                )
            )
            points[winner] += 2
    return entries, results


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--profile", action="store_true")
    return parser.parse_args()


def line(label: str, values: list[float]) -> str:
    """One timing of the report: the median, least and most of ``values`` (ms)."""
    return (
        f"{label:<34} median {statistics.median(values):6.1f} ms  "
        f"(min {min(values):.1f}, max {max(values):.1f})"
    )


def main() -> None:
    args = parse_args()

    t0 = time.perf_counter()
    entries, results = generate(args.teams, args.rounds)
    t1 = time.perf_counter()
    print(f"generated {len(entries)} entries, {len(results)} results in {t1 - t0:.2f} s")
    print(f"tiebreaks: {', '.join(TIEBREAKS)}")

    def run() -> object:
        return compute_standings(entries, results, points=POINTS, tiebreaks=TIEBREAKS)

    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(run)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(20)
        return

    rows = [
        (r.match_id, r.round_number, r.kind, r.entry_a, r.entry_b, r.score_a, r.score_b, r.winner)
        for r in results
    ]
    build_ms: list[float] = []
    compute_ms: list[float] = []
    compute_cpu_ms: list[float] = []
    json_ms: list[float] = []
    standings = run()  # warm-up
    for _ in range(args.runs):
        start = time.perf_counter()
        built = [Result(*row) for row in rows]  # what the Django side pays to make the records
        built_at = time.perf_counter()
        cpu = time.process_time()
        standings = compute_standings(entries, results, points=POINTS, tiebreaks=TIEBREAKS)
        cpu_end = time.process_time()
        middle = time.perf_counter()
        data = standings.to_json_bytes()
        end = time.perf_counter()
        build_ms.append((built_at - start) * 1000)
        compute_ms.append((middle - built_at) * 1000)
        compute_cpu_ms.append((cpu_end - cpu) * 1000)
        json_ms.append((end - middle) * 1000)
    assert len(built) == len(results)
    ties = unbroken_ties(standings, range(1, 33))

    print(f"{args.runs} runs after one warm-up:")
    print(line("compute_standings (wall)", compute_ms))
    print(line("compute_standings (process CPU)", compute_cpu_ms))
    print(line(f"to_json_bytes ({len(data):,} bytes)", json_ms))
    print(line(f"building {len(rows):,} Result records", build_ms))
    print(
        f"{len({r.rank for r in standings.rows})} distinct ranks for {len(standings.rows)} rows; "
        f"unbroken ties across places 1-32: {len(ties)} group(s)"
    )
    print(f"python {platform.python_version()} on {platform.machine()}")


if __name__ == "__main__":
    main()
