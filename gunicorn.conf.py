"""gunicorn's settings, read from the working directory (``gunicorn spinner.wsgi``).

Chosen by measurement (issue 17; ``benchmarks/load/server_config.py``, figures in
``benchmarks/load/RESULTS.md``, "Server configuration"). The command line overrides any of them
(``--workers``, ``--threads``...), and so do the environment variables named below.

Table links and API keys are credentials: the access and error logs go through a logger that
redacts them (``tournaments.log_redaction``).
"""

import os
import sys
import time
from typing import Any

# --- Workers ----------------------------------------------------------------------------------
# Threads, so that a 1 ms request (a static file, a 304, a cached page) does not wait for a
# process busy rendering a 300 ms page: measured on 2 cores, 250 tables, 25 spectators polling the
# round and standings pages, claims arriving (load average 9-14 from other work; medians of 3
# turns), a static file's p50 / p95 / p99 and a claim's p99 were:
#   sync, 3 workers ........................... 5.7 / 481 / 861 ms, claim 1158 ms
#   gthread 2 x 8 ............................. 6.6 /  88 / 327 ms, claim 1847 ms
#   gthread 2 x 8, GIL switch 1 ms (chosen) ... 3.5 /  39 /  73 ms, claim  696 ms
#   gthread 2 x 4, GIL switch 1 ms ............ 3.5 /  38 /  82 ms, claim  461 ms
# Again with the public pages cached (300 tables, 100 spectators, load 2.5-4.7): static p99 sync
# 218 ms, 2 x 8 at 5 ms 117 ms, chosen 76 ms; claims' p99 there did not favour threads.
# gevent was worse than both for writes (confirmations timed out; 50 database connections):
# Spinner's requests spend their time in Python, not waiting. 2 processes: one per core (one
# thread runs Python at a time in a process). 8 threads rather than 4 (equal within the noise
# above): headroom for requests that wait (a Redis outage holds a write in its publish retries).
worker_class = os.environ.get("WEB_WORKER_CLASS", "gthread")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "8"))

# A waiting thread asks for the GIL after this many ms (Python's default: 5). Shorter lets a
# 1 ms request (a static file, a 304) through between the slices of a long page render: it cut
# the static file's p99 from 327 to 73 ms above, at no measurable CPU cost per request.
GIL_SWITCH_MS = float(os.environ.get("SPINNER_GIL_SWITCH_MS", "1"))

# --- Timeouts ---------------------------------------------------------------------------------
# A worker whose main loop has not answered the master for this long is killed and replaced (a
# sync worker: one request running this long; a gthread worker: a stuck process, its requests
# are not timed individually: the balancer's read timeout bounds them). No web request of Spinner
# should come near it: round generation and recomputes run in the Celery worker.
timeout = 30
# On SIGTERM / HUP, requests in flight get this long to finish. Under systemd's TimeoutStopSec
# (30 s in deploy/systemd/spinner-web.service) so that they finish before systemd kills.
graceful_timeout = 25
# Seconds an idle keep-alive connection stays open (gthread; sync workers close every
# connection). Longer than a balancer's reuse of idle upstream connections is not needed; a
# browser polling every 5 s keeps reusing its connection.
keepalive = 5

# --- Worker recycling -------------------------------------------------------------------------
# A worker is replaced after this many requests (plus up to the jitter, so that workers do not
# all restart at once): bounds the memory a long-running process accumulates. A new worker costs
# about 1.3 s of CPU (importing Django and Spinner) and its first requests are slower. With public
# pages served from the cache at about 1 ms each, a worker answers 10,000 requests in 10 s of CPU:
# 10,000 (the first choice) recycled a worker every few seconds under a crowd, a 10 % overhead
# that showed in the load harness (and made its CPU accounting go negative). 200,000: under 1 %.
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "200000"))
max_requests_jitter = max_requests // 10

# --- Queueing ---------------------------------------------------------------------------------
# Connections waiting for a worker to accept them (the kernel caps it at net.core.somaxconn).
backlog = 2048
# Not preloaded: each worker imports the app after the fork, so `kill -HUP` (systemd's reload)
# starts workers on the new code without dropping a connection; the cost is the import above
# per worker start and ~120 MB per worker instead of some copy-on-write sharing. (Preloading
# would make a HUP's workers ready at once, but on the OLD code: a deploy's reload would then
# change nothing.)
preload_app = False

