"""The public event pages: the events list and each event's page (what the event makes public).

Contact details are never shown: public entries carry names and clubs only.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import time_zones
from tournaments.errors import NotFound
from tournaments.models import Event
from tournaments.permissions import can_oversee, can_see
from tournaments.presenters import bracket as bracket_presenter
from tournaments.selectors import registration as selectors


def event_list(request: HttpRequest) -> HttpResponse:
    """/events/: listed events, upcoming (and running) then past."""
    upcoming, past = selectors.list_public_events()
    return render(
        request,
        "tournaments/registration/public_events.html",
        {"upcoming": upcoming, "past": past},
    )


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """/events/<slug>/: name, dates, venue (a finished event: its champion and podium first), rules
    in words, salt, entries and rounds."""
    try:
        event = selectors.get_visible_event(slug=slug, user=request.user)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    time_zones.activate_for(event)
    show_entries = can_see(request.user, event, "entries")
    finished = event.status == Event.Status.FINISHED
    show_placings = can_see(request.user, event, "standings") or can_see(
        request.user, event, "results"
    )
    return render(
        request,
        "tournaments/registration/public_event.html",
        {
            "event": event,
            "rules": selectors.describe_rules(event),
            "entries": selectors.list_public_entries(event) if show_entries else None,
            "rounds": selectors.list_visible_rounds(event, request.user),
            "is_director": can_oversee(request.user, event),
            "podium": bracket_presenter.podium(event.placings)
            if finished and show_placings
            else [],
            "show_bracket": event.playoff != Event.Playoff.NONE
            and can_see(request.user, event, "pairings"),
        },
    )
