"""Benchmark: the standings recompute as the deployment runs it, in real Celery workers.

``recompute.py`` and ``compare.py`` time ``recompute_standings`` called in a process of their own;
this one times the task a worker runs after a result. It starts, fresh, every Celery worker of the
checkout's ``Procfile`` (the ``celery -A spinner worker`` lines, run by ``sh`` as a Procfile
runner would: on main one prefork worker, ``--concurrency 2``; with a standings queue, the default
worker and the ``standings`` worker), then makes ``--tasks`` corrections of the benchmark event
(made by ``recompute.py``; run that first, same ``DATABASE_URL``), one after the other:

- one result of the last round gets a new current version with the other winner, and the event
  is marked changed in the same transaction (``services.results.note_results_changed``, as the
  results service does), which after the commit asks for a recompute (the request task on the
  default queue; it sends the recompute task wherever the checkout routes it);
- the recompute's last start is set 10 s back first, so the 2 s coalescing does not delay the
  task (the throttle is still checked, as always);
- a worker process runs the recompute; ``bench_worker`` (the workers' app: Spinner's, plus
  signal handlers) records the CPU time of each task in the process that ran it (``task_prerun``
  to ``task_postrun``: the task body, whatever it imports or computes), its system time and
  minor page faults, which recompute of that process it was, and the worker's name.

A process's first recompute is *cold* (it inherited, at most, the computation its worker's main
process made before forking); later ones are *warm* (that process computed the event before).
``--base`` runs the same against another checkout (e.g. ``git archive main | tar -x -C
/tmp/base``), alternating fresh workers of each, ``--rounds`` times; ``--variant NAME=ARGS`` adds
an arm: this checkout with ``ARGS`` appended to its ``standings`` worker's command (e.g.
``solo=--pool solo``). The workers' main processes are measured too (``/proc/<pid>/schedstat``,
while the task ran; with ``--pool solo`` that includes the task itself).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_bench \\
    REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python benchmarks/standings/worker.py [--base DIR] [--rounds 4] [--tasks 10]

Uses queues of its own (``SPINNER_QUEUE=bench-standings-<pid>``) on that Redis database.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import re
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

from spinner.celery import app  # noqa: E402
from tournaments.models import (  # noqa: E402
    Event,
    Match,
    MatchResult,
    Round,
    StandingsRecompute,
)
from tournaments.services import results  # noqa: E402

RECOMPUTE = "tournaments.recompute_event_standings"


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
        results.note_results_changed(event_id=event.pk)


def schedstat_ms(pid: int) -> float:
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e6
    except OSError:
        return float("nan")


def worker_commands(checkout: Path, standings_args: str = "") -> dict[str, str]:
    """The checkout's Celery worker commands, by Procfile process name, on ``bench_worker``'s app
    (``standings_args`` appended to the ``standings`` worker's)."""
    celery = Path(sys.executable).with_name("celery")
    commands: dict[str, str] = {}
    for line in (checkout / "Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        command = command.strip()
        if not command.startswith("celery -A spinner worker"):
            continue
        command = re.sub(r"^celery -A spinner ", f"exec {celery} -A bench_worker ", command)
        command = command.replace("--loglevel INFO", "--loglevel WARNING")
        if name == "standings" and standings_args:
            command = f"{command} {standings_args}"
        commands[name] = command
    if not commands:
        raise SystemExit(f"{checkout}/Procfile starts no Celery worker")
    return commands


def run_worker(
    checkout: Path, event: Event, tasks: int, seed: int, standings_args: str = ""
) -> list[dict[str, Any]]:
    """Start the checkout's workers fresh, let them run ``tasks`` recomputes, stop them."""
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.delete(CPU_KEY)
    env = {
        **os.environ,
        "PYTHONPATH": f"{checkout}{os.pathsep}{HERE}",
        "BENCH_CPU_KEY": CPU_KEY,
        "SPINNER_QUEUE": QUEUE,
    }
    workers = {
        name: subprocess.Popen(
            ["/bin/sh", "-c", command],
            cwd=checkout,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for name, command in worker_commands(checkout, standings_args).items()
    }
    # Every worker answers a ping (started, its pool forked) before the first correction, so
    # that the main processes' CPU of the first task does not include their start.
    deadline = time.monotonic() + 120
    while len(app.control.ping(timeout=0.5) or []) < len(workers):
        if time.monotonic() > deadline or any(w.poll() is not None for w in workers.values()):
            raise SystemExit(f"{checkout}: the workers did not start")
    rng = random.Random(seed)
    last = Round.objects.filter(event=event).order_by("-number").values_list("pk", flat=True)[0]
    matches = list(Match.objects.filter(round_id=last).values_list("pk", flat=True))
    found: list[dict[str, Any]] = []
    try:
        for _ in range(tasks):
            mains = {name: schedstat_ms(w.pid) for name, w in workers.items()}
            correct_and_ask(event, matches, rng)
            record = None
            deadline = time.monotonic() + 120
            while record is None and time.monotonic() < deadline:
                if any(w.poll() is not None for w in workers.values()):
                    raise SystemExit(f"{checkout}: a worker exited")
                popped = client.blpop([CPU_KEY], timeout=2)
                if popped is not None and json.loads(popped[1])["task"] == RECOMPUTE:
                    record = json.loads(popped[1])
            if record is None:
                raise SystemExit(f"{checkout}: no recompute ran within 120 s")
            record["mains_ms"] = sum(schedstat_ms(w.pid) - mains[n] for n, w in workers.items())
            if record["status"] != "new":
                raise SystemExit(f"the recompute did not write a new snapshot: {record}")
            found.append(record)
    finally:
        for w in workers.values():
            w.send_signal(signal.SIGTERM)  # warm shutdown (sh exec'd celery: the worker itself)
        for w in workers.values():
            try:
                w.wait(timeout=60)
            except subprocess.TimeoutExpired:
                w.kill()
    return found


def describe(values: list[float]) -> str:
    if not values:
        return "(none)"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(values):6.1f}  mean {statistics.fmean(values):6.1f}  "
        f"p90 {p90:6.1f}  min {ordered[0]:6.1f}  max {ordered[-1]:6.1f}  (n {len(values)})"
    )


def is_cold(record: dict[str, Any]) -> bool:
    return bool(record["nth_recompute_in_process"] == 0)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="another checkout, alternated with this one")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=ARGS",
        help="another arm: this checkout, ARGS appended to its standings worker's command",
    )
    parser.add_argument("--slug", default="bench-2000x10")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--tasks", type=int, default=10)
    parser.add_argument("--json", type=Path, help="write every record here")
    parser.add_argument(
        "--profile", help="a path prefix: each process's first recompute profiled to <prefix>.<pid>"
    )
    return parser.parse_args()


