"""Benchmark: the standings recompute as the deployment runs it, in a real Celery worker.

``recompute.py`` and ``compare.py`` time ``recompute_standings`` called in a process of their own;
this one times the task a worker runs after a result: the same command as the Procfile's worker
(``celery ... worker --concurrency 2``, prefork), started fresh, taking the recompute tasks that the
results service asks for. For each of ``--tasks`` corrections of the benchmark event (made by
``recompute.py``; run that first, same ``DATABASE_URL``), in turn:

- one result of the last round gets a new current version with the other winner, and the event
  is marked changed in the same transaction (``services.standings.note_results_changed``, as the
  results service does), which after the commit asks for a recompute (a task on the queue);
- the recompute's last start is set 10 s back first, so the 2 s coalescing does not delay the
  task (the throttle is still checked, as always);
- the worker's pool process runs the task; ``bench_worker`` (the worker's app: Spinner's, plus
  signal handlers) records the CPU time of the task in that process (``task_prerun`` to
  ``task_postrun``: the task body, whatever it imports or computes), its system time and minor
  page faults, and which task of that process it was.

A pool process's first task is *cold* (it has never computed the event, nor anything else);
later ones are *warm* (that process computed the event before; with two pool processes each
one's previous computation is one or two corrections old). ``--base`` runs the same against
another checkout (e.g. ``git archive main | tar -x -C /tmp/base``), alternating fresh workers of
each, ``--rounds`` times. The worker's main process (the consumer) is measured too
(``/proc/<pid>/schedstat``, while the task ran).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_bench \\
    REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python benchmarks/standings/worker.py [--base DIR] [--rounds 4] [--tasks 6]

Uses a queue of its own (``SPINNER_QUEUE=bench-standings-<pid>``) on that Redis database.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
QUEUE = f"bench-standings-{os.getpid()}"
CPU_KEY = f"bench:standings:cpu:{QUEUE}"
os.environ["SPINNER_QUEUE"] = QUEUE  # before the settings are read
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

import redis  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from tournaments.models import (  # noqa: E402
    Event,
    Match,
    MatchResult,
    Round,
    StandingsRecompute,
)
from tournaments.services import standings as live  # noqa: E402


def correct_and_ask(event: Event, matches: list[int], rng: random.Random) -> None:
    """A correction of one result, marked as the results service marks one (a task follows)."""
    StandingsRecompute.objects.filter(pk=event.pk).update(
        last_started_at=timezone.now() - datetime.timedelta(seconds=10)
    )
    match_id = rng.choice(matches)
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
        live.note_results_changed(event_id=event.pk)


def schedstat_ms(pid: int) -> float:
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e6
    except OSError:
        return float("nan")


def run_worker(
    checkout: Path, event: Event, tasks: int, seed: int, concurrency: int
) -> list[dict[str, Any]]:
    """Start a fresh worker on ``checkout``, let it run ``tasks`` recomputes, stop it."""
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.delete(CPU_KEY)
    env = {
        **os.environ,
        "PYTHONPATH": f"{checkout}{os.pathsep}{HERE}",
        "BENCH_CPU_KEY": CPU_KEY,
        "SPINNER_QUEUE": QUEUE,
    }
    celery = Path(sys.executable).with_name("celery")
    worker = subprocess.Popen(
        [str(celery), "-A", "bench_worker", "worker", "--loglevel", "WARNING",
         "--concurrency", str(concurrency)],
        cwd=checkout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    rng = random.Random(seed)
    last = Round.objects.filter(event=event).order_by("-number").values_list("pk", flat=True)[0]
    matches = list(Match.objects.filter(round_id=last).values_list("pk", flat=True))
    found: list[dict[str, Any]] = []
    try:
        for _ in range(tasks):
            consumer = schedstat_ms(worker.pid)
            correct_and_ask(event, matches, rng)
            popped = None
            deadline = time.monotonic() + 120
            while popped is None and time.monotonic() < deadline and worker.poll() is None:
                popped = client.blpop([CPU_KEY], timeout=2)
            if popped is None:
                raise SystemExit(f"{checkout}: no task ran within 120 s (worker {worker.poll()})")
            record = json.loads(popped[1])
            record["consumer_ms"] = schedstat_ms(worker.pid) - consumer
            if record["status"] != "new":
                raise SystemExit(f"the recompute did not write a new snapshot: {record}")
            found.append(record)
    finally:
        worker.send_signal(signal.SIGTERM)  # warm shutdown
        try:
            worker.wait(timeout=60)
        except subprocess.TimeoutExpired:
            worker.kill()
    return found


def describe(values: list[float]) -> str:
    if not values:
        return "(none)"
    return f"median {statistics.median(values):6.1f} (min {min(values):6.1f}, n {len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="another checkout, alternated with this one")
    parser.add_argument("--slug", default="bench-2000x10")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--tasks", type=int, default=6)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write every record here")
    parser.add_argument(
        "--profile", help="a path prefix: each pool process's first task profiled to <prefix>.<pid>"
    )
    args = parser.parse_args()
    if args.profile:
        os.environ["BENCH_PROFILE"] = args.profile
    event = Event.objects.get(slug=args.slug)
    checkouts = [("this", ROOT)] + ([("base", args.base.resolve())] if args.base else [])
    results: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in checkouts}
    load = os.getloadavg()
    for i in range(args.rounds):
        for name, checkout in checkouts if i % 2 else checkouts[::-1]:
            for record in run_worker(checkout, event, args.tasks, i, args.concurrency):
                record["round"] = i
                results[name].append(record)
    print(
        f"{args.slug}: {args.rounds} fresh workers each (--concurrency {args.concurrency}), "
        f"{args.tasks} recomputes each; load {load} before, {os.getloadavg()} after"
    )
    for name, records in results.items():
        cold = [r for r in records if r["nth_in_process"] == 0]
        warm = [r for r in records if r["nth_in_process"] > 0]
        print(f"{name}:")
        for label, group in (("cold (a pool process's first task)", cold), ("warm", warm)):
            print(f"  {label}")
            print(f"    task CPU in the pool process  {describe([r['cpu_ms'] for r in group])}")
            print(f"    of which system time          {describe([r['sys_ms'] for r in group])}")
            print(
                f"    minor page faults             {describe([r['minor_faults'] for r in group])}"
            )
            print(f"    wall                          {describe([r['wall_ms'] for r in group])}")
            print(
                f"    the consumer's CPU meanwhile  {describe([r['consumer_ms'] for r in group])}"
            )
    if args.base:
        for label, first in (("cold", True), ("warm", False)):
            this = [r["cpu_ms"] for r in results["this"] if (r["nth_in_process"] == 0) == first]
            base = [r["cpu_ms"] for r in results["base"] if (r["nth_in_process"] == 0) == first]
            if this and base:
                ratio = statistics.median(this) / statistics.median(base)
                print(f"{label}: this / base = {ratio:.2f}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
