"""Benchmark: the whole standings recompute of 2,000 teams x 10 rounds, database load included.

Target (issues 8 and 17): < 50 ms of CPU for the whole recompute as the worker runs it, <= 5
queries for the load. Measured on PostgreSQL, through the real service
(``tournaments.services.standings.recompute_standings``): the advisory lock, the reads, the
computation, the canonical bytes, the snapshot write and the bookkeeping.

Every measured recompute follows a correction (one result of the last round gets a new current
version with the other winner), so each writes a new snapshot, as after a result during an event:

- **warm**: the worker's process recomputed this event before (the steady state of an event: it
  reuses that computation where the results did not change; ``standings.incremental``);
- **cold**: the process remembers nothing (its first recompute of the event after it started).

For each: process CPU time (median, min) and wall time of the recompute, and PostgreSQL's share:
the CPU time of the connection's server process during the recompute (``/proc/<pid>/schedstat``,
when PostgreSQL runs on this machine). Then each part of a cold recompute alone, the results
query's server time (``EXPLAIN ANALYZE``), the queries of one recompute, and a check that warm and
cold recomputes write the same bytes.

Run from the repository root (a database of its own; it is migrated and filled once, then reused):
    createdb -h 127.0.0.1 -U postgres spinner_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_bench \\
        .venv/bin/python benchmarks/standings/recompute.py [--teams 2000] [--rounds 10] [--runs 15]
    ... recompute.py --profile     # cProfile (process CPU) of one warm and one cold recompute
    ... compare.py --base DIR      # the same recompute, this code against another checkout

The event (slug ``bench-<teams>x<rounds>``) is generated from a seeded RNG: each round pairs the
field by current match points (random within a score group), the stronger team (hidden rating)
tends to win 305 to a random score; the event's tiebreaks are the full list.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import gc
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")

import django  # noqa: E402

django.setup()

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
)
from tournaments.selectors import standings_input, standings_records  # noqa: E402
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


def build_entries(event: Event, teams: int) -> list[Entry]:
    """``teams`` partnerships of two new players, each entered in the event, checked in."""
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
    return entries


def build_event(teams: int, rounds: int, seed: int = 8) -> Event:
    """Create the benchmark event once (bulk inserts); reuse it when it is already complete."""
    slug = f"bench-{teams}x{rounds}"
    event = Event.objects.filter(slug=slug).first()
    if (
        event is not None
        and MatchResult.objects.filter(match__round__event=event, is_current=True).count()
        == (teams // 2) * rounds
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
        entries = build_entries(event, teams)
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


def correct_one(event: Event, rng: random.Random) -> None:
    """A correction: one result of the last round gets a new current version, other winner."""
    last = Round.objects.filter(event=event).order_by("-number").values_list("pk", flat=True)[0]
    match_id = rng.choice(list(Match.objects.filter(round_id=last).values_list("pk", flat=True)))
    with transaction.atomic():
        current = MatchResult.objects.select_for_update().get(match_id=match_id, is_current=True)
        MatchResult.objects.filter(pk=current.pk).update(is_current=False)
        MatchResult.objects.create(
            match_id=match_id,
            version=current.version + 1,
            source="correction",
            kind=current.kind,
            score_a_halves=current.score_b_halves,
            score_b_halves=current.score_a_halves,
            winner_side=None if current.winner_side is None else 1 - current.winner_side,
        )


def server_cpu_ms() -> float | None:
    """CPU time of this connection's PostgreSQL process so far (ms), when it runs here."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e6
    except OSError:
        return None


def measure(event: Event, runs: int, *, cold: bool, rng: random.Random) -> dict[str, list[float]]:
    """``runs`` recomputes after a correction each: process CPU, wall, server CPU (ms)."""
    out: dict[str, list[float]] = {"cpu": [], "wall": [], "server": []}
    for _ in range(runs):
        correct_one(event, rng)
        if cold:
            standings_records._recent.clear()
        server = server_cpu_ms()
        c0, t0 = time.process_time(), time.perf_counter()
        outcome = live.recompute_standings(event_id=event.pk, force=True)
        out["wall"].append((time.perf_counter() - t0) * 1000)
        out["cpu"].append((time.process_time() - c0) * 1000)
        after = server_cpu_ms()
        if server is not None and after is not None:
            out["server"].append(after - server)
        assert outcome.status == "new", outcome
    return out


def cpu_times(function: Any, runs: int) -> tuple[list[float], Any]:
    times, value = [], None
    for _ in range(runs):
        start = time.process_time()
        value = function()
        times.append((time.process_time() - start) * 1000)
    return times, value


def describe(label: str, times: list[float]) -> str:
    if not times:
        return f"{label:<52} (not measured)"
    return (
        f"{label:<52} median {statistics.median(times):7.1f} ms"
        f"  (min {min(times):.1f}, max {max(times):.1f})"
    )


