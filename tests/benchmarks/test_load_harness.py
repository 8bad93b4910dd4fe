"""The reliability harness (benchmarks/load/harness.py) in small: 20 tables, each fault once.

The production shape on real services: gunicorn, a Celery worker and beat, a Redis of the
harness's own (so that stopping it for the outage harms no other program), PostgreSQL. The harness
runs in a database of its own, made from ``DATABASE_URL`` and dropped afterwards. It kills the
worker (restarting it as a supervisor would), stops Redis for 30 s and kills a gunicorn worker
during the burst, then verifies, polling with a deadline, that every match has exactly one current
result and the served standings equal a fresh recompute. About 100 s on a quiet 2-core machine;
the bounds are generous for a busy one (the setup alone took 70 s at a load average of 15).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ARTIFACTS, ROOT, missing

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


SMALL_RUN = [
    "--tables", "20", "--spectators", "10", "--spread", "10",
    "--fault", "worker@2", "--fault", "redis@4", "--fault", "gunicorn@8", "--redis-outage", "30",
    "--reconcile-seconds", "5", "--converge-seconds", "60",
    "--capacity-seconds", "1", "--max-seconds", "280",
]  # fmt: skip


def _database_url() -> tuple[str, str]:
    """The harness's own database: ``<DATABASE_URL's name>_load_harness`` on the same server."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        missing("needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/spinner")
    base, _, name = url.rpartition("/")
    name = f"{name.split('?')[0]}_load_harness"
    return f"{base}/{name}", name


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url.rpartition("/")[0] + "/postgres", autocommit=True) as conn:
        conn.execute(sql)


def test_the_harness_survives_each_fault_and_verifies(tmp_path: Path) -> None:
    if not shutil.which("redis-server"):
        missing("needs redis-server (the harness starts its own on a free port)")
    url, name = _database_url()
    _admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(url, f'CREATE DATABASE "{name}"')
    report_file = tmp_path / "report.json"
    try:
        done = subprocess.run(
            [
                sys.executable,
                "benchmarks/load/harness.py",
                "--database-url",
                url,
                *SMALL_RUN,
                "--json",
                str(report_file),
                "--work-dir",
                str(ARTIFACTS / "load-harness"),  # its processes' logs, kept when it fails
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    finally:
        _admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report: dict[str, Any] = json.loads(report_file.read_text())
    assert report["verification"]["ok"] is True, report["verification"]
    assert report["verification"]["matches"] == 20
    burst = 20 - report["calibration"]["tables"]
    assert report["result_to_public"]["confirmed"] == burst, report["table_errors"]
    assert report["result_to_public"]["seen"] == burst
    assert sorted(f["fault"] for f in report["faults"]) == ["gunicorn", "redis", "worker"]
    assert all("error" not in f for f in report["faults"]), report["faults"]
    assert report["restarts"]["worker"] >= 1  # the supervisor brought the killed worker back
    kinds = {row["kind"]: row for row in report["burst"]}
    assert kinds["claim"]["statuses"].get("201", 0) >= burst
    assert kinds["confirm"]["statuses"].get("201", 0) >= burst
    static = next(row for row in report["capacity"] if row["kind"] == "static file")
    assert static["statuses"].get("200", 0) > 0
