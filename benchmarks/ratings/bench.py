"""Benchmark: re-rating a season of 100 events, 20,000 players and 200,000 matches.

Targets (issue 16): from scratch under 60 s; one incremental update after a result under 50 ms.

    .venv/bin/python benchmarks/ratings/bench.py pure [--runs 3]    # (a) the pure re-rate
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_ratings_bench \\
        .venv/bin/python benchmarks/ratings/bench.py db [--runs 3]  # (b) and (c)
    ... bench.py db --profile                                       # cProfile of (b) and (c)

The season (seeded RNG): 100 one-day events a week apart; each draws 1,600 of the 20,000 players
into 800 partnerships and plays 5 Swiss-like rounds of 400 matches (2,000 matches per event,
200,000 in all); the stronger side (hidden skill) tends to win, about 1 % of results are draws.
The database (PostgreSQL or SQLite, from ``DATABASE_URL``) is migrated and filled once with bulk
inserts (no tables, seats or claims: the re-rate never reads them), then reused.

(c) changes one result of the last round of the last event (its winner flips, as a correction
would) and times ``rerate_matches([that match])``, what the worker runs after one result: only
the games whose ratings can move rated again, only the rows that changed written; then flips it
back and times it again. For comparison it then times ``rerate_from(event, round)`` (every game
of the round read and checked again).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
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

EVENTS = 100
PLAYERS = 20_000
PER_EVENT = 1_600
ROUNDS = 5
FIRST_DAY = datetime.date(2025, 1, 4)

Season = list[tuple[int, datetime.date, list[list[tuple[int, int, int, int, int | None]]]]]
"""Per event: (event number, day, rounds of (a1, a2, b1, b2, winner side or None))."""


def season(seed: int = 16) -> Season:
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(PLAYERS)]
    out: Season = []
    for e in range(EVENTS):
        people = rng.sample(range(PLAYERS), PER_EVENT)
        teams = [(people[i], people[i + 1]) for i in range(0, PER_EVENT, 2)]
        rounds = []
        for _ in range(ROUNDS):
            rng.shuffle(teams)
            games = []
            for t in range(0, len(teams), 2):
                (a1, a2), (b1, b2) = teams[t], teams[t + 1]
                edge = skill[a1] + skill[a2] - skill[b1] - skill[b2] + rng.gauss(0, 1.5)
                winner = None if rng.random() < 0.01 else (0 if edge > 0 else 1)
                games.append((a1, a2, b1, b2, winner))
            rounds.append(games)
        out.append((e, FIRST_DAY + datetime.timedelta(days=7 * e), rounds))
    return out


def machine() -> str:
    return f"{platform.platform()} / {os.cpu_count()} cpus / load {os.getloadavg()}"


def bench_pure(runs: int) -> None:
    from tournaments.rating import RatedGame, RatedRound, rate_rounds

    data = season()
    rounds = []
    match_id = 0
    for e, day, event_rounds in data:
        for number, games in enumerate(event_rounds, start=1):
            records = []
            for a1, a2, b1, b2, winner in games:
                match_id += 1
                records.append(RatedGame.two_sides((1, match_id), (a1, a2), (b1, b2), winner))
            rounds.append(RatedRound((day, e + 1, number), len(rounds) + 1, tuple(records)))
    print(f"pure: {len(rounds)} rounds, {match_id} games; {machine()}")
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        state: dict[int, object] = {}
        for _, after in rate_rounds(rounds):
            state.update(after)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        print(f"  run: {walls[-1]:.2f} s wall, {cpus[-1]:.2f} s cpu, {len(state)} players rated")
    print(
        f"pure median: {statistics.median(walls):.2f} s wall, {statistics.median(cpus):.2f} s cpu"
    )


def build_event(e: int, day: Any, rounds: Any, pid: list[int]) -> None:
    """Event ``e`` of the season: its partnerships, entries and rounds of confirmed results."""
    from tournaments.models import Entry, EntryPlayer, Event, Match, MatchResult, Partnership, Round

    event = Event.objects.create(
        name=f"Rated {e}",
        slug=f"rb-{e}",
        start_date=day,
        end_date=day,
        status=Event.Status.FINISHED,
    )
    pairs = sorted({(g[0], g[1]) for g in rounds[0]} | {(g[2], g[3]) for g in rounds[0]})
    partnerships = Partnership.objects.bulk_create(
        [Partnership(player_a_id=pid[a], player_b_id=pid[b]) for a, b in pairs],
        batch_size=2000,
    )
    entries = Entry.objects.bulk_create(
        [
            Entry(event=event, partnership=p, name=f"T{k}", status="checked_in")
            for k, p in enumerate(partnerships)
        ],
        batch_size=2000,
    )
    entry_of = {pair: entry.pk for pair, entry in zip(pairs, entries, strict=True)}
    EntryPlayer.objects.bulk_create(
        [
            EntryPlayer(event=event, entry_id=entry_of[pair], player_id=pid[who])
            for pair in pairs
            for who in pair
        ],
        batch_size=5000,
    )
    for number, games in enumerate(rounds, start=1):
        rnd = Round.objects.create(event=event, number=number, status="closed")
        matches = Match.objects.bulk_create(
            [
                Match(
                    round=rnd,
                    entry_a_id=entry_of[(g[0], g[1])],
                    entry_b_id=entry_of[(g[2], g[3])],
                )
                for g in games
            ],
            batch_size=2000,
        )
        MatchResult.objects.bulk_create(
            [
                MatchResult(
                    match=m,
                    version=1,
                    source="agreed",
                    kind="final_score",
                    score_a_halves=610 if g[4] == 0 else 400,
                    score_b_halves=610 if g[4] == 1 else (400 if g[4] is None else 300),
                    winner_side=g[4],
                )
                for m, g in zip(matches, games, strict=True)
            ],
            batch_size=2000,
        )


def build_db() -> None:
    from django.core.management import call_command
    from django.db import transaction

    from tournaments.models import Event, Player

    call_command("migrate", verbosity=0)
    if Event.objects.filter(slug=f"rb-{EVENTS - 1}").exists():
        return
    started = time.perf_counter()
    data = season()
    with transaction.atomic():
        players = Player.objects.bulk_create(
            [Player(name=f"P{i}", name_key=f"p{i}") for i in range(PLAYERS)], batch_size=5000
        )
        pid = [p.pk for p in players]
        for e, day, rounds in data:
            build_event(e, day, rounds, pid)
            print(f"  built event {e + 1}/{EVENTS}", end="\r", flush=True)
    print(f"built the season in {time.perf_counter() - started:.0f} s")


def timed_rerate_all() -> float:
    """``services.ratings.rerate_all``, step by step with a clock on each (the same calls)."""
    from django.db import transaction

    from tournaments.rating import rate_rounds
    from tournaments.selectors import rating_records
    from tournaments.services import ratings

    clock = {}
    wall = time.perf_counter()
    with transaction.atomic():
        t = time.perf_counter()
        rated_ids, every_id = rating_records.rounds_since(None)
        rounds = rating_records.rated_rounds(rated_ids)
        stored = rating_records.steps_since(every_id)
        clock["read"] = time.perf_counter() - t
        t = time.perf_counter()
        latest, computed = {}, {}
        for rnd, after in rate_rounds(rounds, {}):
            for player, rating in after.items():
                computed[(player, rnd.round_id)] = (rnd.position[1], rating)
            latest.update(after)
        clock["compute"] = time.perf_counter() - t
        t = time.perf_counter()
        ratings._write_steps(stored, computed)
        clock["write steps"] = time.perf_counter() - t
        t = time.perf_counter()
        ratings._write_players(None, latest)
        clock["write players"] = time.perf_counter() - t
        t = time.perf_counter()
    clock["commit"] = time.perf_counter() - t
    total = time.perf_counter() - wall
    parts = ", ".join(f"{k} {v:.1f} s" for k, v in clock.items())
    print(f"  rerate_all: {total:.1f} s ({parts})")
    return total


def time_corrections(result: Any, runs: int, profile: bool) -> None:
    """Correct ``result`` again and again (the other winner each time) and time the re-rate of
    its match alone (``rerate_matches``); the first under cProfile when ``profile``."""
    from tournaments.models import MatchResult
    from tournaments.services import ratings

    outcome: Any = None  # the profiled run prints no outcome of its own
    incremental = []
    for k in range(max(5, runs * 2)):
        # a correction: a new current version with the other winner (results are append-only)
        flipped = 1 if result.winner_side == 0 else 0
        MatchResult.objects.filter(pk=result.pk).update(is_current=False)
        result = MatchResult.objects.create(
            match_id=result.match_id,
            version=result.version + 1,
            source="correction",
            kind=result.kind,
            score_a_halves=result.score_b_halves,
            score_b_halves=result.score_a_halves,
            winner_side=flipped,
        )
        wall = time.perf_counter()
        if profile and k == 0:
            cProfile.runctx(
                "ratings.rerate_matches(match_ids=[result.match_id])",
                globals(),
                locals(),
                "/tmp/rerate_from.prof",
            )
        else:
            outcome = ratings.rerate_matches(match_ids=[result.match_id])
        incremental.append(time.perf_counter() - wall)
        print(f"  rerate_matches([the match]): {incremental[-1] * 1000:.1f} ms  {outcome}")
    print(f"rerate_matches median: {statistics.median(incremental) * 1000:.1f} ms")


def bench_db(runs: int, profile: bool) -> None:
    import django

    django.setup()
    from django.db import connection

    from tournaments.models import Event, MatchResult, RatingChange
    from tournaments.services import ratings

    build_db()
    print(f"db: {connection.vendor}; {machine()}")
    full = []
    for _ in range(runs):
        RatingChange.objects.all().delete()
        full.append(timed_rerate_all())
    if runs:
        print(f"rerate_all median: {statistics.median(full):.1f} s over {runs}")
        again = time.perf_counter()
        outcome = ratings.rerate_all()
        print(f"  rerate_all again: {time.perf_counter() - again:.1f} s {outcome}")
    elif not RatingChange.objects.exists():
        ratings.rerate_all()
    last = Event.objects.get(slug=f"rb-{EVENTS - 1}")
    result = MatchResult.objects.filter(
        match__round__event=last, match__round__number=ROUNDS, is_current=True
    )
    result = result.order_by("pk").first()
    assert result is not None
    time_corrections(result, runs, profile)
    # the round's re-rate, as before the incremental path (every game of the round)
    whole = []
    for _ in range(3):
        wall = time.perf_counter()
        outcome = ratings.rerate_from(event_id=last.pk, round_number=ROUNDS)
        whole.append(time.perf_counter() - wall)
    print(f"rerate_from(last round), nothing changed: {statistics.median(whole) * 1000:.1f} ms")
    if profile:
        for name in ("/tmp/rerate_all.prof", "/tmp/rerate_from.prof"):
            print(f"--- {name}")
            pstats.Stats(name).sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("part", choices=["pure", "db"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.part == "pure":
        import django

        django.setup()
        if args.profile:
            cProfile.runctx("bench_pure(1)", globals(), locals(), "/tmp/rate_pure.prof")
            pstats.Stats("/tmp/rate_pure.prof").sort_stats("tottime").print_stats(20)
        else:
            bench_pure(args.runs)
    else:
        bench_db(args.runs, args.profile)


if __name__ == "__main__":
    main()
