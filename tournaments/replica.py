"""Reading public pages from a PostgreSQL streaming replica (``DATABASE_REPLICA_URL``).

Who reads where:

* A public page read (a ``GET`` or ``HEAD`` routed to the ``public`` namespace: standings, round
  pairings and results, bracket, teams, players, leagues) reads from the ``replica`` alias, while
  the replica is no more than ``SPINNER_REPLICA_MAX_LAG_SECONDS`` behind (measured at most once a
  second per process); otherwise from the primary.
* Everything else reads and writes the primary (``default``): the director's pages, the table's
  phone, the API, the workers. They must read their own writes (a claim, then its confirmation;
  a round generated, then reviewed), which a replica a few milliseconds behind would not show.
* Every write goes to the primary, even of a row read from the replica (Django would otherwise
  send it back where it came from).

Without ``DATABASE_REPLICA_URL`` there is no ``replica`` alias and everything uses ``default``.
Migrations run on the primary only (a replica is read-only; it copies the primary's schema).
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse

REPLICA = "replica"
"""The replica's database alias (``spinner/settings.py`` adds it from ``DATABASE_REPLICA_URL``)."""

_reads_from_replica: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "spinner_reads_from_replica", default=False
)


def has_replica() -> bool:
    return REPLICA in settings.DATABASES


@contextmanager
def replica_reads() -> Iterator[None]:
    """Within the block, the ORM's reads go to the replica (when there is one)."""
    token = _reads_from_replica.set(True)
    try:
        yield
    finally:
        _reads_from_replica.reset(token)


class ReplicaRouter:
    """Django's database router (``DATABASE_ROUTERS``): see the module doc."""

    def db_for_read(self, model: type, **hints: Any) -> str:
        return REPLICA if _reads_from_replica.get() and has_replica() else "default"

    def db_for_write(self, model: type, **hints: Any) -> str:
        return "default"

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # the replica is a copy of the primary: the same rows

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db != REPLICA


# --- The replica's lag ---------------------------------------------------------------------

LAG_SQL = (
    "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
    "ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END"
)
"""Seconds the replica's replay is behind: 0 when it has replayed all it received."""

_measured: dict[str, float] = {}
_measured_lock = threading.Lock()


def replica_lag() -> float | None:
    """The replica's lag in seconds, None when it cannot be asked (down, or not a standby)."""
    try:
        # closed again when it was opened here (a health check's thread keeps no connection)
        with connections[REPLICA].temporary_connection() as cursor:
            cursor.execute(LAG_SQL)
            row = cursor.fetchone()
    except DatabaseError:
        return None
    return None if row is None or row[0] is None else float(row[0])


def replica_usable(now: float | None = None) -> bool:
    """Is the replica up and close enough behind? Measured at most once a second per process
    (a public page read costs no extra query most of the time)."""
    if not has_replica():
        return False
    now = time.monotonic() if now is None else now
    with _measured_lock:
        if now - _measured.get("at", -10.0) >= 1.0:
            lag = replica_lag()
            _measured["at"] = now
            _measured["lag"] = float("inf") if lag is None else lag
        lag = _measured["lag"]
    return lag <= float(getattr(settings, "SPINNER_REPLICA_MAX_LAG_SECONDS", 5.0))


class ReplicaReadsMiddleware:
    """Public page reads from the replica (see the module doc); after the URL is resolved."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        token = getattr(request, "_spinner_replica_token", None)
        if token is not None:
            _reads_from_replica.reset(token)
        return response

    def process_view(self, request: HttpRequest, *args: Any) -> None:
        match = request.resolver_match
        if (
            request.method in ("GET", "HEAD")
            and match is not None
            and match.namespaces[:1] == ["public"]
            and getattr(settings, "SPINNER_REPLICA_READS", True)
            and replica_usable()
        ):
            request._spinner_replica_token = _reads_from_replica.set(True)  # type: ignore[attr-defined]
