"""Requests no view should see: text no database stores, JSON nested too deeply.

``UnstorableInputMiddleware`` answers 400 before any view runs when the request's path, a query
parameter, a form field (names and values) or any string of a JSON body (keys and values) holds
a NUL or a lone surrogate (``tournaments.text_safety``), when a JSON body nests deeper than
the API's limit, and when the query has more parameters than ``DATA_UPLOAD_MAX_NUMBER_FIELDS``.
The body is ``{code, message, details}`` (code ``invalid``, ``parse_error`` or
``bad_request``) for JSON callers and API paths, plain text otherwise. It runs as the view is
chosen (``process_view``): a view marked ``checks_its_own_text`` reports such text in its own
words (the CSV import's per-line errors).

A JSON body is one sent as JSON (``Content-Type: ...json``) or one that starts like JSON (the
table's phone posts raw JSON). A body Django would refuse as too large is left to the view (it
answers ``request_too_large``); one that is not JSON at all is left to the view's own parser.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse

from tournaments.text_safety import (
    MAX_DEPTH,
    TOO_DEEP,
    TooDeep,
    any_unstorable,
    find_unstorable,
    is_unstorable,
    json_depth_exceeds,
    may_hold_unstorable,
)

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
UNSTORABLE = "The request holds text that cannot be stored (a NUL or a lone surrogate)."
TOO_MANY_PARAMETERS = "The query has too many parameters."


def _refuse(request: HttpRequest, code: str, message: str, details: dict[str, Any]) -> HttpResponse:
    wants_json = (
        request.path.startswith(("/api/", "/t/"))
        or "json" in (request.content_type or "")
        or "json" in request.headers.get("Accept", "")
    )
    if wants_json:
        return JsonResponse({"code": code, "message": message, "details": details}, status=400)
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def checks_its_own_text(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Mark a view that reports unstorable text itself, better than a bare 400 can (the CSV
    import names each line holding a NUL). Its path and query are still checked."""
    view.checks_its_own_text = True  # type: ignore[attr-defined]
    return view


class UnstorableInputMiddleware:
    """400 for unstorable text and over-deep JSON, before the view and the database."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponse],
        args: Any,
        kwargs: Any,
    ) -> HttpResponse | None:
        if is_unstorable(request.path):
            return _refuse(request, "invalid", UNSTORABLE, {"where": "path"})
        try:
            query = request.GET.lists()
        except TooManyFieldsSent:
            # Django's own answer is an HTML 400; the API's is its error body.
            return _refuse(request, "bad_request", TOO_MANY_PARAMETERS, {"where": "query"})
        for key, values in query:
            if is_unstorable(key) or any_unstorable(values):
                return _refuse(request, "invalid", UNSTORABLE, {"where": f"query {key!r}"})
        if request.method not in WRITE_METHODS:
            return None
        if request.content_type in FORM_TYPES:
            # The API's serializers refuse NUL in their fields and answer form-body errors in
            # the API's own words (413, 400 bad_request): only pages are checked here.
            if request.path.startswith("/api/") or getattr(view, "checks_its_own_text", False):
                return None
            for key, values in request.POST.lists():
                if is_unstorable(key) or any_unstorable(values):
                    return _refuse(request, "invalid", UNSTORABLE, {"where": f"field {key!r}"})
            return None
        return self._check_json(request)

    def _check_json(self, request: HttpRequest) -> HttpResponse | None:
        try:
            body = request.body
        except RequestDataTooBig:
            return None
        declared = "json" in (request.content_type or "")
        if not body or not (declared or body.lstrip()[:1] in (b"{", b"[")):
            return None
        try:
            data = json.loads(body)
        except RecursionError:
            return _refuse(request, "parse_error", TOO_DEEP, {})
        except ValueError:
            return None  # not JSON: the view's parser says so in its own words
        if not may_hold_unstorable(body):  # no string to look at: only the depth (cheaper)
            if json_depth_exceeds(data, MAX_DEPTH):
                return _refuse(request, "parse_error", TOO_DEEP, {})
            return None
        try:
            where = find_unstorable(data)
        except TooDeep:
            return _refuse(request, "parse_error", TOO_DEEP, {})
        if where is not None:
            return _refuse(request, "invalid", UNSTORABLE, {"where": where})
        return None
