"""Does a graceful reload (``kill -HUP``, systemd's ``reload``) stall the requests? (issue 28)

gunicorn with the repository's ``gunicorn.conf.py`` (production settings, on loopback) answers a
steady stream of requests (``--clients`` threads, each asking in turn for the public standings
page, its JSON and ``/healthz``, with ``--pause`` s between requests); after ``--settle`` s the
master gets a HUP; the requests go on for ``--after`` s. Reported per HUP: the slowest request
started within the window, how many took over 1 s and over 2 s, the window's p50 / p99, and the
time until every worker is a new one. ``--repeat`` HUPs (on the same server, 2 s apart);
the summary gives the medians. ``--option`` passes a gunicorn option over the config
(``--option=--preload``), ``--env NAME=VALUE`` an environment variable of the server.

Run from the repository root on a PostgreSQL database of its own (migrated; adds an event)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_load \\
        .venv/bin/python benchmarks/load/reload.py --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import harness as h  # noqa: E402  (its helpers and statistics)
import processes  # noqa: E402  (gunicorn and its environment, as the harness starts them)


def get(url: str, timeout: float = 30) -> tuple[int, float]:
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as refused:
        status = refused.code
    except OSError:
        status = 0
    return status, time.monotonic() - start


class Load:
    """Threads asking in turn for ``paths``; every request's (start, seconds, status) kept."""

    def __init__(self, base: str, paths: list[str], clients: int, pause: float) -> None:
        self.base, self.paths, self.pause = base, paths, pause
        self.samples: list[tuple[float, float, int]] = []
        self.inflight: dict[int, float] = {}  # thread -> start of the request it waits for
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(i,)) for i in range(clients)]

    def _run(self, offset: int) -> None:
        i = offset
        while not self.stop.is_set():
            start = time.monotonic()
            with self.lock:
                self.inflight[offset] = start
            status, seconds = get(self.base + self.paths[i % len(self.paths)])
            with self.lock:
                self.samples.append((start, seconds, status))
                del self.inflight[offset]
            i += 1
            self.stop.wait(self.pause)

    def __enter__(self) -> Load:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()

    def window(self, start: float, end: float) -> list[tuple[float, float, int]]:
        """The requests started in [start, end), once every one of them has its answer."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with self.lock:
                if all(t >= end for t in self.inflight.values()):
                    break
            time.sleep(0.05)
        with self.lock:
            return [s for s in self.samples if start <= s[0] < end]


def workers_of(master: int) -> set[int]:
    return set(h.children_of(master))


def one_hup(load: Load, master: int, before: float, after: float) -> dict[str, Any]:
    time.sleep(before)
    old = workers_of(master)
    sent = time.monotonic()
    os.kill(master, signal.SIGHUP)
    replaced = None
    while time.monotonic() < sent + after:
        if replaced is None and old and not (workers_of(master) & old):
            replaced = time.monotonic() - sent
        time.sleep(0.05)
    samples = load.window(sent - 1.0, sent + after)
    seconds = sorted(s[1] for s in samples)
    return {
        "requests": len(samples),
        "max_s": round(max(seconds), 3),
        "over_1s": sum(1 for x in seconds if x > 1.0),
        "over_2s": sum(1 for x in seconds if x > 2.0),
        "p50_ms": round(h.pct(seconds, 50) * 1000, 1),
        "p99_ms": round(h.pct(seconds, 99) * 1000, 1),
        "errors": sum(1 for s in samples if s[2] != 200),
        "workers_replaced_s": None if replaced is None else round(replaced, 2),
        "load_1min": round(os.getloadavg()[0], 2),  # the machine's (shared with others)
        # The slow ones: when each started (s after the HUP) and how long it took.
        "slow": [[round(s[0] - sent, 2), round(s[1], 2)] for s in samples if s[1] > 1.0],
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--clients", type=int, default=6)
    p.add_argument("--pause", type=float, default=0.05)
    p.add_argument("--settle", type=float, default=8.0, help="s of load before the first HUP")
    p.add_argument("--after", type=float, default=20.0, help="s measured after each HUP")
    p.add_argument("--option", action="append", default=[], help="a gunicorn option")
    p.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server")
    p.add_argument("--json", type=Path)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="spinner-reload-"))
    env = processes.production_env()
    env.update(dict(item.split("=", 1) for item in args.env))
    h.run([h.PY, "manage.py", "migrate", "--noinput", "-v0"], env, 600)
    h.run([h.PY, "manage.py", "collectstatic", "--noinput", "-v0"], env, 300)
    slug = f"reload-{time.strftime('%Y%m%d%H%M%S')}-{secrets.token_hex(3)}"
    out = work / "event.json"
    setup = [h.PY, str(HERE / "django_side.py"), "setup", "--slug", slug, "--tables", "20"]
    h.run([*setup, "--out", str(out)], env, 600)
    port = h.free_port()
    base = f"http://127.0.0.1:{port}"
    server = processes.start_gunicorn(env, port, work / "gunicorn.log", args.option)
    runs = []
    try:
        deadline = time.monotonic() + 120
        while get(base + "/healthz", 2)[0] != 200:
            if time.monotonic() > deadline:
                raise SystemExit("gunicorn did not start")
            time.sleep(0.2)
        paths = [f"/events/{slug}/standings/", f"/api/events/{slug}/standings/", "/healthz"]
        with Load(base, paths, args.clients, args.pause) as load:
            for i in range(args.repeat):
                runs.append(one_hup(load, server.pid, args.settle if i == 0 else 2.0, args.after))
                h.log(f"HUP {i + 1}: {json.dumps(runs[-1])}")
    finally:
        processes.stop(server, timeout=60)
    keys = ["max_s", "over_1s", "over_2s", "p50_ms", "p99_ms", "errors", "workers_replaced_s"]
    keys.append("load_1min")
    summary = {k: statistics.median([r[k] for r in runs if r[k] is not None] or [0]) for k in keys}
    report = {"machine": h.machine(), "options": args.option, "runs": runs, "median": summary}
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
