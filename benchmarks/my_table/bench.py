"""Benchmark: 1,000 players following their table ("my table") against the standings page, in
one run, gunicorn on loopback.

Builds (or reuses) an event of ``--entries`` partnerships whose round 1 is published and in play
(through the project's services, as the director's pages do), then serves it with gunicorn and a
Redis of its own (a throw-away ``redis-server`` on a free port: the cache the version tokens and
the rendered standings live in). Measures, for a poll that finds nothing new (304):

- *what one request costs the server*, in process with Django's test client on the same
  database and Redis: the SQL queries and the cache calls of ``standings live 304``,
  ``my table 304`` and ``my table 200`` (the answer after a change);
- *how fast the server answers* under ``--clients`` client processes for ``--seconds`` each:
  ``standings live 304`` (one URL, its ETag) and ``my table 304`` (each client cycling through
  every entry's own URL with that entry's ETag: 1,000 different followers), with the CPU time
  gunicorn's processes spent per request (from /proc).

Run from the repository root (PostgreSQL database of its own; it is migrated):
    createdb -h 127.0.0.1 -U postgres spinner_my_table_bench     # once
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_my_table_bench \\
        .venv/bin/python benchmarks/my_table/bench.py [--entries 1000] [--clients 4]
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SLUG = "bench-follow"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def setup_event(entries: int) -> tuple[list[int], str]:
    """The event with round 1 published and started: its entry ids and its slug."""
    from django.db import transaction

    from tournaments.models import Entry, Event, Round
    from tournaments.services import round_generation, round_status
    from tournaments.services.standings import recompute_standings

    sys.path.insert(0, str(ROOT))
    from tests import factories

    event = Event.objects.filter(slug=SLUG).first()
    if event is None or event.entries.count() != entries:
        if event is not None:
            raise SystemExit(f"{SLUG} exists with another size: use a fresh database")
        with transaction.atomic():
            event = factories.make_event(SLUG, name="Bench Follow Open", salt="bench")
            director = factories.make_director(event, "bench-director")
            for n in range(entries):
                factories.make_entry(event, f"Team {n:04d}", status=Entry.Status.CHECKED_IN)
        rnd = round_generation.generate_round(event=event, actor=director)
        round_status.publish_round(round=rnd, actor=director)
        round_status.start_round(round=rnd, actor=director)
        recompute_standings(event_id=event.pk, force=True)
    assert Round.objects.filter(event=event, number=1, status=Round.Status.IN_PLAY).exists()
    ids = list(Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True))
    return ids, event.slug


def in_process_costs(slug: str, entry_id: int) -> list[tuple[str, int, int, int]]:
    """(label, status, SQL queries, cache calls) of one request of each kind."""
    from django.core.cache import caches
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    calls = {"n": 0}
    backend = type(caches["default"])
    originals = {}
    for name in ("get", "get_many", "set", "add", "set_many", "incr"):
        original = getattr(backend, name)
        originals[name] = original

        def counted(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            calls["n"] += 1
            return _original(self, *args, **kwargs)

        setattr(backend, name, counted)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    rows = []
    try:
        for label, path in (
            ("standings live", f"/events/{slug}/standings/live/"),
            ("my table", f"/events/{slug}/me/{entry_id}/live/"),
        ):
            tag = client.get(path)["ETag"]
            for status_label, headers in (("200", {}), ("304", {"HTTP_IF_NONE_MATCH": tag})):
                calls["n"] = 0
                with CaptureQueriesContext(connection) as queries:
                    response = client.get(path, **headers)
                rows.append(
                    (f"{label} {status_label}", response.status_code, len(queries), calls["n"])
                )
    finally:
        for name, original in originals.items():
            setattr(backend, name, original)
    return rows


def client(args: tuple[int, list[tuple[str, str]], float]) -> list[tuple[int, float]]:
    """Requests one after another (cycling through ``targets``) until the time is up."""
    port, targets, seconds = args
    out: list[tuple[int, float]] = []
    stop = time.monotonic() + seconds
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    i = 0
    while time.monotonic() < stop:
        path, tag = targets[i % len(targets)]
        i += 1
        start = time.perf_counter()
        conn.request("GET", path, headers={"If-None-Match": tag, "Accept-Language": "en"})
        response = conn.getresponse()
        response.read()
        out.append((response.status, time.perf_counter() - start))
        if response.getheader("Connection", "").lower() == "close":
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.close()
    return out


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of these processes (and their children's threads), in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def worker_pids(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children")
    return (
        [master, *(int(p) for p in children.read_text().split())] if children.exists() else [master]
    )


def drive(
    port: int, targets: list[tuple[str, str]], clients: int, seconds: float, pids: list[int]
) -> str:
    slices = [targets[i::clients] or targets for i in range(clients)]
    before = cpu_seconds(pids)
    with multiprocessing.Pool(clients) as pool:
        started = time.perf_counter()
        results = pool.map(client, [(port, s, seconds) for s in slices])
        elapsed = time.perf_counter() - started
    cpu = cpu_seconds(pids) - before
    samples = [s for r in results for s in r]
    statuses = sorted({status for status, _ in samples})
    latencies = sorted(t * 1000 for _, t in samples)

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    return (
        f"| {len(samples) / elapsed:,.0f} | {pct(0.50):.1f} | {pct(0.99):.1f} | "
        f"{cpu / len(samples) * 1000:.2f} | {len(samples):,} | {statuses} |"
    )


def fetch_tag(port: int, path: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Accept-Language": "en"})
    response = conn.getresponse()
    response.read()
    conn.close()
    if response.status != 200:
        raise SystemExit(f"{path}: {response.status}")
    return response.getheader("ETag") or ""


def wait_for(port: int, path: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            fetch_tag(port, path)
            return
        except (OSError, SystemExit):
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer {path} within {timeout} s")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10)
    return parser.parse_args()


def start_redis(port: int) -> subprocess.Popen[bytes]:
    """A Redis of the benchmark's own, in memory only."""
    return subprocess.Popen(
        [
            *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
            *("--save", "", "--appendonly", "no"),
        ],
        stdout=subprocess.DEVNULL,
    )


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    """gunicorn with ``workers`` sync workers, on the environment's database and Redis."""
    env = dict(os.environ, ALLOWED_HOSTS="127.0.0.1,testserver")
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "spinner.wsgi:application"),
            *("--bind", f"127.0.0.1:{port}", "--workers", str(workers)),
            *("--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
    )


