"""A database briefly out of reach (issue 28): answered ``503`` with ``Retry-After``, not ``500``.

A PostgreSQL restart (0.76 s measured) or failover refuses connections, or ends the ones open,
for a moment; so does SQLite's write lock held past its busy timeout. The request that meets it
changed nothing (its transaction is rolled back, an idempotency key's row with it), so the
honest answer is "try again in a few seconds": the API's error body with code
``service_unavailable`` (``tournaments.api.errors``) and, for pages, a small page that reloads
itself (``tournaments.views.outage``). Both carry ``Retry-After: SPINNER_OUTAGE_RETRY_SECONDS``.

Only errors of reaching the database count: an ``OperationalError`` of a query the server
refused for its own reasons (a deadlock, a statement timeout, a missing table) stays a 500.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.utils import InterfaceError, OperationalError

from tournaments.errors import ErrorCode

# PostgreSQL's SQLSTATEs of a server out of reach: class 08 (connection exception) and these.
UNREACHABLE_STATES = {
    "57P01",  # admin_shutdown: "terminating connection due to administrator command"
    "57P02",  # crash_shutdown
    "57P03",  # cannot_connect_now: "the database system is starting up / shutting down"
    "53300",  # too_many_connections
}
# SQLite's messages of a database it could not reach or lock in time.
SQLITE_UNREACHABLE = ("database is locked", "unable to open database file")


def is_database_outage(exc: BaseException | None) -> bool:
    """True when ``exc`` says the database could not be reached (connect refused, connection
    lost, server shutting down or starting up), so that the same request later may succeed."""
    if isinstance(exc, InterfaceError):
        return True  # "connection already closed": Django's connection to a server gone away
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if type(cause).__module__.startswith("psycopg"):
        # psycopg gives no SQLSTATE when it never reached the server or lost it mid-query
        # ("connection failed: Connection refused", "server closed the connection").
        return state is None or state.startswith("08") or state in UNREACHABLE_STATES
    return any(text in str(exc) for text in SQLITE_UNREACHABLE)


def retry_after_seconds() -> int:
    """The ``Retry-After`` of an outage's answer, in whole seconds (at least 1)."""
    return max(1, int(settings.SPINNER_OUTAGE_RETRY_SECONDS))


def outage_body() -> dict[str, Any]:
    """The API's error body of the 503 (for the API's and the phone's requests)."""
    wait = retry_after_seconds()
    return {
        "code": str(ErrorCode.SERVICE_UNAVAILABLE),
        "message": (
            "The service is briefly unavailable; nothing was changed. Send the same request "
            f"again (with the same Idempotency-Key) in {wait} s."
        ),
        "details": {"retry_after": wait},
    }


def outage_headers() -> dict[str, str]:
    """``Retry-After``, and no cache may keep the answer."""
    return {"Retry-After": str(retry_after_seconds()), "Cache-Control": "no-store"}
