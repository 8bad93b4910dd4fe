"""Before and after in one run: the whole recompute of this checkout against another one.

Runs the same measurement in child processes, alternating between ``--base`` (a checkout of the
code before, e.g. ``git worktree add /tmp/base <commit>`` or ``git archive <commit> | tar -x``)
and this checkout, ``--rounds`` times, so the machine's load of the moment weighs on both alike.
Each child recomputes the benchmark event (made by ``recompute.py``; run that first, same
``DATABASE_URL``) ``--per`` times, each after a correction (a new current version of one result
of the last round), through ``tournaments.services.standings.recompute_standings``, and reports
the process CPU time of each recompute, and the CPU time of its PostgreSQL server process
meanwhile (``server``: ``/proc/<pid>/schedstat``, PostgreSQL on this machine): only APIs both
versions have.

In a child the first recompute is the process's first of the event (*cold*); the next ones
follow a recompute of the same event by the same process (*warm*: what a worker does during an
event; code that remembers nothing is as cold as at first).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_bench \\
        .venv/bin/python benchmarks/standings/compare.py --base /tmp/base [--rounds 6] [--per 6]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, os, random, sys, time
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")
import django
django.setup()
from django.db import transaction
from tournaments.models import Event, Match, MatchResult, Round
from tournaments.services import standings as live

event = Event.objects.get(slug=sys.argv[1])
rng = random.Random(int(sys.argv[3]))
last = Round.objects.filter(event=event).order_by("-number").values_list("pk", flat=True)[0]
matches = list(Match.objects.filter(round_id=last).values_list("pk", flat=True))

def correct_one():
    match_id = rng.choice(matches)
    with transaction.atomic():
        current = MatchResult.objects.select_for_update().get(match_id=match_id, is_current=True)
        MatchResult.objects.filter(pk=current.pk).update(is_current=False)
        MatchResult.objects.create(
            match_id=match_id, version=current.version + 1, source="correction",
            kind=current.kind, score_a_halves=current.score_b_halves,
            score_b_halves=current.score_a_halves,
            winner_side=None if current.winner_side is None else 1 - current.winner_side,
        )

from django.db import connection

def server_ms():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e6
    except OSError:
        return float("nan")

times, server = [], []
for _ in range(int(sys.argv[2])):
    correct_one()
    before = server_ms()
    start = time.process_time()
    outcome = live.recompute_standings(event_id=event.pk, force=True)
    times.append((time.process_time() - start) * 1000)
    server.append(server_ms() - before)
    assert outcome.status == "new", outcome
print(json.dumps([times, server]))
"""


def run(checkout: Path, slug: str, per: int, seed: int) -> list[list[float]]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, slug, str(per), str(seed)],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{checkout}: {done.stderr[-3000:]}")
    found: list[list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True)
    parser.add_argument("--slug", default="bench-2000x10")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--per", type=int, default=6)
    args = parser.parse_args()
    found: dict[str, dict[str, list[float]]] = {
        name: {"cold": [], "warm": [], "cold server": [], "warm server": []}
        for name in ("base", "this")
    }
    load = os.getloadavg()
    for i in range(args.rounds):
        order = [("base", args.base), ("this", ROOT)]
        for name, checkout in order if i % 2 == 0 else order[::-1]:
            times, server = run(checkout, args.slug, args.per, seed=i)
            found[name]["cold"].append(times[0])
            found[name]["warm"].extend(times[1:])
            found[name]["cold server"].append(server[0])
            found[name]["warm server"].extend(server[1:])
    after = os.getloadavg()
    print(f"load average {load} before, {after} after; {args.rounds} processes each")
    for mode in ("cold", "warm", "cold server", "warm server"):
        base, this = found["base"][mode], found["this"][mode]
        ratio = statistics.median(this) / statistics.median(base)
        print(
            f"{mode}: base median {statistics.median(base):.1f} ms (min {min(base):.1f}, "
            f"{len(base)} runs); this median {statistics.median(this):.1f} ms "
            f"(min {min(this):.1f}, {len(this)} runs); ratio {ratio:.2f}"
        )


if __name__ == "__main__":
    main()
