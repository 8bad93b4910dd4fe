"""Which gunicorn configuration keeps static files (and writes) fast while spectators poll?

One room, several server configurations, measured in turns in ONE run (a shared machine's
contention then weighs on all of them alike): the harness's Redis, Celery worker and beat stay
up; for each configuration gunicorn is started with the repository's ``gunicorn.conf.py`` plus
that configuration's options, and for ``--phase-seconds`` the same load arrives:

- ``--spectators`` browsers reloading the public round page, the standings page and its live
  fragment every ``--spectator-interval`` s (jittered, revalidating with their ETag);
- a probe fetching a static file every 0.2 s (does it queue behind slow requests?);
- ``--tables-per-phase`` tables claiming and confirming (a fresh slice of the room's tables each
  phase), spread over the phase.

Per configuration: the static file's p50/p95/p99, the claim's and confirmation's p50/p99, the
pages' p50/p99, requests that got no answer, the server's CPU per answered request, its memory
(RSS of master and workers), PostgreSQL connections it held, and the load average. With
``--repeat`` > 1 the configurations take turns in rotated order and the report gives medians.

Run from the repository root (its own PostgreSQL database, migrated; every run adds an event)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_load \\
        .venv/bin/python benchmarks/load/server_config.py --tables 300 --spectators 50 \\
        --config sync:3 --config gthread:2x8 --config gthread:3x4 --repeat 2

A configuration is ``CLASS:WORKERS[xTHREADS][:option=value,...]``, e.g. ``gthread:3x4`` or
``gthread:3x4:worker-connections=8`` (any gunicorn long option; ``env.NAME=value`` sets an
environment variable of that server, e.g. ``env.SPINNER_GIL_SWITCH_MS=1``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness as h  # noqa: E402  (the harness's processes, client and statistics)

ROOT = h.ROOT
PY = h.PY


def parse_config(text: str) -> dict[str, Any]:
    parts = text.split(":")
    if len(parts) < 2 or not parts[1]:
        raise argparse.ArgumentTypeError("CLASS:WORKERS[xTHREADS][:option=value,...]")
    klass = parts[0]
    workers, _, threads = parts[1].partition("x")
    extra: list[str] = []
    environ: dict[str, str] = {}
    if len(parts) > 2 and parts[2]:
        for item in parts[2].split(","):
            key, _, value = item.partition("=")
            if key.startswith("env."):
                environ[key[4:]] = value
            else:
                extra += [f"--{key}", value] if value else [f"--{key}"]
    return {
        "name": text,
        "worker_class": klass,
        "workers": int(workers),
        "threads": int(threads or 1),
        "extra": extra,
        "env": environ,
    }


def rss_mb(pid: int) -> float:
    total = 0
    for p in [pid, *h.children_of(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return round(total / 1024, 1)


def pg_connections(database_url: str) -> int:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(row[0]) if row else 0


def run_phase(
    config: dict[str, Any],
    *,
    env: dict[str, str],
    work: Path,
    supervisor: h.Supervisor,
    event: dict[str, Any],
    tables: list[dict[str, Any]],
    args: argparse.Namespace,
    phase_no: int,
) -> dict[str, Any]:
    port = h.free_port()
    base_url = f"http://127.0.0.1:{port}"
    argv = h.gunicorn_argv(
        port,
        [
            "--workers",
            str(config["workers"]),
            "--worker-class",
            config["worker_class"],
            "--threads",
            str(config["threads"]),
            "--error-logfile",
            "-",
            *config["extra"],
        ],
    )
    others = pg_connections(args.database_url)  # the worker's and beat's, before gunicorn
    proc = h.Proc(
        f"gunicorn-{phase_no}", argv, {**env, **config["env"]}, work / f"gunicorn-{phase_no}.log"
    )
    supervisor.add(proc)
    try:
        recorder = h.Recorder()
        client = h.Client(base_url, recorder)
        slug = event["slug"]
        pages = {
            "standings": ("standings page", f"/events/{slug}/standings/"),
            "live": ("standings live fragment", f"/events/{slug}/standings/live/"),
            "round": ("round page", f"/events/{slug}/rounds/{event['round']}/"),
        }
        h.wait_http(client, h.STATIC_PATH, time.monotonic() + 90, lambda a: a.status == 200)
        for _, path in pages.values():  # warm every worker's imports and the caches a little
            for _ in range(config["workers"]):
                client.request("warm", "GET", path)
        time.sleep(1)
        recorder.samples.clear()
        assert proc.popen is not None
        master = proc.popen.pid
        watched = [pages[name] for name in args.spectator_pages]
        stop = threading.Event()
        load_start = os.getloadavg()[0]
        cpu0 = h.tree_cpu_seconds(master)
        t0 = time.monotonic()
        background = [
            threading.Thread(
                target=h.spectator,
                args=(client, watched, args.spectator_interval, stop),
                daemon=True,
            )
            for _ in range(args.spectators)
        ]
        background.append(threading.Thread(target=h.static_probe, args=(client, stop), daemon=True))
        for t in background:
            t.start()
        rng = random.Random(f"{slug}-{phase_no}")
        spread = max(1.0, args.phase_seconds - 5)
        starts = sorted(t0 + rng.random() * spread for _ in tables)
        deadline = t0 + args.phase_seconds + 60
        with ThreadPoolExecutor(max_workers=args.writers) as pool:
            outcomes = list(
                pool.map(
                    lambda rs: h.play_table(client, rs[0], rs[1], deadline),
                    zip(tables, starts, strict=True),
                )
            )
        rest = t0 + args.phase_seconds - time.monotonic()
        if rest > 0:
            time.sleep(rest)
        memory = rss_mb(master)
        connections = pg_connections(args.database_url) - others
        stop.set()
        for t in background:
            t.join(timeout=35)
        elapsed = time.monotonic() - t0
        cpu = h.tree_cpu_seconds(master) - cpu0
        load_end = os.getloadavg()[0]
        samples = [s for s in recorder.snapshot() if s.kind != "warm"]
        rows = {r["kind"]: r for r in h.summarise(samples, elapsed)}
        answered = sum(1 for s in samples if s.status)
        log_text = proc.logfile.read_text(errors="replace")
        return {
            "config": config["name"],
            "seconds": round(elapsed, 1),
            "loadavg_1min": [round(load_start, 2), round(load_end, 2)],
            "server_cpu_s": round(cpu, 1),
            "server_cores": round(cpu / elapsed, 2),
            "server_cpu_ms_per_request": round(cpu * 1000 / answered, 2) if answered else None,
            "rss_mb": memory,
            "pg_connections": connections,
            "no_answer": sum(1 for s in samples if s.status == 0),
            "tables_confirmed": sum(1 for o in outcomes if o.confirmed_at is not None),
            "tables": len(tables),
            "worker_timeouts": log_text.count("WORKER TIMEOUT"),
            "rows": rows,
        }
    finally:
        proc.stop()


KINDS = [
    ("static (during burst)", "static"),
    ("claim", "claim"),
    ("confirm", "confirm"),
    ("round page", "round page"),
    ("standings page", "standings page"),
    ("standings live fragment", "live fragment"),
]


def med(values: list[float]) -> float:
    return round(statistics.median(values), 1) if values else 0.0


def render(report: dict[str, Any]) -> str:
    a = report["args"]
    out = [
        f"server configurations: {a['tables']} tables ({a['tables'] * 2} partnerships), "
        f"{a['spectators']} spectators every {a['spectator_interval']} s "
        f"({','.join(a['spectator_pages'])}), a static probe every 0.2 s, "
        f"{a['tables_per_phase']} tables claiming and confirming per {a['phase_seconds']} s "
        f"phase; {a['repeat']} turn(s) each, medians",
        f"machine: {report['machine']}; load average at the start {report['loadavg_start']}, "
        f"at the end {report['loadavg_end']}",
        "",
        "| config | static p50 / p95 / p99 ms | claim p50 / p99 ms | confirm p50 / p99 ms "
        "| round page p50 / p99 ms | standings p50 / p99 ms | no answer | server cores "
        "| CPU ms/req | RSS MB | PG conns | load 1 min |",
        "| --- | --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, phases in report["by_config"].items():

        def cell(kind: str, keys: tuple[str, ...], phases: list[dict[str, Any]] = phases) -> str:
            vals = []
            for key in keys:
                got = [p["rows"][kind][key] for p in phases if kind in p["rows"]]
                vals.append(f"{med(got):g}" if got else "-")
            return " / ".join(vals)

        loads = [f"{p['loadavg_1min'][0]}-{p['loadavg_1min'][1]}" for p in phases]
        out.append(
            f"| {name} | {cell('static (during burst)', ('p50_ms', 'p95_ms', 'p99_ms'))} "
            f"| {cell('claim', ('p50_ms', 'p99_ms'))} | {cell('confirm', ('p50_ms', 'p99_ms'))} "
            f"| {cell('round page', ('p50_ms', 'p99_ms'))} "
            f"| {cell('standings page', ('p50_ms', 'p99_ms'))} "
            f"| {med([p['no_answer'] for p in phases]):g} "
            f"| {med([p['server_cores'] for p in phases]):g} "
            f"| {med([p['server_cpu_ms_per_request'] or 0 for p in phases]):g} "
            f"| {med([p['rss_mb'] for p in phases]):g} "
            f"| {med([p['pg_connections'] for p in phases]):g} | {', '.join(loads)} |"
        )
    return "\n".join(out)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=300, help="the room: tables (2N partnerships)")
    p.add_argument("--config", action="append", type=parse_config, default=[])
    p.add_argument("--repeat", type=int, default=1, help="turns per configuration")
    p.add_argument("--phase-seconds", type=float, default=40.0)
    p.add_argument("--tables-per-phase", type=int, default=20)
    p.add_argument("--writers", type=int, default=16)
    p.add_argument("--spectators", type=int, default=50)
    p.add_argument("--spectator-interval", type=float, default=5.0)
    p.add_argument(
        "--spectator-pages",
        type=lambda text: [name for name in text.split(",") if name],
        default=["standings", "live", "round"],
    )
    p.add_argument("--celery-concurrency", type=int, default=2)
    p.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    p.add_argument("--json", type=Path, default=None)
    p.add_argument("--keep", action="store_true")
    args = p.parse_args(argv)
    if not args.database_url.startswith("postgres"):
        p.error("needs PostgreSQL: DATABASE_URL or --database-url postgres://...")
    if not args.config:
        args.config = [parse_config(c) for c in ("sync:3", "gthread:3x4")]
    needed = len(args.config) * args.repeat * args.tables_per_phase
    if needed > args.tables:
        p.error(f"{needed} tables needed (configs x repeat x tables-per-phase): raise --tables")
    if set(args.spectator_pages) - set(h.PAGE_NAMES):
        p.error(f"--spectator-pages: of {', '.join(h.PAGE_NAMES)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="spinner-server-config-"))
    slug = f"cfg-{time.strftime('%Y%m%d%H%M%S')}-{secrets.token_hex(3)}"
    supervisor = h.Supervisor()
    loadavg_start = [round(x, 2) for x in os.getloadavg()]
    try:
        port = h.free_port()
        (work / "redis").mkdir()
        supervisor.add(
            h.Proc(
                "redis",
                [
                    *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
                    *("--save", "", "--dir", str(work / "redis")),
                ],
                dict(os.environ),
                work / "redis.log",
            )
        )
        env = dict(
            os.environ,
            DATABASE_URL=args.database_url,
            DATABASE_REPLICA_URL="",
            REDIS_URL=f"redis://127.0.0.1:{port}/0",
            SPINNER_QUEUE=f"spinner-load-{slug}",
            SPINNER_ENV="production",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SPINNER_SECURE_SSL_REDIRECT="0",
            SPINNER_RECONCILE_SECONDS="10",
            PYTHONUNBUFFERED="1",
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        h.log("migrate, collectstatic")
        h.run([PY, "manage.py", "migrate", "--noinput", "-v0"], env, 600)
        h.run([PY, "manage.py", "collectstatic", "--noinput", "-v0"], env, 300)
        h.log(f"setup: event {slug}, {args.tables} tables")
        setup_file = work / "event.json"
        h.run(
            [
                *(PY, str(HERE / "django_side.py"), "setup", "--slug", slug),
                *("--tables", str(args.tables), "--out", str(setup_file)),
            ],
            env,
            3600,
        )
        event = json.loads(setup_file.read_text())
        tables: list[dict[str, Any]] = event["tables"]
        for name in ("worker", "beat"):
            extra = (
                [
                    *("worker", "--concurrency", str(args.celery_concurrency), "-Q"),
                    *(env["SPINNER_QUEUE"], "-n", f"cfg-{slug}@%h"),
                    *("--without-gossip", "--without-mingle"),
                ]
                if name == "worker"
                else ["beat", "-s", str(work / "celerybeat-schedule")]
            )
            supervisor.add(
                h.Proc(
                    name,
                    [PY, "-m", "celery", "-A", "spinner", *extra, "--loglevel", "INFO"],
                    env,
                    work / f"{name}.log",
                )
            )
        supervisor.begin()
        phases: list[dict[str, Any]] = []
        cursor = 0
        order = list(args.config)
        for turn in range(args.repeat):
            rotated = order[turn % len(order) :] + order[: turn % len(order)]
            for config in rotated:
                chunk = tables[cursor : cursor + args.tables_per_phase]
                cursor += args.tables_per_phase
                h.log(f"turn {turn + 1}: {config['name']}")
                result = run_phase(
                    config,
                    env=env,
                    work=work,
                    supervisor=supervisor,
                    event=event,
                    tables=chunk,
                    args=args,
                    phase_no=len(phases),
                )
                h.log(
                    f"  static p50 {result['rows'].get('static (during burst)', {}).get('p50_ms')}"
                    f" ms, claim p99 {result['rows'].get('claim', {}).get('p99_ms')} ms, "
                    f"cores {result['server_cores']}, load {result['loadavg_1min']}"
                )
                phases.append(result)
        by_config: dict[str, list[dict[str, Any]]] = {c["name"]: [] for c in args.config}
        for result in phases:
            by_config[result["config"]].append(result)
        report = {
            "args": {
                k: (str(v) if isinstance(v, Path) else v)
                for k, v in vars(args).items()
                if k != "database_url"
            },
            "slug": slug,
            "machine": h.machine(),
            "loadavg_start": loadavg_start,
            "loadavg_end": [round(x, 2) for x in os.getloadavg()],
            "by_config": by_config,
        }
        print(render(report), flush=True)
        if args.json:
            args.json.write_text(json.dumps(report, indent=2))
    finally:
        supervisor.stop_all()
        if args.keep:
            h.log(f"logs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