def parts(event_id: int, runs: int) -> None:
    """Each part of a cold recompute alone (process CPU; the collector paused, as the worker)."""
    standings_records._recent.clear()
    gc.disable()
    try:
        load, data = cpu_times(
            lambda: standings_input.load_standings_input(event_id=event_id), runs
        )
        compute, computation = cpu_times(lambda: standings_records.compute_standings_of(data), runs)
        document_times, built = cpu_times(
            lambda: standings_records.build_document(data, computation), runs
        )
        document, _ = built
        encode, encoded = cpu_times(lambda: standings_records.canonical_bytes(document), runs)
        fingerprint, _ = cpu_times(lambda: standings_records.input_fingerprint(data), runs)
    finally:
        gc.enable()
    print(f"{len(data.results)} results, snapshot {len(encoded):,} bytes")
    print(describe("  load: event, entries, results (3 queries)", load))
    print(describe("  standings (tally, tiebreaks, order, rows)", compute))
    print(describe("  the document (rows as JSON, extras, progress)", document_times))
    print(describe("  canonical bytes (orjson)", encode))
    print(describe("  input fingerprint", fingerprint))


def explain_results_query(event_id: int, runs: int) -> list[float]:
    """The results query's execution time on the server (EXPLAIN ANALYZE), ms."""
    sql = standings_input.results_sql()
    params = [event_id, *standings_input.COUNTED_KINDS, *standings_input.PLAYED_STATUSES]
    times = []
    with connection.cursor() as cursor:
        for _ in range(runs):
            cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
            plan = cursor.fetchone()[0]
            plan = json.loads(plan) if isinstance(plan, str) else plan
            times.append(float(plan[0]["Execution Time"]))
    return times


def profile_recomputes(event: Event, rng: random.Random) -> None:
    """A warm then a cold recompute after a correction, each under cProfile (process CPU)."""
    for cold in (False, True):
        correct_one(event, rng)
        if cold:
            standings_records._recent.clear()
        profile = cProfile.Profile(time.process_time)
        profile.enable()
        live.recompute_standings(event_id=event.pk, force=True)
        profile.disable()
        print("cold" if cold else "warm", "recompute, cProfile (process CPU):")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)


def check_one_recompute(event: Event, rng: random.Random) -> None:
    """The queries of one recompute, and the same bytes from a warm and a cold one."""
    correct_one(event, rng)
    with CaptureQueriesContext(connection) as captured:
        live.recompute_standings(event_id=event.pk, force=True)
    print(f"queries of one recompute (new snapshot): {len(captured.captured_queries)}")
    for query in captured.captured_queries:
        print("   ", query["sql"][:110])
    correct_one(event, rng)
    warm_bytes = standings_records.compute_snapshot_bytes(event_id=event.pk)
    standings_records._recent.clear()
    cold_bytes = standings_records.compute_snapshot_bytes(event_id=event.pk)
    assert warm_bytes == cold_bytes
    print("warm and cold recomputes write the same bytes and fingerprint: yes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("set DATABASE_URL to a PostgreSQL database of its own (see the docstring)")
    # Migrate in a process of its own: the migration state left in this one would weigh on every
    # collection the recompute's Django side triggers, which a worker never pays.
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, check=True
    )
    start = time.perf_counter()
    event = build_event(args.teams, args.rounds)
    print(
        f"event {event.slug}: ready in {time.perf_counter() - start:.1f} s; load {os.getloadavg()}"
    )
    rng = random.Random(17)
    correct_one(event, rng)
    live.recompute_standings(event_id=event.pk, force=True)  # warm-up (imports, caches)

    if args.profile:
        profile_recomputes(event, rng)
        return

    warm: dict[str, list[float]] = {}
    cold: dict[str, list[float]] = {}
    for i in range(2):  # alternate, so the load of the moment weighs on both alike
        for name, results in (
            (("warm", warm), ("cold", cold)) if i == 0 else (("cold", cold), ("warm", warm))
        ):
            got = measure(event, (args.runs + 1) // 2, cold=name == "cold", rng=rng)
            for key, values in got.items():
                results.setdefault(key, []).extend(values)
    print(
        f"{args.teams} teams x {args.rounds} rounds: recompute after a correction, "
        f"{len(warm['cpu'])} runs each"
    )
    for name, results in (("warm", warm), ("cold", cold)):
        print(describe(f"{name}: process CPU", results["cpu"]))
        print(describe(f"{name}: wall", results["wall"]))
        print(describe(f"{name}: PostgreSQL process CPU during it", results["server"]))
    check_one_recompute(event, rng)
    parts(event.pk, args.runs)
    print(
        describe(
            "results query, server execution (EXPLAIN ANALYZE)",
            explain_results_query(event.pk, args.runs),
        )
    )
    print(
        f"python {platform.python_version()} on {platform.machine()}; "
        f"PostgreSQL {connection.pg_version}; load {os.getloadavg()}"
    )


if __name__ == "__main__":
    main()
