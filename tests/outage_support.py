"""Outages on the production shape (issue 28): a PostgreSQL of the test's own (initdb into a
temporary folder, on a free port; stopped and started by the test, harming nobody else's) and a
real gunicorn with the repository's ``gunicorn.conf.py`` in production mode on it.

The event is built as the load harness builds it (``benchmarks/load/django_side.py setup``: a
running event, round 1 in play, one token per side of each table), and counted back with its
``verify``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
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

from tests.conftest import ARTIFACTS, ROOT, free_port, missing

PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))


def _as_postgres(argv: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


@dataclass
class OwnPostgres:
    """A PostgreSQL cluster of the test's own, on loopback ``port``."""

    folder: Path
    port: int

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def _ctl(self, *args: str) -> None:
        bin_dir = PG_BIN[-1]
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder}"
        subprocess.run(
            _as_postgres(
                [
                    *(str(bin_dir / "pg_ctl"), "-D", str(self.data), "-o", options),
                    *("-w", "-t", "60", "-l", str(self.folder / "server.log"), *args),
                ]
            ),
            check=True,
            capture_output=True,
        )

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        subprocess.run(
            _as_postgres(
                [str(PG_BIN[-1] / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"]
            ),
            check=True,
            capture_output=True,
        )
        self.start()

    def start(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        """A fast shutdown: open connections are ended, new ones refused until ``start``."""
        self._ctl("-m", "fast", "stop")

    def url(self, name: str = "spinner") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def createdb(self, name: str = "spinner") -> None:
        subprocess.run(
            [
                *(str(PG_BIN[-1] / "createdb"), "-h", "127.0.0.1", "-p", str(self.port)),
                *("-U", "postgres", name),
            ],
            check=True,
            capture_output=True,
        )


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[OwnPostgres]:
    if not PG_BIN or not shutil.which("runuser"):
        missing("needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)")
    folder = Path(tempfile.mkdtemp(prefix="spinner-outage-pg-"))
    cluster = OwnPostgres(folder, free_port())
    try:
        cluster.init()
        cluster.createdb()
        yield cluster
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            cluster._ctl("-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


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


def production_env(database_url: str) -> dict[str, str]:
    """The load harness's server environment: production settings, no Redis (a local cache and
    eager tasks), plain HTTP on loopback."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_REPLICA_URL")}
    env.update(
        DATABASE_URL=database_url,
        SPINNER_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SPINNER_SECURE_SSL_REDIRECT="0",
        SPINNER_METRICS_TOKEN=secrets.token_urlsafe(20),
        PYTHONUNBUFFERED="1",
    )
    return env


def start_gunicorn(
    env: dict[str, str], port: int, log: Path, *options: str
) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                *(sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")),
                *("--bind", f"127.0.0.1:{port}", *options, "spinner.wsgi:application"),
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_until_up(url: str, deadline: float = 90) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        with contextlib.suppress(OSError), urllib.request.urlopen(url + "/healthz", timeout=2):
            return
        time.sleep(0.1)
    pytest.fail(f"gunicorn did not answer at {url} within {deadline}s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


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
