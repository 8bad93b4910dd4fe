"""Benchmark: a cold recompute with and without freezing its kept records out of the collector.

``standings_records`` keeps a computation from scratch (about 52,000 live objects for 2,000
entries) for the next recompute and freezes it (``gc.freeze``) so that the cyclic garbage
collector does not walk it at every later collection. This alternates cold recomputes of the
benchmark event (made by ``recompute.py``; same ``DATABASE_URL``) with the freeze and without it
(replaced by a no-op), each followed by the allocations of a worker's next task (50,000 small
lists), and prints the process CPU of both (recompute and what follows), median and min::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_bench \\
        .venv/bin/python benchmarks/standings/gc_freeze.py [--runs 24]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=24)
    parser.add_argument("--slug", default="bench-2000x10")
    args = parser.parse_args()
    sys.argv = sys.argv[:1]
    import recompute  # the benchmark's own setup (django.setup, the correction)

    from tournaments.models import Event
    from tournaments.selectors import standings_records
    from tournaments.services import standings as live

    event = Event.objects.get(slug=args.slug)
    rng = random.Random(3)
    recompute.correct_one(event, rng)
    live.recompute_standings(event_id=event.pk, force=True)  # warm-up (imports, caches)
    freeze = standings_records._keep_out_of_collections
    times: dict[str, list[float]] = {"freeze": [], "no freeze": []}
    for i in range(args.runs):
        name = "freeze" if i % 2 else "no freeze"
        standings_records._keep_out_of_collections = (  # type: ignore[assignment]
            freeze if name == "freeze" else (lambda **_: None)
        )
        gc.unfreeze()
        gc.collect()
        recompute.correct_one(event, rng)
        standings_records._recent.clear()
        start = time.process_time()
        live.recompute_standings(event_id=event.pk, force=True)
        junk = [[n] for n in range(50_000)]  # the next task's allocations
        del junk
        times[name].append((time.process_time() - start) * 1000)
    standings_records._keep_out_of_collections = freeze
    for name, values in times.items():
        print(
            f"cold recompute and the next allocations, {name}: median "
            f"{statistics.median(values):.1f} ms (min {min(values):.1f}, {len(values)} runs)"
        )
    print(f"load {os.getloadavg()}")


if __name__ == "__main__":
    main()
