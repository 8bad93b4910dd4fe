"""The harness's faults, fired once each at a chosen second of the burst, and what each did to
the requests around it.

- ``worker``: kill -9 the Celery worker (the supervisor restarts it).
- ``redis``: stop the harness's Redis for ``--redis-outage`` seconds, then start it again.
- ``gunicorn``: kill -9 one gunicorn worker (the master forks another).
- ``postgres``: restart the harness's own PostgreSQL (``--own-postgres``: a cluster of its own on
  a free port, so that nobody else's database goes down), ``pg_ctl restart -m fast``.
- ``hup``: SIGHUP to the gunicorn master, the graceful reload a deploy sends.
- ``beat``: kill -9 Celery beat and keep it down for ``--beat-outage`` seconds; meanwhile the
  desk's health (``django_side.py health``) is read, to see what the director would be told.

:func:`fault_windows` reports, per fault, the requests that overlapped the fault's window (from
the fault to ``WINDOW_AFTER`` seconds after it ended): their statuses, how many 5xx answers said
``Retry-After``, and the slowest request (a reload that stalls shows here).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

from processes import OwnPostgres

FAULTS = ("worker", "redis", "gunicorn", "postgres", "hup", "beat")
WINDOW_AFTER = 15.0  # seconds after a fault ends that still count as its window


def log(message: str) -> None:
    print(f"[harness {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class Process(Protocol):
    """What the harness's ``Proc`` offers a fault."""

    popen: subprocess.Popen[bytes] | None
    supervise: bool

    def start(self) -> None: ...

    def kill_group(self, sig: int = ...) -> None: ...


def children_of(pid: int) -> list[int]:
    """The direct children of a process (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(entry))
    return out


class Faults:
    """The plan's faults, each in a thread of its own at its second of the burst."""

    def __init__(
        self,
        plan: list[tuple[str, float]],
        *,
        procs: dict[str, Process | None],
        gunicorn_pid: int | None,
        redis_outage: float,
        beat_outage: float,
        postgres: OwnPostgres | None,
        health: Callable[[], dict[str, Any]] | None,
    ) -> None:
        self.plan = sorted(plan, key=lambda p: p[1])
        self.procs = procs
        self.gunicorn_pid = gunicorn_pid
        self.redis_outage, self.beat_outage = redis_outage, beat_outage
        self.postgres, self.health = postgres, health
        self.done: list[dict[str, Any]] = []
        self.threads: list[threading.Thread] = []
        self.t0 = 0.0

    def start(self, t0: float) -> None:
        self.t0 = t0
        for name, at in self.plan:
            thread = threading.Thread(target=self._fire, args=(name, t0 + at), daemon=True)
            thread.start()
            self.threads.append(thread)

    def join(self, deadline: float) -> None:
        for thread in self.threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def _fire(self, name: str, at: float) -> None:
        time.sleep(max(0.0, at - time.monotonic()))
        note: dict[str, Any] = {"fault": name, "at_s": round(at - self.t0, 1)}
        getattr(self, f"_{name}")(note)
        note["until_s"] = round(time.monotonic() - self.t0, 1)
        self.done.append(note)

    def _master(self) -> int:
        gunicorn = self.procs.get("gunicorn")
        master = self.gunicorn_pid or (gunicorn.popen.pid if gunicorn and gunicorn.popen else None)
        assert master is not None, "no gunicorn master to signal"
        return master

    def _worker(self, note: dict[str, Any]) -> None:
        worker = self.procs["worker"]
        assert worker is not None
        note["pid"] = worker.popen.pid if worker.popen else None
        worker.kill_group(signal.SIGKILL)  # the supervisor starts it again
        log(f"fault: kill -9 the Celery worker (pid {note['pid']})")

    def _gunicorn(self, note: dict[str, Any]) -> None:
        workers = children_of(self._master())
        if not workers:
            note["error"] = "no gunicorn worker found"
            return
        victim = random.choice(workers)
        os.kill(victim, signal.SIGKILL)
        note["pid"] = victim
        log(f"fault: kill -9 gunicorn worker {victim} (of {len(workers)})")

    def _redis(self, note: dict[str, Any]) -> None:
        self._down_for(self.procs["redis"], self.redis_outage, note, signal.SIGTERM)
        log(f"fault: Redis was stopped for {self.redis_outage:.0f} s")

    def _postgres(self, note: dict[str, Any]) -> None:
        if self.postgres is None:
            note["error"] = "the postgres fault needs --own-postgres"
            return
        note["seconds"] = round(self.postgres.restart("fast"), 2)
        log(f"fault: PostgreSQL restarted ({note['seconds']} s)")

    def _hup(self, note: dict[str, Any]) -> None:
        master = self._master()
        before = sorted(children_of(master))
        os.kill(master, signal.SIGHUP)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not set(before).isdisjoint(children_of(master)):
            time.sleep(0.1)
        note["seconds"] = round(time.monotonic() - (self.t0 + note["at_s"]), 1)
        note["workers"] = len(before)
        log(f"fault: HUP to gunicorn {master}; its {len(before)} workers replaced")

    def _beat(self, note: dict[str, Any]) -> None:
        beat = self.procs["beat"]
        desk: list[dict[str, Any]] = []
        self._down_for(beat, self.beat_outage, note, signal.SIGKILL, during=desk)
        note["desk"] = desk[-1] if desk else {}
        log(f"fault: beat was down for {self.beat_outage:.0f} s; the desk said {note['desk']}")

    def _down_for(
        self,
        proc: Process | None,
        seconds: float,
        note: dict[str, Any],
        sig: int,
        *,
        during: list[dict[str, Any]] | None = None,
    ) -> None:
        """Stop ``proc`` for ``seconds`` (its supervisor told to leave it down), then start it;
        with ``during``, the desk's health read near the end of the outage goes there."""
        assert proc is not None and proc.popen is not None
        proc.supervise = False
        proc.kill_group(sig)
        proc.popen.wait(timeout=30)
        end = time.monotonic() + seconds
        if during is not None and self.health is not None:
            time.sleep(max(0.0, end - time.monotonic() - 10))
            during.append(self.health())
        time.sleep(max(0.0, end - time.monotonic()))
        proc.start()
        proc.supervise = True
        note["seconds"] = seconds


