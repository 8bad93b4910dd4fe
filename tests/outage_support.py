"""Outages on the production shape (issue 28): a PostgreSQL of the test's own (initdb into a
temporary folder, on a free port; stopped and started by the test, harming nobody else's) and a
real gunicorn with the repository's ``gunicorn.conf.py`` in production mode on it, both started
as the load harness starts them (``benchmarks/load/processes.py``).

The event is built as the load harness builds it (``benchmarks/load/django_side.py setup``: a
running event, round 1 in play, one token per side of each table), and counted back with its
``verify``.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from benchmarks.load.processes import (
    OwnPostgres,
    postgres_bins,
    production_env,
    start_gunicorn,
    stop,
)
from tests.conftest import ARTIFACTS, ROOT, free_port, missing


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[OwnPostgres]:
    if not postgres_bins() or not shutil.which("runuser"):
        missing("needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)")
    cluster = OwnPostgres(Path(tempfile.mkdtemp(prefix="spinner-outage-pg-")), free_port())
    try:
        cluster.create("spinner")
        yield cluster
    finally:
        cluster.destroy()


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Site:
    """A real gunicorn (production settings, ``gunicorn.conf.py``) on the test's PostgreSQL."""

    url: str
    env: dict[str, str]
    event: dict[str, Any]
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Answer:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data is not None else {}
        request = urllib.request.Request(
            self.url + path, data=data, method=method, headers={**sent, **(headers or {})}
        )
        start = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, head, content = response.status, response.headers, response.read()
        except urllib.error.HTTPError as refused:
            status, head, content = refused.code, refused.headers, refused.read()
        return Answer(
            status, {k.lower(): v for k, v in head.items()}, content, time.monotonic() - start
        )

    def django(self, *args: str, timeout: float = 600) -> str:
        """``benchmarks/load/django_side.py`` (or ``manage.py`` with ``manage=True``) on the
        site's database."""
        done = subprocess.run(
            [sys.executable, *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def results(self) -> dict[str, list[int]]:
        """Per match id, [results, current results] as the database holds them."""
        side = str(ROOT / "benchmarks" / "load" / "django_side.py")
        out = self.django(side, "verify", "--slug", self.event["slug"])
        matches: dict[str, list[int]] = json.loads(out)["matches"]
        return matches


def wait_until_up(url: str, deadline: float = 90) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        with contextlib.suppress(OSError), urllib.request.urlopen(url + "/healthz", timeout=2):
            return
        time.sleep(0.1)
    pytest.fail(f"gunicorn did not answer at {url} within {deadline}s")


@pytest.fixture(scope="module")
def site(own_postgres: OwnPostgres) -> Iterator[Site]:
    """The production shape on the test's own PostgreSQL: migrated, static files collected, an
    event of 3 tables in play, gunicorn answering."""
    env = production_env(own_postgres.url())
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    shape = Site(f"http://127.0.0.1:{port}", env, {})
    shape.django("manage.py", "migrate", "--noinput", "-v0")
    shape.django("manage.py", "collectstatic", "--noinput", "-v0")
    out = own_postgres.folder / "event.json"
    side = str(ROOT / "benchmarks" / "load" / "django_side.py")
    shape.django(side, "setup", "--slug", "outage", "--tables", "3", "--out", str(out))
    shape.event = json.loads(out.read_text())
    proc = start_gunicorn(env, port, ARTIFACTS / "outage-gunicorn.log")
    shape.procs.append(proc)
    try:
        wait_until_up(shape.url)
        yield shape
    finally:
        for p in shape.procs:
            stop(p)
