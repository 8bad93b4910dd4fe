"""The players' check-in page (``/events/<slug>/check-in/``, the QR code on the event's poster):
find your entry by name, type your code, checked in.

Thin: the window and the search are ``selectors.check_in``'s, the check-in (throttled, audited,
nothing but check-in) is ``services.self_check_in.check_in_self``. Works without JavaScript;
with htmx the search answers as you type.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import rate_limit, time_zones
from tournaments.errors import NotFound, SpinnerError
from tournaments.models import Event
from tournaments.selectors import check_in as check_in_reads
from tournaments.selectors import registration as registration_reads
from tournaments.services import self_check_in

TEMPLATE = "tournaments/check_in/page.html"
MAX_QUERY = 80


def _event(request: HttpRequest, slug: str) -> Event:
    try:
        event = registration_reads.get_visible_event(slug=slug, user=request.user)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    time_zones.activate_for(event)
    return event


def _int(value: str | None) -> int | None:
    try:
        return int(value or "")
    except ValueError:
        return None


def _context(event: Event, state: str) -> dict[str, Any]:
    return {
        "event": event,
        "state": state,
        "query": "",
        "found": [],
        "searched": False,
        "entry": None,
        "code": "",
        "error": None,
        "done": None,
        "min_query": check_in_reads.MIN_QUERY,
    }


@require_http_methods(["GET", "POST"])
def check_in_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the search (``?q=``) or one entry's code form (``?entry=<id>``); POST: check in."""
    event = _event(request, slug)
    context = _context(event, check_in_reads.window(event))
    if request.method == "POST":
        return _submit(request, event, context)
    if context["state"] != check_in_reads.OPEN:
        return render(request, TEMPLATE, context)
    entry_id = _int(request.GET.get("entry"))
    if entry_id is not None:
        context["entry"] = check_in_reads.check_in_entry(event, entry_id)
        if context["entry"] is None:
            context["error"] = NotFound(_("No such entry in this event."), code="entry_not_found")
            return render(request, TEMPLATE, context, status=404)
        return render(request, TEMPLATE, context)
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    context["query"] = query
    if query:
        allowed, wait = rate_limit.allow("self_check_in_search", rate_limit.client_address(request))
        if not allowed:
            context["error"] = self_check_in.Throttled(
                _("Too many searches: wait %(seconds)d seconds.") % {"seconds": wait}
            )
            response = render(request, TEMPLATE, context, status=429)
            response["Retry-After"] = str(wait)
            return response
        context["found"] = check_in_reads.find_entries(event, query)
        context["searched"] = True
    return render(request, TEMPLATE, context)


def _submit(request: HttpRequest, event: Event, context: dict[str, Any]) -> HttpResponse:
    entry_id = _int(request.POST.get("entry"))
    code = request.POST.get("code", "")[:40]
    context["code"] = code
    if entry_id is not None:
        context["entry"] = check_in_reads.check_in_entry(event, entry_id)
    try:
        if entry_id is None or context["entry"] is None:
            raise NotFound(_("No such entry in this event."), code="entry_not_found")
        context["done"] = self_check_in.check_in_self(
            event=event,
            entry_id=entry_id,
            code=code,
            address=rate_limit.client_address(request),
        )
    except SpinnerError as exc:
        context["error"] = exc
        context["state"] = check_in_reads.window(event)
        response = render(request, TEMPLATE, context, status=exc.status)
        if isinstance(exc.details, dict) and "retry_after" in exc.details:
            response["Retry-After"] = str(exc.details["retry_after"])
        return response
    return render(request, TEMPLATE, context)
