"""Benchmark: the whole standings recompute of 2,000 teams x 10 rounds, database load included.

Target (issue 8): < 50 ms and <= 5 queries for the load. Measured on PostgreSQL, through the real
service (``tournaments.services.standings.recompute_standings``): the advisory lock, the reads, the
computation, the canonical bytes, the snapshot write and the bookkeeping; then each part alone.

Run from the repository root (a database of its own; it is migrated and filled once, then reused):
    createdb -h 127.0.0.1 -U postgres spinner_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_bench \\
        .venv/bin/python benchmarks/standings/recompute.py [--teams 2000] [--rounds 10] [--runs 11]
    ... recompute.py --profile     # cProfile of one forced recompute

The event (slug ``bench-<teams>x<rounds>``) is generated from a seeded RNG: each round pairs the
field by current match points (random within a score group), the stronger team (hidden rating)
tends to win 305 to a random score; the event's tiebreaks are the full list.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import gc
import os
import platform
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tournaments.models import (  # noqa: E402
    Entry,
    EntryPlayer,
    Event,
    Match,
    MatchResult,
    Partnership,
    Player,
    Round,
    StandingsSnapshot,
)
from tournaments.selectors import standings_records  # noqa: E402
from tournaments.services import standings as live  # noqa: E402

TIEBREAKS = [
    "head_to_head",
    "buchholz",
    "median_buchholz",
    "opponents_win_rate",
    "wins",
    "spread",
    "points_for",
    "points_against",
]


def build_event(teams: int, rounds: int, seed: int = 8) -> Event:
    """Create the benchmark event once (bulk inserts); reuse it when it is already complete."""
    slug = f"bench-{teams}x{rounds}"
    event = Event.objects.filter(slug=slug).first()
    if (
        event is not None
        and MatchResult.objects.filter(match__round__event=event).count() == (teams // 2) * rounds
    ):
        return event
    if event is not None:
        raise SystemExit(f"event {slug} exists but is incomplete: drop the database and rerun")
    rng = random.Random(seed)
    day = datetime.date(2026, 12, 5)
    with transaction.atomic():
        event = Event.objects.create(
            name=f"Benchmark {teams} x {rounds}",
            slug=slug,
            start_date=day,
            end_date=day,
            status=Event.Status.RUNNING,
            swiss_rounds=rounds,
            tiebreaks=TIEBREAKS,
            margin_bonus_points=1,
            margin_bonus_at=150,
        )
        players = Player.objects.bulk_create(Player(name=f"P{i}") for i in range(2 * teams))
        partnerships = Partnership.objects.bulk_create(
            Partnership(player_a=players[2 * i], player_b=players[2 * i + 1]) for i in range(teams)
        )
        entries = Entry.objects.bulk_create(
            Entry(event=event, partnership=p, name=f"Team {i + 1}", status="checked_in")
            for i, p in enumerate(partnerships)
        )
        EntryPlayer.objects.bulk_create(
            EntryPlayer(event=event, entry=e, player_id=pid)
            for e, p in zip(entries, partnerships, strict=True)
            for pid in (p.player_a_id, p.player_b_id)
        )
        strength = {e.pk: rng.random() for e in entries}
        points = dict.fromkeys(strength, 0)
        ids = list(strength)
        for number in range(1, rounds + 1):
            rnd = Round.objects.create(
                event=event, number=number, kind="swiss", status=Round.Status.CLOSED
            )
            order = sorted(ids, key=lambda e: (-points[e], rng.random()))
            pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
            matches = Match.objects.bulk_create(
                Match(round=rnd, entry_a_id=a, entry_b_id=b) for a, b in pairs
            )
            results = []
            for match, (a, b) in zip(matches, pairs, strict=True):
                a_wins = rng.random() < 0.5 + (strength[a] - strength[b]) / 2
                loser = rng.randrange(0, 300)
                score_a, score_b = (305, loser) if a_wins else (loser, 305)
                points[a if a_wins else b] += 2
                results.append(
                    MatchResult(
                        match=match,
                        version=1,
                        source="agreed",
                        kind="final_score",
                        score_a_halves=2 * score_a,
                        score_b_halves=2 * score_b,
                        winner_side=0 if a_wins else 1,
                    )
                )
            MatchResult.objects.bulk_create(results)
    return event


def timed(function: Any, runs: int) -> tuple[list[float], Any]:
    times, value = [], None
    for _ in range(runs):
        start = time.perf_counter()
        value = function()
        times.append((time.perf_counter() - start) * 1000)
    return times, value


def describe(label: str, times: list[float]) -> str:
    return (
        f"{label:<44} median {statistics.median(times):7.1f} ms"
        f"  (min {min(times):.1f}, max {max(times):.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("set DATABASE_URL to a PostgreSQL database of its own (see the docstring)")
    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    event = build_event(args.teams, args.rounds)
    print(f"event {event.slug}: ready in {time.perf_counter() - start:.1f} s")
    event_id = event.pk
    live.recompute_standings(event_id=event_id, force=True)  # warm-up (imports, caches)

    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        live.recompute_standings(event_id=event_id, force=True)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        return

    def fresh() -> Any:
        # A new generation every time: the latest snapshot goes, so the bytes are "new".
        latest = StandingsSnapshot.objects.filter(event_id=event_id).order_by("-generation")[0]
        latest.delete()
        return None

    whole_new, whole_same, cpu = [], [], []
    queries_new = queries_same = 0
    for _ in range(args.runs):
        fresh()
        with CaptureQueriesContext(connection) as captured:
            c0, t0 = time.process_time(), time.perf_counter()
            outcome = live.recompute_standings(event_id=event_id, force=True)
            whole_new.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        assert outcome.status == "new", outcome
        queries_new = len(captured.captured_queries)
        with CaptureQueriesContext(connection) as captured:
            t0 = time.perf_counter()
            outcome = live.recompute_standings(event_id=event_id, force=True)
            whole_same.append((time.perf_counter() - t0) * 1000)
        assert outcome.status == "unchanged", outcome
        queries_same = len(captured.captured_queries)
        live_queries = [q["sql"] for q in captured.captured_queries]

    with CaptureQueriesContext(connection) as captured:
        standings_records.load_standings_input(event_id=event_id)
    load_queries = len(captured.captured_queries)
    gc.disable()  # as compute_snapshot_bytes does for these parts
    load, data = timed(lambda: standings_records.load_standings_input(event_id=event_id), args.runs)
    compute, built = timed(lambda: standings_records.build_document(data), args.runs)
    document, _ = built
    encode, encoded = timed(lambda: standings_records.canonical_bytes(document), args.runs)
    fingerprint, _ = timed(lambda: standings_records.input_fingerprint(data), args.runs)
    gc.enable()

    print(
        f"{args.teams} teams x {args.rounds} rounds: {len(data.results)} results, "
        f"snapshot {len(encoded):,} bytes; {args.runs} runs after a warm-up"
    )
    print(describe("recompute, new generation (wall)", whole_new) + f"  {queries_new} queries")
    print(describe("recompute, new generation (process CPU)", cpu))
    print(
        describe("recompute, same bytes: no new generation", whole_same)
        + f"  {queries_same} queries"
    )
    print(
        describe("  load the records (event, entries, results)", load) + f"  {load_queries} queries"
    )
    print(describe("  compute (standings + page extras + ties)", compute))
    print(describe("  canonical bytes", encode))
    print(describe("  input fingerprint", fingerprint))
    print("queries of one recompute (same bytes):")
    for sql in live_queries:
        print("   ", sql[:110])
    print(
        f"python {platform.python_version()} on {platform.machine()}; "
        f"PostgreSQL {connection.pg_version}"
    )


if __name__ == "__main__":
    main()