def report_arm(name: str, records: list[dict[str, Any]], tasks: int) -> None:
    """One arm's recomputes: all, cold and warm, and the task CPU by correction."""
    cold = [r for r in records if is_cold(r)]
    print(f"{name}: {len(cold)} of {len(records)} recomputes cold (a process's first)")
    for label, group in (
        ("all recomputes", records),
        ("cold", cold),
        ("warm", [r for r in records if not is_cold(r)]),
    ):
        print(f"  {label}")
        print(f"    task CPU                 {describe([r['cpu_ms'] for r in group])}")
        print(f"    of which system time     {describe([r['sys_ms'] for r in group])}")
        print(f"    minor page faults        {describe([r['minor_faults'] for r in group])}")
        print(f"    wall                     {describe([r['wall_ms'] for r in group])}")
        print(f"    workers' main processes  {describe([r['mains_ms'] for r in group])}")
    by_correction = [
        statistics.median(r["cpu_ms"] for r in records if r["nth_correction"] == n)
        for n in range(tasks)
    ]
    print("  task CPU by correction (median over rounds): " + " ".join(
        f"{v:.0f}" for v in by_correction
    ))  # fmt: skip


def main() -> None:
    args = parse_args()
    if args.profile:
        os.environ["BENCH_PROFILE"] = args.profile
    event = Event.objects.get(slug=args.slug)
    arms: list[tuple[str, Path, str]] = [("this", ROOT, "")]
    if args.base:
        arms.append(("base", args.base.resolve(), ""))
    for variant in args.variant:
        name, _, extra = variant.partition("=")
        arms.append((name, ROOT, extra))
    for name, checkout, extra in arms:
        print(f"{name}: {checkout}: {worker_commands(checkout, extra)}")
    found: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in arms}
    load = os.getloadavg()
    for i in range(args.rounds):
        order = arms[i % len(arms) :] + arms[: i % len(arms)]  # each arm first in turn
        for name, checkout, extra in order:
            for n, record in enumerate(run_worker(checkout, event, args.tasks, i, extra)):
                record["round"], record["nth_correction"] = i, n
                found[name].append(record)
    print(
        f"{args.slug}: {args.rounds} fresh sets of workers each, {args.tasks} corrections each; "
        f"load {load} before, {os.getloadavg()} after"
    )
    for name, records in found.items():
        report_arm(name, records, args.tasks)
    if args.base:
        for name in [n for n, _, _ in arms if n != "base"]:
            for label, keep in (
                ("all", lambda r: True),
                ("cold", is_cold),
                ("warm", lambda r: not is_cold(r)),
            ):
                this = [r["cpu_ms"] for r in found[name] if keep(r)]
                base = [r["cpu_ms"] for r in found["base"] if keep(r)]
                if this and base:
                    median = statistics.median(this) / statistics.median(base)
                    mean = statistics.fmean(this) / statistics.fmean(base)
                    print(f"{name} / base, {label}: median {median:.2f}, mean {mean:.2f}")
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
