"""Benchmark: a new pool process's first recompute, step by step (the profile behind worker.py).

A Celery prefork worker forks its pool processes from its main process; a pool process's first
recompute of an event pays for everything the process has not done yet: the pages it writes are
copied or zeroed by the operating system (minor page faults, counted as system time), and,
unless the main process computed the event before forking (``spinner.celery``), the standings
from scratch. This forks a child from a process set up as the worker's main process is (Django
ready, the database connections closed, ``gc.freeze``), with (``warm``) and without (``cold``)
the event computed first, alternately, ``--runs`` times each, and times each step of the child's
recompute (``tournaments.selectors.standings_records``; the service's own statements and the
snapshot's write are not included): process CPU, system time and minor page faults.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_bench \\
        .venv/bin/python benchmarks/standings/first_task.py [--runs 5]

The benchmark event is ``recompute.py``'s (run that first, same ``DATABASE_URL``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")


def child(event_id: int, write: int) -> None:
    """The forked process: each step of a recompute, measured; JSON to ``write``."""
    from tournaments.models import Event
    from tournaments.selectors import standings_input
    from tournaments.selectors import standings_records as records

    steps: list[tuple[str, float, float, int]] = []

    def step(label: str, function: Any) -> Any:
        before, cpu = resource.getrusage(resource.RUSAGE_SELF), time.process_time()
        value = function()
        after = resource.getrusage(resource.RUSAGE_SELF)
        steps.append(
            (
                label,
                (time.process_time() - cpu) * 1000,
                (after.ru_stime - before.ru_stime) * 1000,
                after.ru_minflt - before.ru_minflt,
            )
        )
        return value

    step("connect, a first query", lambda: Event.objects.filter(pk=event_id).exists())
    recent = records._recent.get(event_id)
    gc.disable()  # as compute_snapshot_bytes does
    data = step(
        "load (3 queries, the records)",
        lambda: standings_input.load_standings_input(
            event_id=event_id, known=recent.records if recent else None
        ),
    )
    computation = step(
        "standings",
        lambda: records.compute_standings_of(data, recent.computation if recent else None),
    )
    extras = step(
        "row extras",
        lambda: records.row_extras(computation, data.withdrawn, recent.extras if recent else None),
    )
    rows = step(
        "rows' JSON",
        lambda: records.rows_json(computation.standings.rows, recent.rows if recent else None)[0],
    )
    document = step(
        "the document", lambda: records.build_document(data, computation, extras, rows)[0]
    )
    lines = step(
        "fingerprint lines",
        lambda: records.result_lines(data, recent.lines if recent else None, computation),
    )
    step("canonical bytes", lambda: records.canonical_bytes(document))
    step("fingerprint", lambda: records.input_fingerprint(data, lines))
    os.write(write, json.dumps(steps).encode())


def run(event_id: int, warm: bool) -> list[tuple[str, float, float, int]]:
    from django.db import connections

    from tournaments.selectors import standings_records as records

    records._recent.clear()
    gc.unfreeze()
    if warm:
        records.compute_snapshot_bytes(event_id=event_id)
    connections.close_all()
    gc.freeze()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            child(event_id, write)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        found = pipe.read()
    os.waitpid(pid, 0)
    steps: list[tuple[str, float, float, int]] = json.loads(found)
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--slug", default="bench-2000x10")
    args = parser.parse_args()
    sys.argv = sys.argv[:1]
    import recompute  # the benchmark's own setup (django.setup, the correction)

    from tournaments.models import Event

    event = Event.objects.get(slug=args.slug)
    rng = random.Random(23)
    found: dict[str, list[list[tuple[str, float, float, int]]]] = {"cold": [], "warm": []}
    load = os.getloadavg()
    for i in range(2 * args.runs):
        recompute.correct_one(event, rng)
        mode = "warm" if i % 2 else "cold"
        found[mode].append(run(event.pk, warm=mode == "warm"))
    print(f"load {load} before, {os.getloadavg()} after; {args.runs} children each")
    for mode, runs in found.items():
        before = "computed" if mode == "warm" else "did not compute"
        print(f"{mode} (the main process {before} the event before forking):")
        print("  CPU, of which system time, minor page faults (medians)")
        totals = [0.0, 0.0, 0.0]
        for i, (label, *_) in enumerate(runs[0]):
            cpu = statistics.median(r[i][1] for r in runs)
            system = statistics.median(r[i][2] for r in runs)
            faults = statistics.median(r[i][3] for r in runs)
            totals = [totals[0] + cpu, totals[1] + system, totals[2] + faults]
            print(f"  {label:32} {cpu:6.1f} ms {system:5.1f} ms {faults:6.0f}")
        print(f"  {'sum':32} {totals[0]:6.1f} ms {totals[1]:5.1f} ms {totals[2]:6.0f}")


if __name__ == "__main__":
    main()