# --- Graceful reload (issue 28) ---------------------------------------------------------------
# On HUP gunicorn starts the new workers and stops the old ones AT ONCE: until a new worker has
# imported the app nobody accepts, and every request waited 7-20 s (benchmarks/load/RESULTS.md,
# "Graceful reload"). The hooks below keep the old workers serving until every new one has
# loaded the app (at most `timeout` s; a new worker that fails to boot is not waited for), then
# let gunicorn stop them as before: the reload costs a moment of twice the workers' memory.
# They lean on gunicorn's Arbiter (manage_workers, WORKERS, reap_workers, worker.tmp: 27.0.1);
# benchmarks/load/reload.py and the load harness's hup fault measure them (no test pins them yet).
RELOAD_WAIT_SECONDS = float(os.environ.get("SPINNER_RELOAD_WAIT_SECONDS", str(timeout)))

# No control socket (gunicorn 25.1+ opens one in $HOME/.gunicorn/ by default, one path for every
# gunicorn the user runs: a second server on the machine takes it over). Signals are the control
# interface: systemd's reload (HUP) and stop (TERM); TTIN / TTOU add or remove a worker.
control_socket_disable = True

# --- Logs -------------------------------------------------------------------------------------
logger_class = "tournaments.log_redaction.RedactingGunicornLogger"


def _warm_up() -> None:
    """What a worker's first request would otherwise do: import the URL patterns, and with them
    every view, DRF and the API (1.1 s of CPU, more than loading the app itself: measured by
    timing a fresh process's first request, benchmarks/load/RESULTS.md "Graceful reload").
    Without this, the old workers were stopped as soon as the new ones had loaded the app, and
    every request then waited for a new worker's first request: 1.5 s on a quiet machine, 13-18 s
    on a busy one."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (reading it imports the URLconf)


def post_worker_init(worker: Any) -> None:
    """Each worker, once the app is loaded: the GIL's switch interval (above), the warm-up
    (`_warm_up`), then tell the master it is ready (its heartbeat file's first touch: see
    `pre_fork`), so that a reload stops the old workers only once the new ones can answer."""
    sys.setswitchinterval(GIL_SWITCH_MS / 1000)
    try:
        _warm_up()
    except Exception:  # the first request would fail the same way, and report it
        worker.log.exception("warm-up failed")
    worker.notify()


def pre_fork(server: Any, worker: Any) -> None:
    """The master, before a worker starts: note its heartbeat file's time, which changes once
    the worker has loaded the app (`post_worker_init`)."""
    worker.spinner_born = worker.tmp.last_update()


def _booted(worker: Any) -> bool:
    try:
        return bool(worker.tmp.last_update() != worker.spinner_born)
    except (OSError, ValueError, AttributeError):
        return True  # its file is closed (it exited): nothing to wait for


def on_reload(server: Any) -> None:
    """The master on HUP, before it starts the new workers: workers older than this are the
    ones to keep serving until the new ones are ready (`when_ready`'s `manage_workers`)."""
    server.spinner_reload_after = server.worker_age


def when_ready(server: Any) -> None:
    """The master, once listening: its `manage_workers` (which stops the oldest workers beyond
    the count) first waits, after a HUP, until every new worker has loaded the app."""
    original = server.manage_workers

    def manage_workers() -> None:
        after = getattr(server, "spinner_reload_after", None)
        if after is not None:
            server.spinner_reload_after = None
            deadline = time.monotonic() + RELOAD_WAIT_SECONDS
            while time.monotonic() < deadline:
                server.reap_workers()  # a new worker that failed to boot leaves WORKERS
                new = [w for w in list(server.WORKERS.values()) if w.age > after]
                if all(_booted(w) for w in new):
                    break
                time.sleep(0.05)
            server.log.info("reload: new workers ready, stopping the old ones")
        original()

    server.manage_workers = manage_workers


def child_exit(server: object, worker: Any) -> None:
    """A worker has exited (recycled, killed): with Prometheus's multiprocess mode, its live
    gauges stop counting (their files of a dead process would otherwise add up for ever)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]