def read_health(run: Callable[[list[str]], str], argv: list[str]) -> Callable[[], dict[str, Any]]:
    """The desk's health as ``django_side.py health`` prints it (JSON), or the error."""

    def health() -> dict[str, Any]:
        try:
            answer: dict[str, Any] = json.loads(run(argv))
        except Exception as exc:  # a benchmark reports what went wrong, it does not stop
            return {"error": str(exc)[:300]}
        return answer

    return health


def fault_windows(
    samples: list[Any], done: list[dict[str, Any]], t0: float
) -> list[dict[str, Any]]:
    """Per fault fired: the requests that overlapped its window (start to ``WINDOW_AFTER`` s
    after it ended), their statuses, the 5xx answers with and without ``Retry-After``, and the
    slowest of them."""
    rows = []
    for fault in done:
        start = t0 + fault["at_s"]
        end = t0 + fault.get("until_s", fault["at_s"]) + WINDOW_AFTER
        inside = [s for s in samples if s.end >= start and s.end - s.seconds <= end]
        statuses: dict[str, int] = defaultdict(int)
        for s in inside:
            statuses[str(s.status)] += 1
        errors = [s for s in inside if s.status >= 500]
        rows.append(
            {
                "fault": fault["fault"],
                "window_s": round(end - start, 1),
                "requests": len(inside),
                "statuses": dict(sorted(statuses.items())),
                "5xx_with_retry_after": sum(1 for s in errors if s.retry_after),
                "5xx_without_retry_after": sum(1 for s in errors if not s.retry_after),
                "no_answer": statuses.get("0", 0),
                "slowest_s": round(max((s.seconds for s in inside), default=0.0), 2),
                "over_2s": sum(1 for s in inside if s.seconds > 2.0),
            }
        )
    return rows
