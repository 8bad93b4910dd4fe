"""The production shape's processes on this machine, started one way for everyone: a PostgreSQL
cluster of one's own, gunicorn with the repository's ``gunicorn.conf.py`` in production mode, and
the environment it runs in.

Used by the load harness (``harness.py``, ``faults.py``), ``reload.py`` and the outage tests
(``tests/outage_support.py``, which imports it as ``benchmarks.load.processes``; the scripts here
import it as ``processes``, their folder being on ``sys.path``). The standard library only: no
Django, no pytest.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def postgres_bins() -> list[Path]:
    """PostgreSQL's server binaries folders (``/usr/lib/postgresql/<version>/bin``), oldest
    first; empty when none is installed."""
    found = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    return sorted(found, key=lambda p: int(p.parent.name))


class OwnPostgres:
    """A PostgreSQL cluster of one's own (initdb into ``folder``, loopback ``port``, trust), so
    that stopping or restarting it harms no other program. As root, the server runs as the
    ``postgres`` user (``runuser``), as Debian's does."""

    def __init__(self, folder: Path, port: int) -> None:
        bins = postgres_bins()
        if not bins:
            raise RuntimeError("needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)")
        self.bin = bins[-1]
        self.folder, self.port = folder, port
        self.data = folder / "data"
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def url(self, name: str = "spinner") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, *argv: str, timeout: float = 120) -> None:
        subprocess.run([*self.as_user, *argv], check=True, capture_output=True, timeout=timeout)

    def create(self, database: str | None = "spinner") -> None:
        """initdb, the server's settings (durability off: a test's data), start, and create
        ``database`` (None: none)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.as_user:
            shutil.chown(self.folder, "postgres", "postgres")
            # the postgres user must pass through the folder it is in (a mkdtemp's is 0700)
            parent = self.folder.parent
            parent.chmod(parent.stat().st_mode | 0o011)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.folder}'\nmax_connections = 200\n"
                "fsync = off\nsynchronous_commit = off\n"
            )
        self.start()
        if database is not None:
            self.createdb(database)

    def pg_ctl(self, action: str, *extra: str) -> float:
        """Run ``pg_ctl ACTION`` and wait for it (60 s at most); the seconds it took."""
        start = time.monotonic()
        log_file = str(self.folder / "server.log")
        self._run(
            *(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", log_file),
            *("-w", "-t", "60", action, *extra),
        )
        return time.monotonic() - start

    def start(self) -> None:
        self.pg_ctl("start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: open connections are ended, new ones refused until :meth:`start`."""
        self.pg_ctl("stop", "-m", mode)

    def restart(self, mode: str = "fast") -> float:
        """Stop and start again; the seconds it took."""
        return self.pg_ctl("restart", "-m", mode)

    def createdb(self, name: str = "spinner") -> None:
        self._run(
            *(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port)),
            *("-U", "postgres", name),
        )

    def destroy(self) -> None:
        """Stop it (immediately) and remove its folder."""
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.CalledProcessError):
                self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


def production_env(
    database_url: str | None = None, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The server's environment: ``base`` (this process's by default) without Redis or a
    replica (a local cache and eager tasks unless the caller sets ``REDIS_URL``), production
    settings (DEBUG off, manifest static files), plain HTTP on loopback, a metrics token."""
    env = dict(os.environ if base is None else base)
    for name in ("REDIS_URL", "DATABASE_REPLICA_URL"):
        env.pop(name, None)
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    env.update(
        SPINNER_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SPINNER_SECURE_SSL_REDIRECT="0",
        SPINNER_METRICS_TOKEN=secrets.token_urlsafe(20),
        PYTHONUNBUFFERED="1",
    )
    return env


def gunicorn_argv(port: int, options: Sequence[str] = ()) -> list[str]:
    """gunicorn on loopback ``port``: production's ``gunicorn.conf.py``, ``options`` over it."""
    return [
        *(sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")),
        *("--bind", f"127.0.0.1:{port}", *options, "spinner.wsgi:application"),
    ]


def start_gunicorn(
    env: Mapping[str, str], port: int, log: Path, options: Sequence[str] = ()
) -> subprocess.Popen[bytes]:
    """:func:`gunicorn_argv` in a process group of its own (so :func:`stop` ends its workers
    too), from the repository's root, its output appended to ``log``."""
    with log.open("ab") as out:
        return subprocess.Popen(
            gunicorn_argv(port, options),
            cwd=ROOT,
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    """SIGTERM to the process's group, SIGKILL after ``timeout`` s."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
