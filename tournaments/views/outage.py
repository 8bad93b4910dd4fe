"""The server's error page (``handler500``): a database briefly out of reach is a 503 that says
so and tries again by itself, any other failure Django's own 500 page.

Called by Django for any exception no view or middleware answered (for the API's views, DRF's
handler answers first: ``tournaments.api.errors``), with the exception being handled. The outage
answer touches no database: no session, no user, no context processor. A page asked for as a
document gets ``service_unavailable.html`` in the reader's language (the language cookie, else
Accept-Language), which reloads itself every ``Retry-After`` seconds when it answers a GET; a
request for JSON (the API, the phone's scripts) gets the API's error body.
"""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.views.defaults import server_error as django_server_error

from tournaments import db_outage


def wants_json(request: HttpRequest) -> bool:
    return (
        request.path.startswith("/api/")
        or "json" in request.headers.get("Accept", "")
        or "json" in (request.content_type or "")
    )


def outage_response(request: HttpRequest) -> HttpResponse:
    """503 for a database out of reach: JSON for the API and scripts, else the polling page."""
    headers = db_outage.outage_headers()
    if wants_json(request):
        return JsonResponse(db_outage.outage_body(), status=503, headers=headers)
    language = translation.get_language_from_request(request)
    wait = db_outage.retry_after_seconds()
    with translation.override(language):
        html = render_to_string(
            "service_unavailable.html",
            {
                "LANGUAGE_CODE": translation.get_language(),
                "retry_after": wait,
                "reloads": request.method in ("GET", "HEAD"),
            },
        )
    return HttpResponse(html, status=503, headers=headers)


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """``handler500``: the outage's 503, else Django's 500 page."""
    if db_outage.is_database_outage(sys.exc_info()[1]):
        return outage_response(request)
    return django_server_error(request, template_name=template_name)
