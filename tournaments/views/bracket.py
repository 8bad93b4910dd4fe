"""The public bracket page (``/events/<slug>/bracket/``): the play-off drawn as inline SVG, live
as results arrive (htmx polls its fragment, answered 304 while nothing changed), legible on a
phone (it scrolls sideways) and on a projector (``?projector=1``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from tournaments import time_zones
from tournaments.models import Event
from tournaments.permissions import can_oversee, can_see
from tournaments.presenters import bracket as presenter
from tournaments.selectors import bracket as bracket_reads
from tournaments.selectors import bracket_page, result_privacy
from tournaments.views.standings import POLL_SECONDS
from tournaments.views.standings import _etag_matches as etag_matches
from tournaments.views.standings import _finish as with_etag
from tournaments.views.standings import _language as language
from tournaments.views.standings import _not_modified as not_modified


def _event(request: HttpRequest, slug: str) -> Event:
    """The event, if this visitor may see its pairings and it has a play-off (else 404)."""
    event = get_object_or_404(Event, slug=slug)
    if not can_see(request.user, event, "pairings") or event.playoff == Event.Playoff.NONE:
        raise Http404("No such bracket.")
    time_zones.activate_for(event)
    return event


def _tag(request: HttpRequest, event: Event, part: str, show_results: bool) -> str:
    projector = "p" if request.GET.get("projector") == "1" else "n"
    who = request.user.pk if request.user.is_authenticated and part == "page" else 0
    results = "r" if show_results else "h"
    version = bracket_page.bracket_version(event)
    return f'"bracket-{version}-{part}-{projector}{results}-{who}-{language()}"'


def _context(request: HttpRequest, event: Event, show_results: bool) -> dict[str, Any]:
    projector = request.GET.get("projector") == "1"
    drawing = None
    problem = ""
    try:
        view = bracket_reads.bracket_view(event)
    except ValueError:  # a corrected result left a later match between other entries
        view, problem = None, gettext("The bracket is being corrected by the director.")
    if view is not None:
        drawing = presenter.drawing(
            view,
            bracket_page.entry_names(event),
            event=event,
            show_results=show_results,
            match_url=lambda pk: reverse("public:match", args=[event.slug, pk]),
        )
    live_url = reverse("public:bracket-live", args=[event.slug])
    return {
        "event": event,
        "drawing": drawing,
        "problem": problem,
        "projector": projector,
        "show_results": show_results,
        "poll_seconds": POLL_SECONDS,
        "live_url": live_url + ("?projector=1" if projector else ""),
    }


@require_GET
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """``/events/<slug>/bracket/``: the whole play-off, refreshed in place."""
    event = _event(request, slug)
    show_results = not result_privacy.hides_outcomes(request.user, event)
    etag = _tag(request, event, "page", show_results)
    if etag_matches(request, etag):
        return not_modified(etag)
    context = _context(request, event, show_results)
    context["is_director"] = can_oversee(request.user, event)
    response = render(request, "tournaments/bracket/bracket.html", context)
    return with_etag(response, etag, vary_cookie=True)


@require_GET
def bracket_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The bracket page's live part (htmx polls it): 304 while nothing changed."""
    event = _event(request, slug)
    show_results = not result_privacy.hides_outcomes(request.user, event)
    etag = _tag(request, event, "live", show_results)
    if etag_matches(request, etag):
        return not_modified(etag)
    context = _context(request, event, show_results)
    response = render(request, "tournaments/bracket/_bracket_live.html", context)
    return with_etag(response, etag, vary_cookie=True)
