"""Credentials never reach a log: table links and API keys are redacted from every log line.

A table link's token (the ``<token>`` of ``/t/<token>/...``) lets anyone enter that table's
results, and an API key (``Authorization: Token <key>``) is a director. Both reach logs in the
ordinary course of things: Django's ``django.request`` warns ``Not Found: /t/<token>/``, the
development server and gunicorn log every request line, and a header can be quoted in an error.

- ``redact(text)`` replaces them with ``[redacted]``;
- ``RedactTokensFilter`` is a ``logging.Filter`` that redacts each record's message (after
  formatting its arguments) and its exception text; ``settings.LOGGING`` puts it on every
  handler, and routes ``django``, ``django.server`` and ``django.security`` through them;
- ``RedactingGunicornLogger`` is gunicorn's logger with the same redaction applied to the access
  log's fields (request line, path, query, headers, referrer); ``gunicorn.conf.py`` at the
  repository root selects it (gunicorn reads that file from its working directory).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sentry_sdk.types import Event, Hint

REDACTED = "[redacted]"

# /t/<token>/ (and /t/<token> at the end of a path or line); t/sw.js is the service worker, not
# a token, and stays readable.
_TABLE_PATH = re.compile(r"(/t/)(?!sw\.js\b)([^/\s?#\"']+)")
# Authorization: Table <token> / Token <key> / Bearer <key> (also as a header repr, e.g.
# 'HTTP_AUTHORIZATION': 'Token abc').
_AUTH_HEADER = re.compile(r"(?i)\b(Table|Token|Bearer)(\s+|%20|\+)([A-Za-z0-9._~+/=-]{8,})")


def redact(text: str) -> str:
    """``text`` with every table token and API key replaced by ``[redacted]``.

    >>> redact("GET /t/12.3.AbC_d-9/status HTTP/1.1")
    'GET /t/[redacted]/status HTTP/1.1'
    >>> redact("Authorization: Token 0123456789abcdef")
    'Authorization: Token [redacted]'
    >>> redact("GET /t/sw.js")
    'GET /t/sw.js'
    """
    if "/t/" in text:
        text = _TABLE_PATH.sub(r"\1" + REDACTED, text)
    return _AUTH_HEADER.sub(r"\1\2" + REDACTED, text)


class RedactTokensFilter(logging.Filter):
    """Redacts table tokens and API keys from a record's message and exception text."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not format: leave it to the handler
            return True
        cleaned = redact(message)
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        # Django's request logs carry the request; a formatter quoting it sees the path only
        # through the message, which is clean now.
        return True


def _redacted_atoms(atoms: dict[str, Any]) -> dict[str, Any]:
    return {key: redact(value) if isinstance(value, str) else value for key, value in atoms.items()}


try:  # gunicorn is a dependency, but the filter above must import without it
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # pragma: no cover
    _GunicornLogger = None


if _GunicornLogger is not None:

    class RedactingGunicornLogger(_GunicornLogger):  # type: ignore[misc]
        """gunicorn's logger, with tokens redacted from the access log and the error log."""

        def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
            return _redacted_atoms(super().atoms(resp, req, environ, request_time))

        def setup(self, cfg: Any) -> None:
            super().setup(cfg)
            for log in (self.error_log, self.access_log):
                for handler in log.handlers:
                    handler.addFilter(RedactTokensFilter())


def scrub_error_report(event: Event, hint: Hint) -> Event:
    """Sentry's ``before_send``: every string of the report (URLs, headers, messages, frames'
    values) with table tokens and API keys redacted, as in the logs."""
    return _scrub(event)  # type: ignore[no-any-return]


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: _scrub(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub(item) for item in value]
    return value
