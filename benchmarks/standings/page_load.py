"""Benchmark: the public standings page of 2,000 teams under load, gunicorn on loopback.

Serves the benchmark event made by ``recompute.py`` (run that first, same DATABASE_URL) with
gunicorn on 127.0.0.1 and a Redis of its own (a throw-away ``redis-server`` on a free port, for the
rendered-table cache), then drives it with a small Python client: ``--clients`` processes, each
sending requests one after another for ``--seconds`` (bounded: it stops by itself), on loopback
only. Reports requests/s and latency percentiles for:

- ``page 200``: the full page, no ETag (the rendered table comes from the cache);
- ``page 304``: the same with ``If-None-Match`` (what a browser revalidating sends);
- ``live 200`` / ``live 304``: the fragment the page polls every 5 s.

Run from the repository root:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_bench \\
        .venv/bin/python benchmarks/standings/page_load.py [--workers 2] [--clients 4]
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import platform
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, path: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"the server did not answer {path} within {timeout} s")


def client(args: tuple[int, str, dict[str, str], float]) -> list[tuple[int, float]]:
    """Requests one after another until the time is up: ``(status, seconds)`` each."""
    port, path, headers, seconds = args
    out: list[tuple[int, float]] = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop and len(out) < 1_000_000:
        start = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.read()
        conn.close()
        out.append((response.status, time.perf_counter() - start))
    return out


def run(port: int, path: str, headers: dict[str, str], clients: int, seconds: float) -> str:
    with multiprocessing.Pool(clients) as pool:
        started = time.perf_counter()
        results = pool.map(client, [(port, path, headers, seconds)] * clients)
        elapsed = time.perf_counter() - started
    samples = [s for r in results for s in r]
    statuses = sorted({status for status, _ in samples})
    latencies = sorted(t * 1000 for _, t in samples)

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    return (
        f"{len(samples) / elapsed:8.1f} req/s  p50 {pct(0.50):6.1f} ms  p99 {pct(0.99):6.1f} ms"
        f"  max {latencies[-1]:6.1f} ms  ({len(samples)} requests, status {statuses})"
    )


def start_services(
    redis_port: int, port: int, workers: int
) -> tuple[subprocess.Popen[bytes], subprocess.Popen[bytes]]:
    """A Redis of the benchmark's own (in memory only) and gunicorn with ``workers`` sync
    workers on it and the environment's database."""
    redis = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    env = dict(
        os.environ,
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
    )
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "spinner.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    return redis, server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slug", default="bench-2000x10")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        raise SystemExit("set DATABASE_URL to the benchmark database (see recompute.py)")
    if not shutil.which("redis-server"):
        raise SystemExit("needs redis-server")
    redis_port, port = free_port(), free_port()
    redis, server = start_services(redis_port, port, args.workers)
    try:
        page, live = f"/events/{args.slug}/standings/", f"/events/{args.slug}/standings/live/"
        wait_for(port, page)
        tags = {}
        for path in (page, live):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read()
            tags[path] = response.getheader("ETag") or ""
            print(f"{path}: {len(body):,} bytes, ETag {tags[path]}")
        print(
            f"gunicorn {args.workers} sync workers; {args.clients} client processes; "
            f"{args.seconds:.0f} s each"
        )
        rows = [
            ("page 200", page, {}),
            ("page 304", page, {"If-None-Match": tags[page]}),
            ("live 200", live, {}),
            ("live 304", live, {"If-None-Match": tags[live]}),
        ]
        for label, path, headers in rows:
            print(f"{label}: {run(port, path, headers, args.clients, args.seconds)}")
        print(f"python {platform.python_version()} on {platform.machine()}")
    finally:
        server.terminate()
        server.wait(timeout=30)
        redis.terminate()
        redis.wait(timeout=10)


if __name__ == "__main__":
    main()
