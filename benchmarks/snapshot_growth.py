"""Benchmark: how the embedded default's database grows over a large event (issue 28).

The embedded default is SQLite with eager tasks (no ``DATABASE_URL``, no ``REDIS_URL``): every
confirmed result recomputes the standings in the request and, when they change, stores a whole
new snapshot. This plays ``--rounds`` Swiss rounds of ``--tables`` tables (2 x tables
partnerships) through the project's services, one table after another as the phones would (side
0 claims a simulated sheet, side 1 confirms), and after each round reports the SQLite file's
size (with its WAL), the snapshots stored and their bytes.

Each checkout given (``--code``, default this one; e.g. ``--code /work/main --code .`` for
before and after) runs in a process of its own, on a fresh SQLite file, with its own code::

    .venv/bin/python benchmarks/snapshot_growth.py --tables 500 --rounds 2 \\
        --code /path/to/before --code . --json growth.json

The event is seeded (the same pairings and sheets for every checkout).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()


def _sizes(db: Path) -> dict[str, Any]:
    from django.db import connection

    from tournaments.models import StandingsSnapshot

    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cursor.execute("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM tournaments_standingssnapshot")
        data_bytes = cursor.fetchone()[0]
    files = [db, db.with_name(db.name + "-wal")]
    size = sum(f.stat().st_size for f in files if f.exists())
    return {
        "db_mb": round(size / 1e6, 1),
        "snapshots": StandingsSnapshot.objects.count(),
        "snapshot_data_mb": round(data_bytes / 1e6, 1),
    }


def _play_round(event: Any, director: Any, number: int) -> int:
    """Round ``number``: paired, published and started here after round 1 (which the setup
    started); every table claims and confirms; closed. How many results."""
    from scoring.simulate import simulate_jsonl
    from tournaments.models import Match, Round
    from tournaments.services import claims, round_generation, round_status

    if number == 1:
        rnd = Round.objects.get(event=event, number=1)
    else:
        rnd = round_generation.generate_and_publish_round(event=event, actor=director)
        rnd = round_status.start_round(round=rnd, actor=director)
    matches = list(Match.objects.filter(round=rnd, is_bye=False).select_related("round__event"))
    sheets = simulate_jsonl(rules=event.rules, players=4, seed=number, count=len(matches))
    for match, line in zip(matches, sheets, strict=True):
        outcome = claims.submit_claim(match=match, side=0, sheet=json.loads(line))
        claims.confirm_claim(match=match, side=1, expected_version=outcome.claim.version)
    round_status.close_round(round=rnd, actor=director)
    return len(matches)


def child(tables: int, rounds: int, db: Path) -> dict[str, Any]:
    """Build and play the event in this process (the checkout is the working directory)."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command

    assert settings.CELERY_TASK_ALWAYS_EAGER, "the embedded default runs tasks eagerly"
    call_command("migrate", verbosity=0)
    sys.path.insert(0, str(Path.cwd() / "benchmarks" / "load"))  # the checkout's own
    from django_side import setup  # the load harness's event: partnerships checked in, round 1

    from tournaments.models import Event

    setup("growth", tables, db.with_name("event.json"), "five-up")
    event = Event.objects.get(slug="growth")
    director = User.objects.get(username="load-director")
    rows = [{"after": "setup", **_sizes(db)}]
    for number in range(1, rounds + 1):
        started = time.monotonic()
        played = _play_round(event, director, number)
        rows.append({"after": f"round {number}", "results": played, **_sizes(db)})
        rows[-1]["seconds"] = round(time.monotonic() - started, 1)
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return {"rows": rows}


def run_checkout(code: Path, tables: int, rounds: int) -> dict[str, Any]:
    """This script as a child process in ``code``, on a fresh SQLite file."""
    work = Path(tempfile.mkdtemp(prefix="snapshot-growth-"))
    db = work / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        SQLITE_PATH=str(db),
        PYTHONPATH=str(code),
        DJANGO_SETTINGS_MODULE="spinner.settings",
        PYTHONUNBUFFERED="1",
    )
    argv = [sys.executable, str(HERE), "--child", "--tables", str(tables), "--rounds", str(rounds)]
    done = subprocess.run(
        [*argv, "--db", str(db)], cwd=code, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{code}: failed\n{done.stderr[-4000:]}")
    commit = subprocess.run(
        ["git", "-C", str(code), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(code), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return {"code": str(code), "commit": commit + ("+changes" if dirty else ""), **result}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=500)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--code", action="append", type=Path, help="a checkout (repeat)")
    p.add_argument("--json", type=Path)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.tables, args.rounds, args.db)))
        return 0
    report: dict[str, Any] = {
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "machine": {"nproc": os.cpu_count(), "python": platform.python_version()},
        "load_before": os.getloadavg(),
        "tables": args.tables,
        "rounds": args.rounds,
        "runs": [],
    }
    for code in args.code or [HERE.parents[1]]:
        report["runs"].append(run_checkout(code.resolve(), args.tables, args.rounds))
        report["runs"][-1]["load_after"] = os.getloadavg()
        print(json.dumps(report["runs"][-1]), flush=True)
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
