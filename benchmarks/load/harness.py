"""Spinner's reliability and load harness: a room of tables submitting while spectators poll.

Starts (or attaches to) the production shape on this machine: gunicorn (``gunicorn.conf.py``
here), a Celery worker and beat, a Redis of its own on a free port (so that stopping it harms
nobody else), on the PostgreSQL of ``DATABASE_URL``. Builds an event of N tables (partnerships,
round 1 in play) through the project's services (``django_side.py setup``), then runs a burst:
every table submits its claim (a verified simulated scoresheet, ``POST /api/matches/<id>/claims/``
with ``Authorization: Table <token>`` and an ``Idempotency-Key``) and the other side confirms it
(``POST /api/matches/<id>/confirm/`` with ``If-Match``), while S spectators poll the public
standings and round pages and a static file is probed for queueing.

Optional faults, each once at a chosen second of the burst: ``worker`` (kill -9 the Celery worker;
the harness restarts it, as a supervisor would: it restarts any of its processes that exit),
``redis`` (stop Redis for ``--redis-outage`` seconds, then start it again), ``gunicorn`` (kill -9
one gunicorn worker; the master forks another).

The deployment with the tables on processes of their own (``docs/deploy.md``): ``--write-workers
N`` starts a second gunicorn for the claims and confirmations (``--write-threads`` its threads),
and ``--balancer nginx`` puts nginx in front with ``deploy/nginx/spinner.conf`` as committed,
routing every request of the run by path.

Then it VERIFIES, polling with a deadline: every match has exactly one result and it is current,
and the standings the server serves equal a fresh recompute. It reports throughput (req/s by
request type), latency p50/p95/p99, result-to-public latency (confirmation answered -> both
entries' progress shows the round in the served standings), and a capacity phase: each public page
and the static file under the same closed-loop clients, as ratios to the static file, with the
machine's load average. Exit status 0 when the verification passes, 1 when it fails.

The client is the standard library's ``http.client`` in threads, on loopback only, bounded in
count and time (``--max-seconds``: it stops by itself).

Run from the repository root (a database of its own; it is migrated, events are added)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner_load \\
        .venv/bin/python benchmarks/load/harness.py --tables 100 --spectators 50 \\
        --fault worker --fault redis --fault gunicorn

See README.md for every flag and for attaching to processes you run yourself.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import random
import resource
import runpy
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from faults import FAULTS, Faults, OwnPostgres, children_of, fault_windows, read_health
from processes import gunicorn_argv

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PY = sys.executable
STATIC_PATH = "/static/spinner/spinner.css"
PAGE_NAMES = ("standings", "live", "round")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


# --- Processes ---------------------------------------------------------------------------------


@dataclass
class Proc:
    """A child process the harness owns; with ``supervise``, restarted whenever it exits."""

    name: str
    argv: list[str]
    env: dict[str, str]
    logfile: Path
    supervise: bool = True
    popen: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    exits: list[int] = field(default_factory=list)

    def start(self) -> None:
        with self.logfile.open("ab") as out:
            self.popen = subprocess.Popen(
                self.argv,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: a fault kills the whole unit
            )

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def kill_group(self, sig: int = signal.SIGKILL) -> None:
        if self.popen is not None and self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)

    def stop(self, timeout: float = 15) -> None:
        self.supervise = False
        if self.popen is None or self.popen.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGTERM)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill_group()
            self.popen.wait()


class Supervisor:
    """Restarts supervised processes that exit (as systemd's ``Restart=always`` would)."""

    def __init__(self) -> None:
        self.procs: list[Proc] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="supervisor", daemon=True)

    def add(self, proc: Proc) -> Proc:
        proc.start()
        self.procs.append(proc)
        return proc

    def begin(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            for proc in self.procs:
                if proc.supervise and proc.popen is not None and proc.popen.poll() is not None:
                    proc.exits.append(proc.popen.returncode)
                    proc.restarts += 1
                    log(f"supervisor: {proc.name} exited ({proc.popen.returncode}); restarting")
                    proc.start()

    def stop_all(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        for proc in reversed(self.procs):
            proc.stop()


@dataclass
class Sample:
    kind: str
    status: int  # 0: no answer (connection refused, reset, timeout)
    seconds: float
    end: float  # time.monotonic() when it ended
    retry_after: bool = False  # the answer said when to try again


class Recorder:
    def __init__(self) -> None:
        self.samples: list[Sample] = []
        self._lock = threading.Lock()

    def add(self, sample: Sample) -> None:
        with self._lock:
            self.samples.append(sample)

    def snapshot(self) -> list[Sample]:
        with self._lock:
            return list(self.samples)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class Client:
    """One request per connection (gunicorn's sync workers close it anyway), loopback only."""

    def __init__(self, base_url: str, recorder: Recorder) -> None:
        parts = urlsplit(base_url)
        if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit("the harness drives loopback only (--base-url on 127.0.0.1)")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.recorder = recorder

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        body: Any = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Answer | None:
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        start = time.perf_counter()
        try:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
            try:
                conn.request(method, path, body=data, headers=headers)
                response = conn.getresponse()
                payload = response.read()
                answer = Answer(
                    response.status, {k.lower(): v for k, v in response.getheaders()}, payload
                )
            finally:
                conn.close()
        except (OSError, http.client.HTTPException):
            self.recorder.add(Sample(kind, 0, time.perf_counter() - start, time.monotonic()))
            return None
        self.recorder.add(
            Sample(
                kind,
                answer.status,
                time.perf_counter() - start,
                time.monotonic(),
                "retry-after" in answer.headers,
            )
        )
        return answer


# --- The burst ---------------------------------------------------------------------------------


@dataclass
class TableOutcome:
    match: int
    confirmed_at: float | None = None  # monotonic, when the confirmation's answer arrived
    errors: list[str] = field(default_factory=list)


def play_table(
    client: Client, row: dict[str, Any], start_at: float, deadline: float
) -> TableOutcome:
    """One table: side 0 claims with its sheet (its own link), side 1 confirms (its own link);
    each retried with the same Idempotency-Key while the server does not answer, answers 5xx or
    throttles (429)."""
    outcome = TableOutcome(row["match"])
    delay = start_at - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    auths = [{"Authorization": f"Table {token}"} for token in row["tokens"]]
    match = row["match"]

    def send(kind: str, path: str, body: dict[str, Any], extra: dict[str, str]) -> Answer | None:
        key = uuid.uuid4().hex
        pause = 0.25
        auth = auths[body["side"]]
        while time.monotonic() < deadline:
            answer = client.request(
                kind, "POST", path, body=body, headers={**auth, **extra, "Idempotency-Key": key}
            )
            if answer is not None and answer.status < 500 and answer.status != 429:
                return answer
            if answer is not None and "retry-after" in answer.headers:
                pause = max(pause, float(answer.headers.get("retry-after", "1") or 1))
            time.sleep(pause + random.random() * pause)
            pause = min(pause * 2, 4.0)
        outcome.errors.append(f"{kind}: no answer before the deadline")
        return None

    claim = send("claim", f"/api/matches/{match}/claims/", {"side": 0, "sheet": row["sheet"]}, {})
    if claim is None:
        return outcome
    if claim.status not in (200, 201):
        outcome.errors.append(f"claim {claim.status}: {claim.body[:200]!r}")
        return outcome
    confirm = send(
        "confirm",
        f"/api/matches/{match}/confirm/",
        {"side": 1},
        {"If-Match": claim.headers.get("etag", '"1"')},
    )
    if confirm is None:
        return outcome
    if confirm.status in (200, 201):
        outcome.confirmed_at = time.monotonic()
        return outcome
    # Refused: perhaps an earlier attempt landed; the match says what happened.
    state = client.request("match", "GET", f"/api/matches/{match}/", headers=auths[1])
    if state is not None and state.status == 200 and json.loads(state.body)["state"] == "confirmed":
        outcome.confirmed_at = time.monotonic()
    else:
        outcome.errors.append(f"confirm {confirm.status}: {confirm.body[:200]!r}")
    return outcome


def calibrate(client: Client, rows: list[dict[str, Any]], server_pid: int | None) -> dict[str, Any]:
    """Play ``rows`` one at a time, nothing else running: the server's CPU (ms) per claim and
    per confirmation (gunicorn's processes' CPU time around each request), and the latency."""
    cpu: dict[str, list[float]] = defaultdict(list)
    wall: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        etag = '"1"'
        for kind, path, body in (
            ("claim", f"/api/matches/{row['match']}/claims/", {"side": 0, "sheet": row["sheet"]}),
            ("confirm", f"/api/matches/{row['match']}/confirm/", {"side": 1}),
        ):
            auth = {"Authorization": f"Table {row['tokens'][body['side']]}"}
            headers = {**auth, "Idempotency-Key": uuid.uuid4().hex}
            if kind == "confirm":
                headers["If-Match"] = etag
            before = tree_cpu_seconds(server_pid) if server_pid else 0.0
            start = time.perf_counter()
            answer = client.request(
                f"{kind} (calibration)", "POST", path, body=body, headers=headers
            )
            wall[kind].append((time.perf_counter() - start) * 1000)
            if server_pid:
                cpu[kind].append((tree_cpu_seconds(server_pid) - before) * 1000)
            if answer is None or answer.status not in (200, 201):
                raise SystemExit(
                    f"calibration {kind} failed: {answer.status if answer else 'no answer'} "
                    f"{answer.body[:300] if answer else b''!r}"
                )
            etag = answer.headers.get("etag", etag)
    return {
        "tables": len(rows),
        **{f"{k}_cpu_ms_median": round(pct(v, 50), 1) for k, v in cpu.items()},
        **{f"{k}_ms_median": round(pct(v, 50), 1) for k, v in wall.items()},
    }


def spectator(
    client: Client, paths: list[tuple[str, str]], interval: float, stop: threading.Event
) -> None:
    """A browser left open on the public pages: reloads one every ``interval`` s (jittered),
    revalidating with the ETag it last got."""
    etags: dict[str, str] = {}
    rng = random.Random()
    stop.wait(rng.random() * interval)
    while not stop.is_set():
        kind, path = rng.choice(paths)
        headers = {**BROWSER, "If-None-Match": etags[path]} if path in etags else BROWSER
        answer = client.request(kind, "GET", path, headers=headers, timeout=30)
        if answer is not None and "etag" in answer.headers:
            etags[path] = answer.headers["etag"]
        stop.wait(interval * (0.5 + rng.random()))


def static_probe(client: Client, stop: threading.Event, every: float = 0.2) -> None:
    while not stop.is_set():
        client.request("static (during burst)", "GET", STATIC_PATH, timeout=30)
        stop.wait(every)


class Watcher:
    """Polls the served standings (the document the public pages show) and notes when each
    entry's progress first shows a round: a result has reached the public page."""

    def __init__(self, client: Client, slug: str) -> None:
        self.client = client
        self.path = f"/api/events/{slug}/standings/"
        self.first_seen: dict[int, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="watcher", daemon=True)

    def _run(self) -> None:
        etag = ""
        while not self.stop.is_set():
            headers = {"If-None-Match": etag} if etag else {}
            answer = self.client.request(
                "standings api (watcher)", "GET", self.path, headers=headers
            )
            now = time.monotonic()
            if answer is not None and answer.status == 200:
                etag = answer.headers.get("etag", "")
                snapshot = json.loads(answer.body).get("snapshot") or {}
                for entry_id, extra in (snapshot.get("extra") or {}).items():
                    if extra.get("progress") and int(entry_id) not in self.first_seen:
                        self.first_seen[int(entry_id)] = now
            self.stop.wait(0.25)


# --- Setup and verification --------------------------------------------------------------------


def run(argv: list[str], env: dict[str, str], timeout: float) -> str:
    done = subprocess.run(
        argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(argv[:4])} failed:\n{done.stdout[-2000:]}{done.stderr[-4000:]}"
        )
    return done.stdout


def wait_http(client: Client, path: str, deadline: float, ok: Callable[[Answer], bool]) -> None:
    while time.monotonic() < deadline:
        answer = client.request("startup", "GET", path, timeout=5)
        if answer is not None and ok(answer):
            return
        time.sleep(0.2)
    raise SystemExit(f"the server did not answer {path} in time")


def verify_once(client: Client, slug: str, env: dict[str, str]) -> dict[str, Any]:
    """One check: the database's results per match, and served standings vs a fresh recompute."""
    truth = json.loads(run([PY, str(HERE / "django_side.py"), "verify", "--slug", slug], env, 120))
    served = client.request("standings api (verify)", "GET", f"/api/events/{slug}/standings/")
    problems = []
    bad = {m: c for m, c in truth["matches"].items() if c != [1, 1]}
    if bad:
        problems.append(
            f"{len(bad)} of {len(truth['matches'])} matches without exactly one current result "
            f"([results, current]): {dict(list(bad.items())[:5])}"
        )
    if served is None or served.status != 200:
        problems.append(f"standings not served: {served.status if served else 'no answer'}")
    else:
        body = json.loads(served.body)
        if body.get("updating"):
            problems.append("the served standings say updating")
        if body.get("snapshot") != truth["fresh"]:
            problems.append(
                f"served standings (generation {body.get('generation')}) differ "
                "from a fresh recompute"
            )
    return {"ok": not problems, "problems": problems, "matches": len(truth["matches"])}


# --- Reporting ---------------------------------------------------------------------------------


def summarise(samples: list[Sample], seconds: float) -> list[dict[str, Any]]:
    groups: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        groups[s.kind].append(s)
    rows = []
    for kind in sorted(groups):
        group = groups[kind]
        ms = [s.seconds * 1000 for s in group]
        statuses: dict[str, int] = defaultdict(int)
        for s in group:
            statuses[str(s.status)] += 1
        rows.append(
            {
                "kind": kind,
                "count": len(group),
                "req_s": round(len(group) / seconds, 2) if seconds else 0,
                "p50_ms": round(pct(ms, 50), 1),
                "p95_ms": round(pct(ms, 95), 1),
                "p99_ms": round(pct(ms, 99), 1),
                "max_ms": round(max(ms), 1),
                "statuses": dict(sorted(statuses.items())),
            }
        )
    return rows


def closed_loop(
    client_factory: Callable[[], Client],
    kind: str,
    path: str,
    headers: dict[str, str],
    clients: int,
    seconds: float,
    server_pid: int | None = None,
) -> dict[str, Any]:
    """``clients`` threads requesting ``path`` one after another for ``seconds``; with
    ``server_pid`` (gunicorn's master), also the server's CPU time per request."""
    cpu_before = tree_cpu_seconds(server_pid) if server_pid else None
    recorder = Recorder()
    stop_at = time.monotonic() + seconds

    def loop() -> None:
        client = client_factory()
        client.recorder = recorder
        while time.monotonic() < stop_at:
            client.request(kind, "GET", path, headers=headers, timeout=30)

    started = time.monotonic()
    threads = [threading.Thread(target=loop, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 40)
    elapsed = time.monotonic() - started
    (row,) = summarise(recorder.snapshot(), elapsed)
    if cpu_before is not None and server_pid and row["count"]:
        used = tree_cpu_seconds(server_pid) - cpu_before
        row["server_cpu_ms"] = round(used * 1000 / row["count"], 2)
        row["server_cores"] = round(used / elapsed, 2)  # the CPU the server got: < nproc = shared
    return row


def client_cpu_seconds() -> float:
    """User and system CPU seconds of this harness (the client's threads)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_cpu_seconds() -> tuple[float, float]:
    """CPU seconds the whole machine spent busy, and that it had (all cores), from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(fields[:8]) - idle) / tick, sum(fields[:8]) / tick


def tree_cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process and its direct children (gunicorn's workers),
    including the children that have exited and been waited for (a worker recycled after
    ``max_requests`` or killed): the process's cutime and cstime."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in [pid, *children_of(pid)]:
        try:
            stat = Path(f"/proc/{p}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        if p == pid:
            total += (int(fields[13]) + int(fields[14])) / tick  # cutime, cstime: exited children
    return total


# Every public page many people read, for the capacity phase ({slug}, {round}, {entry}, {match}
# filled in from the event). The bracket is a play-off's: this room is a Swiss round.
PUBLIC_PAGES = (
    ("event page", "/events/{slug}/"),
    ("standings page", "/events/{slug}/standings/"),
    ("standings live fragment", "/events/{slug}/standings/live/"),
    ("round page", "/events/{slug}/rounds/{round}/"),
    ("projector", "/events/{slug}/projector/"),
    ("team page", "/events/{slug}/teams/{entry}/"),
    ("match page", "/events/{slug}/matches/{match}/"),
)
BROWSER = {"Accept-Encoding": "gzip, br", "Accept-Language": "en"}


def capacity_probes(
    client: Client, slug: str, event: dict[str, Any], pages: tuple[tuple[str, str], ...]
) -> list[tuple[str, str | None, dict[str, str]]]:
    """What the capacity phase requests: the static file first and last, and between them each
    page on a cache hit (fetched twice first: a render fills the cache, the next one hits it)
    and its revalidation (304) when it has an ETag (``None`` for the path when it has none)."""
    first = event["tables"][0]
    fill = {"slug": slug, "round": event["round"], "entry": first["entries"][0]}
    fill["match"] = first["match"]
    probes: list[tuple[str, str | None, dict[str, str]]] = [("static file", STATIC_PATH, BROWSER)]
    for name, template in pages:
        path = template.format(**fill)
        answer = None
        for _ in range(2):
            answer = client.request("warm", "GET", path, headers=BROWSER)
        if answer is None or answer.status != 200:
            log(f"capacity: {name} {path} answered {answer.status if answer else 'nothing'}")
            continue
        probes.append((f"{name} 200", path, BROWSER))
        if "etag" in answer.headers:
            probes.append(
                (f"{name} 304", path, {**BROWSER, "If-None-Match": answer.headers["etag"]})
            )
        else:
            probes.append((f"{name} 304", None, {}))
    probes.append(("static file (again)", STATIC_PATH, BROWSER))
    return probes


PAGE_TARGET_RATIO = 0.5  # issue 17: every public page at least 0.5x the static file (cache hit)
WRITE_TARGET_P99_MS = 250.0  # claim and confirmation p99 while 200 spectators poll
WRITE_TARGET_SPECTATORS = 200
PUBLIC_TARGET_P95_S = 5.0  # result to public page, p95


def targets(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Issue 17's targets against this run's figures: met, missed, or not measured."""
    out: list[dict[str, Any]] = []
    pages = [
        r
        for r in report["capacity"]
        if r["kind"].endswith(" 200") and isinstance(r.get("ratio"), int | float)
    ]
    if pages:
        misses = [f"{r['kind'][:-4]} {r['ratio']}" for r in pages if r["ratio"] < PAGE_TARGET_RATIO]
        worst = min(pages, key=lambda r: r["ratio"])
        out.append(
            {
                "target": f"every public page >= {PAGE_TARGET_RATIO}x the static file (cache hit)",
                "figure": f"lowest {worst['kind'][:-4]} {worst['ratio']}x"
                + (f"; below: {', '.join(misses)}" if misses else ""),
                "met": not misses,
            }
        )
    spectators = report["args"]["spectators"]
    rows = {r["kind"]: r for r in report["burst"]}
    for kind in ("claim", "confirm"):
        row = rows.get(kind)
        if row is None:
            continue
        note = "" if spectators >= WRITE_TARGET_SPECTATORS else f" (only {spectators} spectators)"
        out.append(
            {
                "target": f"{kind} p99 < {WRITE_TARGET_P99_MS:g} ms while "
                f"{WRITE_TARGET_SPECTATORS} spectators poll",
                "figure": f"p99 {row['p99_ms']} ms (p50 {row['p50_ms']} ms, {row['count']} "
                f"requests, {row['statuses']}) with {spectators} spectators{note}",
                "met": row["p99_ms"] < WRITE_TARGET_P99_MS
                and spectators >= WRITE_TARGET_SPECTATORS
                and not row["statuses"].get("0"),
            }
        )
    lat = report["result_to_public"]
    complete = lat["seen"] == report["burst_tables"]
    out.append(
        {
            "target": f"result to public page p95 < {PUBLIC_TARGET_P95_S:g} s",
            "figure": f"p95 {lat['p95_s']} s (p50 {lat['p50_s']} s, max {lat['max_s']} s; "
            f"{lat['seen']} of {report['burst_tables']} results seen)",
            "met": complete and lat["p95_s"] < PUBLIC_TARGET_P95_S,
        }
    )
    return out


def server_overrides(
    args: argparse.Namespace, workers: int | None = None, threads: int | None = None
) -> list[str]:
    """gunicorn options the flags set over the repository's ``gunicorn.conf.py`` (``workers``,
    ``threads``: the tables' server's, instead of ``--gunicorn-workers`` and ``-threads``)."""
    out = []
    workers = workers if workers is not None else args.gunicorn_workers
    threads = threads if threads is not None else args.gunicorn_threads
    if workers is not None:
        out += ["--workers", str(workers)]
    if args.gunicorn_worker_class is not None:
        out += ["--worker-class", args.gunicorn_worker_class]
    if threads is not None:
        out += ["--threads", str(threads)]
    return out


def server_shape(args: argparse.Namespace) -> str:
    """The server as it ran: ``gunicorn.conf.py``'s settings with the flags' overrides."""
    if args.base_url:
        return "attached (--base-url)"
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    workers = args.gunicorn_workers or conf.get("workers", 1)
    klass = args.gunicorn_worker_class or conf.get("worker_class", "sync")
    threads = args.gunicorn_threads or conf.get("threads", 1)
    shape = f"gunicorn {workers} x {klass}/{threads} threads"
    if args.write_workers:
        shape += (
            f"; writes on a second gunicorn {args.write_workers} x {klass}/"
            f"{args.write_threads or threads} threads"
        )
        if args.balancer == "nginx":
            shape += ", nginx in front (deploy/nginx/spinner.conf)"
    return shape


def start_profile(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the server (master and workers) while a thread holds the GIL: where the
    server's CPU goes. Stops after ``seconds`` or at SIGINT; writes collapsed stacks."""
    spy = shutil.which("py-spy") or str(Path(PY).parent / "py-spy")
    if not Path(spy).exists():
        log("--profile needs py-spy (pip install py-spy): no profile")
        return None
    with (out.parent / "py-spy.log").open("ab") as errors:
        return subprocess.Popen(
            [
                *(spy, "record", "--pid", str(pid), "--subprocesses", "--gil", "--nonblocking"),
                *("--rate", "50", "--format", "raw", "--duration", str(max(1, int(seconds)))),
                *("-o", str(out)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )


def stop_profile(spy: subprocess.Popen[bytes] | None, out: Path) -> dict[str, Any]:
    """The profile's summary: the share of samples by view (the first frame in Spinner's views or
    API, or whitenoise for static files) and by function running (self time)."""
    if spy is None:
        return {}
    if spy.poll() is None:
        spy.send_signal(signal.SIGINT)
    try:
        spy.wait(timeout=60)
    except subprocess.TimeoutExpired:
        spy.kill()
        spy.wait()
    if not out.exists():
        return {"error": "py-spy wrote nothing (see py-spy.log)"}
    by_view: dict[str, int] = defaultdict(int)
    by_self: dict[str, int] = defaultdict(int)
    total = 0
    for line in out.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        total += count
        frames = stack.split(";")
        view = "other (gunicorn, middleware, start-up)"
        for frame in frames:
            name, _, where = frame.partition(" (")
            if "tournaments/views/" in where or "tournaments/api/" in where:
                view = f"{where.split('tournaments/', 1)[1].split('.py')[0]}.{name}"
                break
            # Every request passes through these middlewares: a static file stops in
            # whitenoise's, a public page kept as a document in Spinner's (a miss goes on to
            # its view, found deeper in the stack).
            if "whitenoise/" in where and not name.endswith("__call__"):
                view = "static file (whitenoise)"
            elif "tournaments/documents.py" in where and view.startswith("other"):
                view = "public page from the cache (documents)"
        by_view[view] += count
        name, _, where = frames[-1].partition(" (")
        site = where.split("site-packages/", 1)[-1].split("/work/", 1)[-1].rstrip(")")
        by_self[f"{name} ({site.rsplit(':', 1)[0]})"] += count

    def top(counts: dict[str, int], n: int) -> list[list[Any]]:
        ranked = sorted(counts.items(), key=lambda kv: -kv[1])[:n]
        return [[k, round(100 * v / total, 1)] for k, v in ranked]

    return {"samples": total, "by_view_pct": top(by_view, 12), "self_pct": top(by_self, 15)}


FINDINGS = {
    "worker.log": ("Unrecoverable error", "Traceback"),
    "beat.log": ("Traceback",),
    "gunicorn.log": ("Traceback", "WORKER TIMEOUT", "ERROR"),
}


def log_findings(work: Path) -> dict[str, dict[str, int]]:
    """Lines worth a look in the processes' logs, counted (the logs stay with ``--keep``)."""
    out: dict[str, dict[str, int]] = {}
    for name, needles in FINDINGS.items():
        path = work / name
        if not path.exists():
            continue
        text = path.read_text(errors="replace")
        counts = {n: text.count(n) for n in needles if n in text}
        if counts:
            out[name] = counts
    return out


def machine() -> dict[str, Any]:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "memory": mem,
        "python": platform.python_version(),
    }


def render_fault_windows(report: dict[str, Any]) -> list[str]:
    """Each fault and the requests around it (``faults.fault_windows``)."""
    if not report.get("fault_windows"):
        return []
    out = ["", "around each fault (its window: from the fault to 15 s after it ended):"]
    out.append(
        "| fault | took s | requests | statuses | 5xx with / without Retry-After | no answer "
        "| slowest s | over 2 s | desk said |"
    )
    out.append("| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | --- |")
    notes = {n["fault"]: n for n in report["faults"]}
    for w in report["fault_windows"]:
        note = notes.get(w["fault"], {})
        desk = note.get("desk", "")
        out.append(
            f"| {w['fault']} | {note.get('seconds', '')} | {w['requests']} | {w['statuses']} | "
            f"{w['5xx_with_retry_after']} / {w['5xx_without_retry_after']} | {w['no_answer']} | "
            f"{w['slowest_s']} | {w['over_2s']} | {desk} |"
        )
    return out


def render(report: dict[str, Any]) -> str:
    out = []
    a = report["args"]
    out.append(
        f"Spinner load harness: {a['tables']} tables, {a['spectators']} spectators "
        f"(every {a['spectator_interval']} s: {','.join(a['spectator_pages'])}), "
        f"{report['server']}, faults {report['faults'] or 'none'}"
    )
    out.append(f"machine: {report['machine']}; load average {report['loadavg']}")
    out.append("")
    out.append("issue 17's targets:")
    out.append("| target | this run | |")
    out.append("| --- | --- | --- |")
    for t in report["targets"]:
        out.append(f"| {t['target']} | {t['figure']} | {'met' if t['met'] else 'MISSED'} |")
    out.append("")
    out.append(
        f"CPU seconds used in the burst, per process: {report['burst_cpu_seconds']} "
        f"(over {report['burst_seconds']:.1f} s)"
    )
    out.append(
        f"tables confirmed in the burst: {report['result_to_public']['confirmed']} of "
        f"{report['burst_tables']}"
    )
    out.append(
        f"burst: {report['burst_seconds']:.1f} s; restarts: {report['restarts']} "
        f"(exit codes {report['exits']}); log findings: {report['log_findings'] or 'none'}"
    )
    out.append("")
    out.append("| request | count | req/s | p50 ms | p95 ms | p99 ms | max ms | statuses |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in report["burst"]:
        out.append(
            f"| {r['kind']} | {r['count']} | {r['req_s']} | {r['p50_ms']} | {r['p95_ms']} | "
            f"{r['p99_ms']} | {r['max_ms']} | {r['statuses']} |"
        )
    out.extend(render_fault_windows(report))
    cal = report["calibration"]
    out.append("")
    out.append(f"calibration (one table at a time, quiet server): {cal}")
    lat = report["result_to_public"]
    out.append("")
    out.append(
        f"result to public standings: p50 {lat['p50_s']} s, p95 {lat['p95_s']} s, max "
        f"{lat['max_s']} s ({lat['seen']} of {lat['confirmed']} confirmed results seen)"
    )
    if report["capacity"]:
        out.append("")
        out.append(
            f"capacity ({a['capacity_clients']} closed-loop clients, "
            f"{a['capacity_seconds']} s each):"
        )
        out.append(
            "| request | req/s | vs static | server CPU ms/req | server cores | p50 ms | p95 ms "
            "| p99 ms | statuses |"
        )
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
        for r in report["capacity"]:
            out.append(
                f"| {r['kind']} | {r['req_s']} | {r['ratio']} | {r.get('server_cpu_ms', '')} | "
                f"{r.get('server_cores', '')} | "
                f"{r.get('p50_ms', '')} | {r.get('p95_ms', '')} | {r.get('p99_ms', '')} | "
                f"{r['statuses']} |"
            )
    prof = report.get("profile") or {}
    if prof.get("samples"):
        out.append("")
        out.append(
            f"profile of the server during the burst (py-spy, {prof['samples']} samples of a "
            "thread holding the GIL), % of samples:"
        )
        out.append("| by view | % | by function (self) | % |")
        out.append("| --- | ---: | --- | ---: |")
        views, selfs = prof["by_view_pct"], prof["self_pct"]
        for i in range(max(len(views), len(selfs))):
            v_name, v_pct = views[i] if i < len(views) else ("", "")
            f_name, f_pct = selfs[i] if i < len(selfs) else ("", "")
            f_cell = f"`{f_name}`" if f_name else ""
            out.append(f"| {v_name} | {v_pct} | {f_cell} | {f_pct} |")
    elif prof:
        out.append(f"profile: {prof}")
    v = report["verification"]
    out.append("")
    out.append(
        f"verification: {'PASSED' if v['ok'] else 'FAILED'} after {v['seconds']} s "
        f"({v['matches']} matches){'' if v['ok'] else ': ' + '; '.join(v['problems'])}"
    )
    if report["table_errors"]:
        out.append(f"table errors ({len(report['table_errors'])}): {report['table_errors'][:5]}")
    return "\n".join(out)


# --- Main --------------------------------------------------------------------------------------


def parse_fault(text: str) -> tuple[str, float | None]:
    name, _, at = text.partition("@")
    if name not in FAULTS:
        raise argparse.ArgumentTypeError(f"a fault is one of {', '.join(FAULTS)} (@seconds)")
    return name, float(at) if at else None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=20)
    p.add_argument(
        "--calibrate",
        type=int,
        default=5,
        help="tables played one at a time before the burst, for the CPU per claim/confirmation",
    )
    p.add_argument("--spectators", type=int, default=20)
    p.add_argument("--spectator-interval", type=float, default=5.0, help="seconds between reloads")
    p.add_argument(
        "--spectator-pages",
        type=lambda text: [name for name in text.split(",") if name],
        default=list(PAGE_NAMES),
        help="what spectators reload, of standings,live,round (default: all three)",
    )
    p.add_argument("--spread", type=float, default=20.0, help="tables start within these seconds")
    p.add_argument(
        "--writers", type=int, default=16, help="tables playing at the same time, at most"
    )
    p.add_argument(
        "--fault",
        action="append",
        type=parse_fault,
        default=[],
        help="worker|redis|gunicorn[@SECONDS into the burst]; each once",
    )
    p.add_argument("--redis-outage", type=float, default=30.0)
    p.add_argument(
        "--beat-outage",
        type=float,
        default=90.0,
        help="the beat fault keeps beat down this long (past the heartbeat's stale threshold)",
    )
    p.add_argument(
        "--own-postgres",
        action="store_true",
        help="a PostgreSQL of the harness's own on a free port (needed by the postgres fault)",
    )
    p.add_argument(
        "--burst-seconds",
        type=float,
        default=None,
        help="tables still unconfirmed then give up (default: spread + outage + 240)",
    )
    p.add_argument(
        "--converge-seconds",
        type=float,
        default=120.0,
        help="deadline for the verification after the burst",
    )
    p.add_argument("--capacity-seconds", type=float, default=5.0, help="0: no capacity phase")
    p.add_argument("--capacity-clients", type=int, default=8)
    p.add_argument("--max-seconds", type=float, default=900.0, help="the whole run, at most")
    # Default: the repository's gunicorn.conf.py, as production runs it.
    p.add_argument("--gunicorn-workers", type=int, default=None)
    p.add_argument("--gunicorn-worker-class", default=None)
    p.add_argument("--gunicorn-threads", type=int, default=None)
    p.add_argument(
        "--write-workers",
        type=int,
        default=0,
        help="claims and confirmations on a second gunicorn of this many processes (0: one server)",
    )
    p.add_argument("--write-threads", type=int, default=None, help="the tables' server's threads")
    p.add_argument(
        "--balancer",
        choices=["none", "nginx"],
        default="none",
        help="with --write-workers: nginx in front (deploy/nginx/spinner.conf) routes by path",
    )
    p.add_argument("--celery-concurrency", type=int, default=2)
    p.add_argument(
        "--reconcile-seconds",
        type=float,
        default=10.0,
        help="the beat's reconcile interval (SPINNER_RECONCILE_SECONDS)",
    )
    p.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    # A streaming replica of that database for the public pages (empty: none). Not taken from
    # the environment: a DATABASE_REPLICA_URL there names another database's replica.
    p.add_argument("--replica-url", default="")
    p.add_argument("--redis-url", default="", help="attach to this Redis (no redis fault)")
    p.add_argument("--base-url", default="", help="attach to this server (no gunicorn started)")
    p.add_argument("--gunicorn-pid", type=int, default=None, help="its master, for the fault")
    p.add_argument("--no-celery", action="store_true", help="the worker and beat run elsewhere")
    p.add_argument("--no-migrate", action="store_true")
    p.add_argument("--slug", default="", help="default: load-<time>-<random>")
    p.add_argument("--json", type=Path, default=None, help="write the report here too")
    p.add_argument("--keep", action="store_true", help="keep the work folder (logs)")
    p.add_argument(
        "--profile",
        action="store_true",
        help="sample the server with py-spy during the burst: CPU by view and by function",
    )
    p.add_argument("--work-dir", type=Path, default=None, help="the work folder (default: a temp)")
    args = p.parse_args(argv)
    if not args.database_url.startswith("postgres") and not args.own_postgres:
        p.error("needs PostgreSQL: DATABASE_URL, --database-url postgres://... or --own-postgres")
    if not 0 <= args.calibrate < args.tables:
        p.error("--calibrate: fewer than --tables")
    if not args.spectator_pages or set(args.spectator_pages) - set(PAGE_NAMES):
        p.error(f"--spectator-pages: a comma-separated list of {', '.join(PAGE_NAMES)}")
    names = [name for name, _ in args.fault]
    if len(names) != len(set(names)):
        p.error("each fault at most once")
    if "redis" in names and args.redis_url:
        p.error("the redis fault needs the harness's own Redis (no --redis-url)")
    if "worker" in names and args.no_celery:
        p.error("the worker fault needs the harness's own worker (no --no-celery)")
    if args.balancer != "none" and not args.write_workers:
        p.error("--balancer routes to the two servers of --write-workers")
    if "gunicorn" in names and args.base_url and not args.gunicorn_pid:
        p.error("the gunicorn fault on an attached server needs --gunicorn-pid")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    hard_deadline = time.monotonic() + args.max_seconds
    if args.work_dir:
        shutil.rmtree(args.work_dir, ignore_errors=True)
        args.work_dir.mkdir(parents=True)
        work = args.work_dir
    else:
        work = Path(tempfile.mkdtemp(prefix="spinner-load-"))
    slug = args.slug or f"load-{time.strftime('%Y%m%d%H%M%S')}-{secrets.token_hex(3)}"
    supervisor = Supervisor()
    loadavg: dict[str, list[float]] = {"start": [round(x, 2) for x in os.getloadavg()]}
    ok = False
    own_postgres = None
    try:
        if args.own_postgres:  # our own, so that the restart harms nobody else
            own_postgres = OwnPostgres(work / "postgres", free_port())
            own_postgres.create()
            args.database_url = own_postgres.url()
            log(f"PostgreSQL of our own on port {own_postgres.port}")
        # Redis: our own, so that the outage harms nobody else.
        redis_proc = None
        redis_url = args.redis_url
        if not redis_url:
            if not shutil.which("redis-server"):
                raise SystemExit("needs redis-server (apt-get install redis-server) or --redis-url")
            port = free_port()
            (work / "redis").mkdir()
            redis_proc = supervisor.add(
                Proc(
                    "redis",
                    [
                        "redis-server",
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "yes",
                        "--dir",
                        str(work / "redis"),
                    ],
                    dict(os.environ),
                    work / "redis.log",
                )
            )
            redis_url = f"redis://127.0.0.1:{port}/0"
        env = dict(
            os.environ,
            DATABASE_URL=args.database_url,
            DATABASE_REPLICA_URL=args.replica_url,
            REDIS_URL=redis_url,
            SPINNER_QUEUE=os.environ.get("SPINNER_QUEUE") or f"spinner-load-{slug}",
            SPINNER_ENV="production",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SPINNER_SECURE_SSL_REDIRECT="0",
            SPINNER_RECONCILE_SECONDS=str(args.reconcile_seconds),
            PYTHONUNBUFFERED="1",
        )
        if redis_proc is not None:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                with (
                    contextlib.suppress(OSError),
                    socket.create_connection(
                        ("127.0.0.1", int(redis_url.rsplit(":", 1)[1].split("/")[0])), timeout=1
                    ),
                ):
                    break
                time.sleep(0.1)
        if not args.no_migrate:
            log("migrate")
            run([PY, "manage.py", "migrate", "--noinput", "-v0"], env, 600)
        log("collectstatic")
        run([PY, "manage.py", "collectstatic", "--noinput", "-v0"], env, 300)
        log(f"setup: event {slug}, {args.tables} tables")
        setup_file = work / "event.json"
        run(
            [
                PY,
                str(HERE / "django_side.py"),
                "setup",
                "--slug",
                slug,
                "--tables",
                str(args.tables),
                "--out",
                str(setup_file),
            ],
            env,
            1800,
        )
        event = json.loads(setup_file.read_text())
        tables: list[dict[str, Any]] = event["tables"]

        gunicorn_proc = None
        base_url = args.base_url
        if not base_url:
            port = free_port()
            base_url = f"http://127.0.0.1:{port}"
            gunicorn_proc = supervisor.add(
                Proc(
                    "gunicorn",
                    gunicorn_argv(port, server_overrides(args)),
                    env,
                    work / "gunicorn.log",
                )
            )
        # Writes on their own processes (``--write-workers``): the table phones' requests go to a
        # second gunicorn, as deploy/nginx/spinner.conf routes them by path (docs/deploy.md), so
        # that a claim never waits for the GIL behind a page render.
        write_proc = None
        write_url = base_url
        if args.write_workers and not args.base_url:
            port = free_port()
            write_url = f"http://127.0.0.1:{port}"
            write_proc = supervisor.add(
                Proc(
                    "gunicorn (writes)",
                    gunicorn_argv(
                        port,
                        server_overrides(
                            args, workers=args.write_workers, threads=args.write_threads
                        ),
                    ),
                    env,
                    work / "gunicorn-writes.log",
                )
            )
        # A balancer in front (``--balancer nginx``): deploy/nginx/spinner.conf as it is, its
        # two upstreams pointed at the two servers; every request of the run then goes through it.
        if args.balancer == "nginx" and write_proc is not None:
            port = free_port()
            conf = (ROOT / "deploy" / "nginx" / "spinner.conf").read_text()
            conf = (
                conf.replace("listen 80;", f"listen 127.0.0.1:{port};")
                .replace("127.0.0.1:8000", base_url.removeprefix("http://"))
                .replace("127.0.0.1:8001", write_url.removeprefix("http://"))
            )
            (work / "nginx-site.conf").write_text(conf)
            temp = work / "nginx-temp"
            temp.mkdir()
            (work / "nginx.conf").write_text(
                ("user root;\n" if os.geteuid() == 0 else "")
                + f"worker_processes 1;\npid {work}/nginx.pid;\n"
                f"error_log {work}/nginx-error.log warn;\n"
                "events { worker_connections 4096; }\n"
                "http {\n  access_log off;\n"
                + "".join(
                    f"  {kind}_temp_path {temp}/{kind};\n"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
                )
                + f"  include {work}/nginx-site.conf;\n}}\n"
            )
            supervisor.add(
                Proc(
                    "nginx",
                    ["nginx", "-p", str(work), "-c", str(work / "nginx.conf"), "-g", "daemon off;"],
                    env,
                    work / "nginx.log",
                )
            )
            base_url = write_url = f"http://127.0.0.1:{port}"
        worker_proc = beat_proc = None
        if not args.no_celery:
            worker_proc = supervisor.add(
                Proc(
                    "worker",
                    [
                        PY,
                        "-m",
                        "celery",
                        "-A",
                        "spinner",
                        "worker",
                        "--loglevel",
                        "INFO",
                        "--concurrency",
                        str(args.celery_concurrency),
                        "-Q",
                        env["SPINNER_QUEUE"],
                        "-n",
                        f"load-{slug}@%h",
                        "--without-gossip",
                        "--without-mingle",
                    ],
                    env,
                    work / "worker.log",
                )
            )
            beat_proc = supervisor.add(
                Proc(
                    "beat",
                    [
                        PY,
                        "-m",
                        "celery",
                        "-A",
                        "spinner",
                        "beat",
                        "--loglevel",
                        "INFO",
                        "-s",
                        str(work / "celerybeat-schedule"),
                    ],
                    env,
                    work / "beat.log",
                )
            )
        supervisor.begin()
        recorder = Recorder()
        client = Client(base_url, recorder)
        writes = Client(write_url, recorder)
        wait_http(client, STATIC_PATH, time.monotonic() + 60, lambda a: a.status == 200)
        wait_http(writes, STATIC_PATH, time.monotonic() + 60, lambda a: a.status == 200)
        wait_http(
            client, f"/events/{slug}/standings/", time.monotonic() + 60, lambda a: a.status == 200
        )
        recorder.samples.clear()

        # Calibration: the first tables one at a time on a quiet server, the server's CPU per
        # claim and per confirmation measured around each request.
        server_pid = args.gunicorn_pid or (
            gunicorn_proc.popen.pid if gunicorn_proc and gunicorn_proc.popen else None
        )
        write_pid = write_proc.popen.pid if write_proc and write_proc.popen else server_pid
        calibration = calibrate(writes, tables[: args.calibrate], write_pid)
        tables = tables[args.calibrate :]
        recorder.samples.clear()

        # The burst.
        plan: list[tuple[str, float]] = []
        for i, (name, at) in enumerate(args.fault):
            plan.append(
                (name, at if at is not None else args.spread * (i + 1) / (len(args.fault) + 1))
            )
        faults = Faults(
            plan,
            procs={
                "worker": worker_proc,
                "beat": beat_proc,
                "redis": redis_proc,
                "gunicorn": gunicorn_proc,
            },
            gunicorn_pid=args.gunicorn_pid,
            redis_outage=args.redis_outage,
            beat_outage=args.beat_outage,
            postgres=own_postgres,
            health=read_health(
                lambda argv: run(argv, env, 60), [PY, str(HERE / "django_side.py"), "health"]
            ),
        )
        pages = [
            ("standings page", f"/events/{slug}/standings/"),
            ("standings live fragment", f"/events/{slug}/standings/live/"),
            ("round page", f"/events/{slug}/rounds/{event['round']}/"),
        ]
        watched = [pages[PAGE_NAMES.index(name)] for name in args.spectator_pages]
        stop_spectators = threading.Event()
        watcher = Watcher(client, slug)
        log(
            f"burst: {len(tables)} tables over {args.spread} s, {args.spectators} spectators, "
            f"faults {plan or 'none'}"
        )
        t0 = time.monotonic()
        cpu0 = {p.name: tree_cpu_seconds(p.popen.pid) for p in supervisor.procs if p.popen}
        client0, machine0 = client_cpu_seconds(), machine_cpu_seconds()
        outages = args.redis_outage + (args.beat_outage if "beat" in dict(plan) else 0)
        wanted = t0 + (args.burst_seconds or args.spread + max(outages, 0) + 240)
        burst_deadline = min(hard_deadline - 30, wanted)
        if burst_deadline < t0 + args.spread + (args.redis_outage if "redis" in dict(plan) else 0):
            log(
                f"warning: --max-seconds leaves the burst only {burst_deadline - t0:.0f} s "
                "(the setup was slow): tables may give up before the faults are over"
            )
        background = [
            threading.Thread(
                target=spectator,
                args=(client, watched, args.spectator_interval, stop_spectators),
                daemon=True,
            )
            for _ in range(args.spectators)
        ]
        background.append(
            threading.Thread(target=static_probe, args=(client, stop_spectators), daemon=True)
        )
        for t in background:
            t.start()
        watcher.thread.start()
        faults.start(t0)
        profile_out = work / "profile.txt"
        spy = (
            start_profile(server_pid, burst_deadline - t0, profile_out)
            if args.profile and server_pid
            else None
        )
        rng = random.Random(slug)
        starts = sorted(t0 + rng.random() * args.spread for _ in tables)
        with ThreadPoolExecutor(max_workers=args.writers) as pool:
            outcomes = list(
                pool.map(
                    lambda rs: play_table(writes, rs[0], rs[1], burst_deadline),
                    zip(tables, starts, strict=True),
                )
            )
        faults.join(burst_deadline)
        burst_end = time.monotonic()
        profile = stop_profile(spy, profile_out)
        # CPU seconds each process (with its direct children) used in the burst; a process
        # restarted or faulted meanwhile lost its count (it is left out).
        burst_cpu = {
            p.name: round(tree_cpu_seconds(p.popen.pid) - cpu0[p.name], 1)
            for p in supervisor.procs
            if p.popen
            and p.name in cpu0
            and p.restarts == 0
            and p.name not in {name for name, _ in plan}
        }
        # The rest of the machine's 2 cores: this harness's own client threads, and what every
        # process used (PostgreSQL, Redis and anything else running), out of what there was.
        burst_cpu["client (this harness)"] = round(client_cpu_seconds() - client0, 1)
        busy, there = (b - a for a, b in zip(machine0, machine_cpu_seconds(), strict=True))
        burst_cpu["machine, all processes"] = round(busy, 1)
        burst_cpu["machine, available"] = round(there, 1)
        loadavg["end of burst"] = [round(x, 2) for x in os.getloadavg()]
        stop_spectators.set()
        for t in background:
            t.join(timeout=35)
        cutoff = time.monotonic()  # the spectators' last answers are in; the verification's not
        burst_samples = [s for s in recorder.snapshot() if s.end <= cutoff]
        log(f"burst done in {burst_end - t0:.1f} s; verifying")

        # Verification, polling until it passes or the deadline.
        v_start = time.monotonic()
        v_deadline = min(hard_deadline - 5, v_start + args.converge_seconds)
        while True:
            verdict = verify_once(client, slug, env)
            if verdict["ok"] or time.monotonic() > v_deadline:
                break
            time.sleep(1.0)
        verdict["seconds"] = round(time.monotonic() - v_start, 1)
        # Let the watcher see the final standings, then stop it.
        confirmed = [o for o in outcomes if o.confirmed_at is not None]
        entries_of = {row["match"]: row["entries"] for row in tables}

        def all_seen() -> bool:
            return all(all(e in watcher.first_seen for e in entries_of[o.match]) for o in confirmed)

        seen_deadline = time.monotonic() + 10
        while not all_seen() and time.monotonic() < seen_deadline:
            time.sleep(0.25)
        watcher.stop.set()
        watcher.thread.join(timeout=35)
        to_public = []
        for o in confirmed:
            seen = [watcher.first_seen.get(e) for e in entries_of[o.match]]
            if all(s is not None for s in seen):
                to_public.append(max(0.0, max(s for s in seen if s is not None) - o.confirmed_at))

        # Capacity: the static file, then every public page on a cache hit (each fetched once
        # first: the cache is warm) and its 304, then the static file again; same clients, one
        # after another. Ratios are to the mean of the two static probes.
        capacity: list[dict[str, Any]] = []
        probes = capacity_probes(client, slug, event, PUBLIC_PAGES)
        if (
            args.capacity_seconds > 0
            and time.monotonic() + (len(probes) + 4) * args.capacity_seconds < hard_deadline
        ):
            log(f"capacity phase: {len(probes)} probes")
            for name, path, headers in probes:
                if path is None:  # no ETag: nothing to revalidate
                    capacity.append({"kind": name, "req_s": 0, "ratio": "no ETag", "statuses": {}})
                    continue
                capacity.append(
                    closed_loop(
                        lambda: Client(base_url, Recorder()),
                        name,
                        path,
                        headers,
                        args.capacity_clients,
                        args.capacity_seconds,
                        server_pid,
                    )
                )
            statics = [row for row in capacity if row["kind"].startswith("static file")]
            static_rate = sum(row["req_s"] for row in statics) / len(statics) or 1
            for row in capacity:
                if row.get("ratio") != "no ETag":
                    row["ratio"] = round(row["req_s"] / static_rate, 3)
        loadavg["end"] = [round(x, 2) for x in os.getloadavg()]

        report = {
            "args": {
                k: (str(v) if isinstance(v, Path) else v)
                for k, v in vars(args).items()
                if k not in ("database_url",)
            },
            "slug": slug,
            "server": server_shape(args),
            "machine": machine(),
            "loadavg": loadavg,
            "faults": faults.done,
            "restarts": {p.name: p.restarts for p in supervisor.procs},
            "exits": {p.name: p.exits for p in supervisor.procs},
            "log_findings": log_findings(work),
            "burst_seconds": burst_end - t0,
            "burst_tables": len(tables),
            "burst_cpu_seconds": burst_cpu,
            "burst": summarise(burst_samples, burst_end - t0),
            "fault_windows": fault_windows(burst_samples, faults.done, t0),
            "result_to_public": {
                "confirmed": len(confirmed),
                "seen": len(to_public),
                "p50_s": round(pct(to_public, 50), 2),
                "p95_s": round(pct(to_public, 95), 2),
                "max_s": round(max(to_public), 2) if to_public else 0,
            },
            "capacity": capacity,
            "calibration": calibration,
            "profile": profile,
            "verification": verdict,
            "table_errors": [f"match {o.match}: {e}" for o in outcomes for e in o.errors],
        }
        report["targets"] = targets(report)
        ok = bool(verdict["ok"]) and len(confirmed) == len(tables)
        if len(confirmed) != len(tables):
            verdict["ok"] = False
            verdict["problems"].append(f"{len(tables) - len(confirmed)} tables not confirmed")
        print(render(report), flush=True)
        if args.json:
            args.json.write_text(json.dumps(report, indent=2))
    finally:
        supervisor.stop_all()
        if own_postgres is not None:
            own_postgres.destroy()
        if ok and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            log(f"logs kept in {work}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
