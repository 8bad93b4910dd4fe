"""The Celery app of ``worker.py``'s workers: Spinner's own app (``spinner.celery``, its settings,
tasks and worker hooks), plus a record of each task's CPU in the pool process that ran it.

``worker.py`` starts ``celery -A bench_worker worker`` with this directory on ``PYTHONPATH`` and
the checkout under test first, so ``spinner`` is that checkout's. Around every task
(``task_prerun`` / ``task_postrun``, in the pool process) it notes the process CPU time, the wall
time, the minor page faults and the system time, and pushes them to a Redis list
(``BENCH_CPU_KEY``) for ``worker.py`` to read. With ``BENCH_PROFILE`` set (a path prefix), a
pool process's first recompute is profiled too (cProfile, process CPU), to ``<prefix>.<pid>``.
Nothing else differs from ``celery -A spinner``.
"""

from __future__ import annotations

import json
import os
import resource
import time
from typing import Any

import redis
from celery.signals import task_postrun, task_prerun

from spinner.celery import app

__all__ = ["app"]

_started: dict[str, tuple[float, float, Any]] = {}
_done_in_this_process = 0
_recomputes_in_this_process = 0
RECOMPUTE = "tournaments.recompute_event_standings"
_kept: list[Any] = [None]
_client = redis.Redis.from_url(os.environ["REDIS_URL"])


_profile: list[Any] = []


@task_prerun.connect
def _before(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    first = _recomputes_in_this_process == 0 and getattr(task, "name", "") == RECOMPUTE
    if os.environ.get("BENCH_PROFILE") and first:  # the first recompute's profile
        import cProfile

        _profile.append(cProfile.Profile(time.process_time))
        _profile[-1].enable()
    import sys

    records = sys.modules.get("tournaments.selectors.standings_records")
    _kept[0] = sorted(records._recent) if records is not None else None
    _started[str(task_id)] = (
        time.process_time(),
        time.perf_counter(),
        resource.getrusage(resource.RUSAGE_SELF),
    )


@task_postrun.connect
def _after(task_id: str | None = None, task: Any = None, retval: Any = None, **_: Any) -> None:
    global _done_in_this_process, _recomputes_in_this_process
    cpu, wall, usage = _started.pop(str(task_id))
    now = resource.getrusage(resource.RUSAGE_SELF)
    if _profile:
        _profile[-1].disable()
        _profile.pop().dump_stats(f"{os.environ['BENCH_PROFILE']}.{os.getpid()}")
    record = {
        "pid": os.getpid(),
        "task": getattr(task, "name", ""),
        "status": retval if isinstance(retval, str) else repr(retval),
        "nth_in_process": _done_in_this_process,
        "nth_recompute_in_process": _recomputes_in_this_process,
        "hostname": getattr(getattr(task, "request", None), "hostname", None),
        "cpu_ms": (time.process_time() - cpu) * 1000,
        "wall_ms": (time.perf_counter() - wall) * 1000,
        "sys_ms": (now.ru_stime - usage.ru_stime) * 1000,
        "minor_faults": now.ru_minflt - usage.ru_minflt,
        "kept_before": _kept[0],
    }
    _done_in_this_process += 1
    if record["task"] == RECOMPUTE:
        _recomputes_in_this_process += 1
    _client.rpush(os.environ["BENCH_CPU_KEY"], json.dumps(record))