def main() -> None:
    args = parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database of the benchmark's own")
    if not shutil.which("redis-server"):
        raise SystemExit("needs redis-server")
    redis_port, port = free_port(), free_port()
    redis = start_redis(redis_port)
    os.environ.update(REDIS_URL=f"redis://127.0.0.1:{redis_port}/0", DEBUG="0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    import django

    django.setup()
    started = time.perf_counter()
    ids, slug = setup_event(args.entries)
    took = time.perf_counter() - started
    print(f"event {slug}: {len(ids)} entries, round 1 in play (set up in {took:.0f} s)")
    server = start_server(port, args.workers)
    try:
        standings = f"/events/{slug}/standings/live/"
        wait_for(port, standings)
        print("\nOne request, in process (Django's test client, same database and Redis):\n")
        print("| request | status | SQL queries | cache calls |\n|---|---|---|---|")
        for label, status, queries, calls in in_process_costs(slug, ids[0]):
            print(f"| {label} | {status} | {queries} | {calls} |")
        follow_targets = [
            (f"/events/{slug}/me/{i}/live/", fetch_tag(port, f"/events/{slug}/me/{i}/live/"))
            for i in ids
        ]
        standings_targets = [(standings, fetch_tag(port, standings))]
        pids = worker_pids(server.pid)
        print(
            f"\nOver HTTP: gunicorn {args.workers} sync workers, {args.clients} client processes "
            f"(keep-alive off: gunicorn sync closes), {args.seconds:.0f} s each:\n"
        )
        print(
            "| poll | req/s | p50 ms | p99 ms | server CPU ms/req | requests | statuses |\n"
            "|---|---|---|---|---|---|---|"
        )
        for label, targets in (
            ("standings live 304 (one URL)", standings_targets),
            (f"my table 304 ({len(follow_targets)} followers)", follow_targets),
        ):
            row = drive(port, targets, args.clients, args.seconds, pids)
            print(f"| {label} {row}")
        machine = f"python {platform.python_version()} on {platform.machine()}"
        print(f"\n{machine}, nproc {os.cpu_count()}")
        print(f"load average before the end: {os.getloadavg()}")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        redis.terminate()
        redis.wait(timeout=10)


if __name__ == "__main__":
    main()
