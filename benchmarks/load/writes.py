"""Benchmark: the server's CPU for one table claim and one confirmation (issue 17: <= 20 ms each).

Each table of a fresh event (round 1 published and started) is played once through the results
API, in this process, through Django's whole stack (``django.test.Client``: every middleware,
authentication, throttling, idempotency, the services, the after-commit work): side A claims with
a verified simulated sheet (``POST /api/matches/<id>/claims/``, as ``harness.py`` does), side B
confirms it (``POST /api/matches/<id>/confirm/``). Around each request: this process's CPU time
(``time.process_time``) and the wall time. PostgreSQL's own CPU is not included (it is another
process); the queries each request sends are counted (``CaptureQueriesContext``).

Run from the repository root with the production shape's services (a database of its own; a
fresh event per run, so every claim is a new one)::

    createdb -h 127.0.0.1 -U postgres spinner_writes
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_writes \\
        REDIS_URL=redis://127.0.0.1:6379/8 SPINNER_ENV=production SECRET_KEY=bench \\
        SPINNER_SECURE_SSL_REDIRECT=0
    .venv/bin/python manage.py migrate
    .venv/bin/python benchmarks/load/writes.py --tables 40 [--queries]
    ... writes.py --profile 20      # cProfile (process CPU) of 20 claims and 20 confirmations

The first ``--warmup`` tables are played but not counted (imports, caches, connections).

On a shared machine the CPU times move with the load; ``--compare DIR`` runs this code and the
code of another checkout (``git archive <commit> | tar -x -C DIR``; same database schema) in
alternating child processes, ``--repeat`` times each, and prints each pair's ratio::

    ... writes.py --tables 30 --compare /tmp/base --repeat 5
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import datetime
import hashlib
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# --compare runs this script against another checkout's code (its path in SPINNER_CODE).
sys.path.insert(0, os.environ.get("SPINNER_CODE") or str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring.simulate import simulate_jsonl  # noqa: E402
from tournaments.models import Event, Match  # noqa: E402
from tournaments.services import entries as entry_services  # noqa: E402
from tournaments.services import events as event_services  # noqa: E402
from tournaments.services import round_generation, round_status  # noqa: E402
from tournaments.services.entries import PlayerSpec  # noqa: E402
from tournaments.services.table_links import table_token  # noqa: E402

COUNTED = 3
"""Tables played after the timed ones with their queries recorded (not timed)."""


def build_event(tables: int, rules: str) -> list[dict[str, Any]]:
    """A new event with ``tables`` tables in play; per table its match, two links, a sheet."""
    director, _ = User.objects.get_or_create(username="writes-bench")
    slug = f"writes-{uuid.uuid4().hex[:10]}"
    today = datetime.date.today()
    event = event_services.create_event(
        actor=director,
        name=f"Writes {slug}",
        slug=slug,
        start_date=today,
        end_date=today,
        status=Event.Status.RUNNING,
        rules=rules,
        entry_kind=Event.EntryKind.PARTNERSHIP,
        format=Event.Format.SWISS,
        swiss_rounds=5,
        first_round="random",
        tiebreaks=["buchholz", "spread"],
        public_listing=False,
    )
    for i in range(2 * tables):
        players = [PlayerSpec(f"Player {i}a", "Club"), PlayerSpec(f"Player {i}b", "Club")]
        entry = entry_services.register_entry(
            actor=director, event=event, players=players, team_name=f"Team {i:04d}"
        )
        entry_services.check_in_entry(actor=director, entry=entry)
    rnd = round_generation.generate_and_publish_round(event=event, actor=director)
    rnd = round_status.start_round(round=rnd, actor=director)
    matches = list(
        Match.objects.filter(round=rnd, is_bye=False).select_related("table").order_by("pk")
    )
    seed = int.from_bytes(hashlib.sha256(slug.encode()).digest()[:4], "big")
    sheets = list(simulate_jsonl(rules=rules, players=4, seed=seed, count=len(matches)))
    return [
        {
            "match": m.pk,
            "tokens": [table_token(round_=rnd, table=m.table, side=side) for side in (0, 1)],
            "sheet": json.loads(line),
        }
        for m, line in zip(matches, sheets, strict=True)
    ]


def play(
    client: Client, row: dict[str, Any], profiler: cProfile.Profile | None, *, count: bool = False
) -> dict[str, Any]:
    """Claim, then confirm, one table; CPU and wall ms of each (``count``: its queries instead:
    recording them costs CPU, so the timed tables are not counted)."""
    out: dict[str, Any] = {}
    etag = '"1"'
    for kind, path, body in (
        ("claim", f"/api/matches/{row['match']}/claims/", {"side": 0, "sheet": row["sheet"]}),
        ("confirm", f"/api/matches/{row['match']}/confirm/", {"side": 1}),
    ):
        headers = {
            "HTTP_AUTHORIZATION": f"Table {row['tokens'][body['side']]}",
            "HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex,
        }
        if kind == "confirm":
            headers["HTTP_IF_MATCH"] = etag
        payload = json.dumps(body)
        with CaptureQueriesContext(connection) if count else contextlib.nullcontext() as queries:
            if profiler is not None:
                profiler.enable()
            cpu, wall = time.process_time(), time.perf_counter()
            answer = client.post(path, payload, content_type="application/json", **headers)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            if profiler is not None:
                profiler.disable()
        if answer.status_code not in (200, 201):
            raise SystemExit(f"{kind} answered {answer.status_code}: {answer.content[:300]!r}")
        etag = answer.headers.get("ETag", etag)
        out[kind] = {
            "cpu_ms": cpu * 1000,
            "wall_ms": wall * 1000,
            "queries": len(queries) if queries is not None else None,
            "statements": [q["sql"] for q in queries] if queries is not None else [],
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40, help="tables played and counted")
    parser.add_argument("--warmup", type=int, default=5, help="tables played first, not counted")
    parser.add_argument("--rules", default="five-up")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="profile N tables instead of timing (cProfile, top functions)",
    )
    parser.add_argument("--profile-out", type=Path, help="with --profile: the raw stats file")
    parser.add_argument("--queries", action="store_true", help="print each request's SQL")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--compare", type=Path, metavar="DIR", help="another checkout to compare")
    parser.add_argument("--repeat", type=int, default=3, help="with --compare: pairs of runs")
    args = parser.parse_args()
    if args.compare:
        compare(args)
        return

    total = args.warmup + max(args.tables, args.profile) + COUNTED
    rows = build_event(total, args.rules)
    client = Client(HTTP_HOST="127.0.0.1")
    for row in rows[: args.warmup]:
        play(client, row, None)
    rows = rows[args.warmup :]
    if args.profile:
        profiler = cProfile.Profile(time.process_time)
        for row in rows[: args.profile]:
            play(client, row, profiler)
        if args.profile_out:
            profiler.dump_stats(str(args.profile_out))
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(60)
        stats.sort_stats("tottime").print_stats(30)
        return
    played = [play(client, row, None) for row in rows[: args.tables]]
    counted = [play(client, row, None, count=True) for row in rows[-COUNTED:]]
    report: dict[str, Any] = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cpus "
        f"Python {platform.python_version()}",
        "database": connection.vendor,
        "code": str(Path(sys.modules["tournaments"].__file__ or "").parent.parent),
        "load_average": os.getloadavg(),
        "tables": len(played),
    }
    for kind in ("claim", "confirm"):
        cpu = [p[kind]["cpu_ms"] for p in played]
        wall = [p[kind]["wall_ms"] for p in played]
        report[kind] = {
            "cpu_ms_median": round(statistics.median(cpu), 1),
            "cpu_ms_min": round(min(cpu), 1),
            "cpu_ms_p90": round(statistics.quantiles(cpu, n=10)[-1], 1),
            "wall_ms_median": round(statistics.median(wall), 1),
            "queries": sorted({p[kind]["queries"] for p in counted}),
        }
    if args.queries:
        for kind in ("claim", "confirm"):
            print(f"--- the {len(counted[0][kind]['statements'])} statements of a {kind}")
            for sql in counted[0][kind]["statements"]:
                print("  ", sql[:160])
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


def compare(args: argparse.Namespace) -> None:
    """Alternate child processes running the other checkout's code and this one's."""
    runs: dict[str, list[dict[str, Any]]] = {"base": [], "this": []}
    for i in range(args.repeat):
        for name, code in (("base", str(args.compare.resolve())), ("this", str(ROOT))):
            out = Path(f"/tmp/writes-{os.getpid()}-{name}-{i}.json")
            command = [
                sys.executable,
                str(Path(__file__).resolve()),
                "--tables",
                str(args.tables),
                "--json",
                str(out),
            ]
            command += ["--warmup", str(args.warmup), "--rules", args.rules]
            subprocess.run(
                command,
                env={**os.environ, "SPINNER_CODE": code},
                cwd=code,  # Celery's Django fix-up puts the working directory first on the path
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            runs[name].append(json.loads(out.read_text()))
            out.unlink()
        pair = {n: runs[n][-1] for n in runs}
        print(
            f"pair {i + 1} (load {pair['this']['load_average'][0]:.1f}):",
            ", ".join(
                f"{kind} {pair['base'][kind]['cpu_ms_median']} -> "
                f"{pair['this'][kind]['cpu_ms_median']} ms "
                f"({pair['this'][kind]['cpu_ms_median'] / pair['base'][kind]['cpu_ms_median']:.2f}"
                "), "
                f"queries {pair['base'][kind]['queries']} -> {pair['this'][kind]['queries']}"
                for kind in ("claim", "confirm")
            ),
        )
    for kind in ("claim", "confirm"):
        base = statistics.median(r[kind]["cpu_ms_median"] for r in runs["base"])
        this = statistics.median(r[kind]["cpu_ms_median"] for r in runs["this"])
        ratios = [
            t[kind]["cpu_ms_median"] / b[kind]["cpu_ms_median"]
            for b, t in zip(runs["base"], runs["this"], strict=True)
        ]
        print(
            f"{kind}: base {base:.1f} ms, this {this:.1f} ms (medians of {args.repeat} runs); "
            f"ratio median {statistics.median(ratios):.2f} "
            f"(range {min(ratios):.2f}-{max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()
