"""Benchmark: the public pages a room reads, kept as documents or rendered each time (issue 17).

Two steps, from the repository root, against one PostgreSQL database::

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_pages
    .venv/bin/python benchmarks/load/pages.py setup --slug pages500 --tables 500
    .venv/bin/python benchmarks/load/pages.py measure --slug pages500 --json after.json
    # the code before, on the same data (a checkout of main with its own .venv):
    .venv/bin/python benchmarks/load/pages.py measure --slug pages500 --code /work/main \\
        --documents 0 --json before.json
    # only some pages (their names holding a word), e.g. the projector's screens:
    .venv/bin/python benchmarks/load/pages.py measure --slug pages500 --only projector
    # gzip (per request, as GZipMiddleware would) against brotli (once per change):
    .venv/bin/python benchmarks/load/pages.py compress http://127.0.0.1:8000/events/pages500/rounds/1/

``setup`` builds the event with the load harness's own setup (``django_side.py``: 2N
partnerships, round 1 paired, published and started) and then plays every table through the
services (each sheet claimed by side A, confirmed by side B, as the demo does) and recomputes the
standings: round 1's page is full of results, the standings have every row.

``measure`` starts a throw-away Redis and gunicorn (the checkout's own ``gunicorn.conf.py``, the
production settings; until ``d245522`` moved the configuration to the repository's root this was
a benchmark-only file with 3 sync workers, which the first figures in RESULTS.md used) on
loopback from ``--code`` (this checkout by default) and, for each page:

- **bytes** of a 200 as it is, with gzip and with brotli (what the server sends for each
  ``Accept-Encoding``);
- **server CPU per request** (gunicorn's processes' CPU time over ``--requests`` requests one
  after another): a 200 rendered every time (``SPINNER_PUBLIC_DOCUMENTS=0`` for this checkout),
  a 200 from the cache, a 304 (``If-None-Match``), and a static file (whitenoise) for scale;
- **throughput** of ``--clients`` closed-loop clients for ``--seconds`` against the static file's
  in the same run (the ratio issue 17's target is set in).

Nothing else may run on the machine for CPU figures to mean much; the report says the load
average before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from harness import (  # noqa: E402
    Client,
    Recorder,
    closed_loop,
    free_port,
    machine,
    tree_cpu_seconds,
)

STATIC = "/static/spinner/spinner.css"
ACCEPT = {"identity": "identity", "gzip": "gzip", "br": "gzip, deflate, br"}


def pages(slug: str) -> list[tuple[str, str]]:
    return [
        ("round 1 (first 50 tables)", f"/events/{slug}/rounds/1/"),
        ("round 1, tables 451-500", f"/events/{slug}/rounds/1/?from=451"),
        ("standings", f"/events/{slug}/standings/"),
        ("standings live fragment", f"/events/{slug}/standings/live/"),
        ("standings JSON (API)", f"/api/events/{slug}/standings/"),
        ("event page", f"/events/{slug}/"),
        ("team page", f"/events/{slug}/teams/{{team}}/"),
        ("projector, standings screen", f"/events/{slug}/projector/?view=standings&page=1"),
        ("projector, pairings screen", f"/events/{slug}/projector/?view=pairings&page=1"),
        ("projector, seats screen", f"/events/{slug}/projector/?view=seats&page=1"),
    ]


# --- setup ---------------------------------------------------------------------------------------


def setup(slug: str, tables: int) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True
    )
    out = Path(tempfile.mkdtemp()) / "event.json"
    subprocess.run(
        [
            sys.executable,
            str(HERE / "django_side.py"),
            "setup",
            "--slug",
            slug,
            "--tables",
            str(tables),
            "--out",
            str(out),
        ],
        cwd=ROOT,
        check=True,
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from tournaments.models import Match
    from tournaments.services import claims
    from tournaments.services.standings import recompute_standings

    rows = json.loads(out.read_text())["tables"]
    started = time.monotonic()
    for i, row in enumerate(rows):
        match = Match.objects.select_related("round__event").get(pk=row["match"])
        outcome = claims.submit_claim(match=match, side=0, sheet=row["sheet"])
        claims.confirm_claim(match=match, side=1, expected_version=outcome.claim.version)
        if i % 100 == 99:
            print(f"{i + 1} tables played ({time.monotonic() - started:.0f} s)", flush=True)
    event_id = match.round.event_id
    print("recompute:", recompute_standings(event_id=event_id, force=True))


# --- measure -------------------------------------------------------------------------------------


def _wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.1)
    raise SystemExit(f"nothing answers on port {port}")


def _get(client: Client, path: str, headers: dict[str, str]) -> Any:
    answer = client.request("probe", "GET", path, headers=headers, timeout=60)
    if answer is None:
        raise SystemExit(f"no answer for {path}")
    return answer


def _cpu_per_request(
    client: Client, pid: int, path: str, headers: dict[str, str], n: int
) -> tuple[float, int]:
    """Server CPU ms per request over ``n`` requests one after another, and the last status."""
    status = 0
    before = tree_cpu_seconds(pid)
    for _ in range(n):
        status = _get(client, path, headers).status
    return round((tree_cpu_seconds(pid) - before) * 1000 / n, 2), status


def _serve(code: Path, env: dict[str, str], work: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    python = code / ".venv" / "bin" / "python"
    log = (work / f"gunicorn-{port}.log").open("ab")
    proc = subprocess.Popen(
        [
            str(python),
            "-m",
            "gunicorn",
            "-c",
            str(code / "gunicorn.conf.py"),  # the checkout's own (the repository's root)
            "--bind",
            f"127.0.0.1:{port}",
            "spinner.wsgi",
        ],
        cwd=code,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    _wait_port(port)
    return proc, port


def _stop(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, 15)
    proc.wait(timeout=20)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    code = Path(args.code).resolve()
    work = Path(tempfile.mkdtemp(prefix="pages-"))
    redis_port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""],
        stdout=(work / "redis.log").open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    _wait_port(redis_port)
    env = dict(
        os.environ,
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        SPINNER_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SPINNER_SECURE_SSL_REDIRECT="0",
        SPINNER_QUEUE=f"spinner-pages-{args.slug}",
        PYTHONUNBUFFERED="1",
    )
    env.pop("DATABASE_REPLICA_URL", None)
    python = str(code / ".venv" / "bin" / "python")
    subprocess.run(
        [python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=code, env=env, check=True
    )
    team = subprocess.run(
        [
            python,
            "-c",
            "import django,os;os.environ.setdefault('DJANGO_SETTINGS_MODULE','spinner.settings');"
            "django.setup();from tournaments.models import Entry;"
            f"print(Entry.objects.filter(event__slug={args.slug!r}).order_by('pk')[7].pk)",
        ],
        cwd=code,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    report: dict[str, Any] = {
        "code": str(code),
        "commit": subprocess.run(
            ["git", "-C", str(code), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
        ).stdout.strip(),
        "machine": machine(),
        "load_before": os.getloadavg(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "pages": [],
    }
    client = Client("http://127.0.0.1:1", Recorder())
    try:
        for documents in args.documents.split(","):
            proc, port = _serve(code, dict(env, SPINNER_PUBLIC_DOCUMENTS=documents), work)
            client.port = port
            pid = proc.pid
            try:
                # Warm every worker (imports, URL patterns, catalogs) before measuring anything.
                for _ in range(4):
                    for _name, template in pages(args.slug):
                        _get(client, template.format(team=team), {"Accept-Encoding": "br"})
                for name, template in pages(args.slug):
                    if args.only and not any(word in name for word in args.only):
                        continue
                    path = template.format(team=team)
                    row: dict[str, Any] = {"page": name, "path": path, "documents": documents}
                    for encoding, accept in ACCEPT.items():
                        answer = _get(client, path, {"Accept-Encoding": accept})
                        row[f"bytes_{encoding}"] = len(answer.body)
                        row["status"] = answer.status
                    etag = answer.headers.get("etag", "")
                    br = {"Accept-Encoding": ACCEPT["br"]}
                    row["cpu_200_ms"], _ = _cpu_per_request(client, pid, path, br, args.requests)
                    if etag:
                        row["cpu_304_ms"], row["status_304"] = _cpu_per_request(
                            client, pid, path, {**br, "If-None-Match": etag}, args.requests
                        )
                    base = f"http://127.0.0.1:{port}"
                    loop = closed_loop(
                        lambda base=base: Client(base, Recorder()),
                        "page",
                        path,
                        br,
                        args.clients,
                        args.seconds,
                        pid,
                    )
                    static = closed_loop(
                        lambda base=base: Client(base, Recorder()),
                        "static",
                        STATIC,
                        br,
                        args.clients,
                        args.seconds,
                        pid,
                    )
                    row["req_s"] = loop["req_s"]
                    row["static_req_s"] = static["req_s"]
                    row["ratio"] = round(loop["req_s"] / static["req_s"], 2)
                    row["static_cpu_ms"] = static.get("server_cpu_ms")
                    row["loop_cpu_ms"] = loop.get("server_cpu_ms")
                    report["pages"].append(row)
                    print(json.dumps(row), flush=True)
            finally:
                _stop(proc)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(redis.pid, 15)
        redis.wait(timeout=20)
        shutil.rmtree(work, ignore_errors=True)
    report["load_after"] = os.getloadavg()
    return report


def compression(urls: list[str], runs: int = 7) -> list[dict[str, Any]]:
    """Each page's bytes as served (identity) compressed by gzip at 6 (what Django's
    GZipMiddleware does on every response) and brotli at 5 and 11, and the CPU each takes here
    (medians of ``runs``): the price of compressing per request against once per change."""
    import gzip
    import statistics
    import urllib.request

    import brotli

    out = []
    for url in urls:
        with urllib.request.urlopen(url, timeout=60) as response:
            data = response.read()
        row: dict[str, Any] = {"url": url, "bytes": len(data)}
        for name, squeeze in (
            ("gzip6", lambda d: gzip.compress(d, 6, mtime=0)),
            ("br5", lambda d: brotli.compress(d, quality=5)),
            ("br11", lambda d: brotli.compress(d, quality=11)),
        ):
            times = []
            for _ in range(runs if name != "br11" else 3):
                start = time.process_time()
                packed = squeeze(data)
                times.append((time.process_time() - start) * 1000)
            row[f"{name}_bytes"] = len(packed)
            row[f"{name}_ms"] = round(statistics.median(times), 2)
        out.append(row)
        print(json.dumps(row), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("setup")
    p.add_argument("--slug", required=True)
    p.add_argument("--tables", type=int, default=500)
    m = sub.add_parser("measure")
    m.add_argument("--slug", required=True)
    m.add_argument("--code", default=str(ROOT), help="the checkout to serve (with its .venv)")
    m.add_argument("--requests", type=int, default=30, help="requests per CPU figure")
    m.add_argument("--clients", type=int, default=8)
    m.add_argument("--seconds", type=float, default=5)
    m.add_argument(
        "--documents",
        default="0,1",
        help="SPINNER_PUBLIC_DOCUMENTS values to serve with, in turn (main before this: 0)",
    )
    m.add_argument(
        "--only", nargs="*", default=[], help="measure only the pages whose name has one of these"
    )
    m.add_argument("--json", help="write the report here")
    c = sub.add_parser("compress", help="compression sizes and CPU of pages a server serves")
    c.add_argument("urls", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "compress":
        compression(args.urls)
        return 0
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database")
    if args.command == "setup":
        setup(args.slug, args.tables)
        return 0
    report = measure(args)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
