"""Structured logs: one JSON object per line, each carrying the request's id.

* ``RequestIdMiddleware`` takes the id a proxy or load balancer sent (``X-Request-ID``, when it
  is a plain token of at most 64 characters) or makes one, keeps it for the request's logs and
  returns it in the response's ``X-Request-ID`` (a player quoting it helps the operator find
  the lines);
* ``RequestIdFilter`` puts it on every record (``-`` outside a request: workers, commands);
* ``JsonFormatter`` writes ``{"time", "level", "logger", "message", "request_id"[, "exc"]}``.
  ``settings.LOGGING`` uses it when ``SPINNER_LOG_FORMAT=json`` (the default in production);
  the redacting filter (``log_redaction``) runs before it, so credentials never reach the JSON.

The standard library only: ``logging`` with a formatter is all a JSON line needs.
"""

from __future__ import annotations

import contextvars
import datetime
import json
import logging
import re
import uuid
from collections.abc import Callable

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("spinner_request_id", default="-")
_ACCEPTED = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
HEADER = "X-Request-ID"


def current_request_id() -> str:
    return _request_id.get()


class RequestIdMiddleware:
    """First in ``MIDDLEWARE``: every later log line of the request carries its id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sent = request.headers.get(HEADER, "")
        request_id = sent if _ACCEPTED.match(sent) else uuid.uuid4().hex
        # Kept until the request is finished (not only while the middleware runs): Django logs
        # a 4xx/5xx response ("Not Found: ...") after the middleware chain has returned.
        _request_id.set(request_id)
        response = self.get_response(request)
        response[HEADER] = request_id
        return response


def _forget_request_id(**kwargs: object) -> None:
    _request_id.set("-")


request_finished.connect(_forget_request_id, dispatch_uid="spinner-forget-request-id")


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record (see the module doc)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": datetime.datetime.fromtimestamp(record.created, tz=datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", _request_id.get()),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["exc"] = record.exc_text
        return json.dumps(out, ensure_ascii=False)
