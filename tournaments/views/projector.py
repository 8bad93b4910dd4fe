"""The projector (``/events/<slug>/projector/``): the standings, the round's pairings and
"where do I sit", turning through the whole field screen by screen with a meta refresh, in a dark
high-contrast theme for a hall's wall at 1920x1080; the round in play's clock large in the bar.

Each screen (``?view=<word>&page=<n>``) is kept as a document (``tournaments/documents.py``):
rendered once per change, then served from the cache. So the page says nothing that changes
with the time of day alone: a running clock is rendered as the moment it runs out (its end time
for a browser without JavaScript, "ends 14:35", and the instant for the script, ``clock.js``,
which counts down to it on the browser's clock); a paused or expired clock, or the director's
moves (start, pause, resume, extend, end: ``services/round_clock.py``), change the event's pages
token, so the next request renders the screen again. A screen reads only the rows it shows or
needs to know are there (``projector.Views``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournaments import time_zones
from tournaments.models import Event, Round
from tournaments.permissions import can_see
from tournaments.presenters import bracket as bracket_presenter
from tournaments.presenters import projector
from tournaments.selectors import desk, result_privacy
from tournaments.selectors import rounds as round_reads
from tournaments.selectors import standings as standings_reads


def _page(value: str | None) -> int:
    try:
        return int(value or 1)
    except ValueError:
        return 1


def _podium(request: HttpRequest, event: Event) -> list[Any]:
    """A finished event's podium (the wall shows its champion, not the Swiss standings), for a
    viewer who may see its standings or results; else nothing."""
    if event.status != Event.Status.FINISHED:
        return []
    if not (can_see(request.user, event, "standings") or can_see(request.user, event, "results")):
        return []
    return bracket_presenter.podium(event.placings)


@require_GET
def projector_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    if not can_see(request.user, event):
        raise Http404("No such event.")
    time_zones.activate_for(event)
    rounds = round_reads.list_public_rounds(event)
    in_play = next((r for r in reversed(rounds) if r.status != Round.Status.CLOSED), None)
    closed = next((r for r in reversed(rounds) if r.status == Round.Status.CLOSED), None)
    current = in_play or closed

    @functools.cache
    def standings() -> standings_reads.LiveStandings:
        read = standings_reads.latest_standings(event)
        return read if event.public_results else result_privacy.without_outcomes(read)

    @functools.cache
    def seating() -> round_reads.RoundView:
        assert current is not None
        return round_reads.round_view(current, explained=False)

    def pairings() -> Sequence[Any]:
        return [*seating().matches, *seating().byes]

    def seats() -> Sequence[Any]:
        return projector.seat_list(
            [(m.table, [(e.name, list(e.players)) for e in m.entries]) for m in pairings()]
        )

    readers: dict[str, Callable[[], Sequence[Any]]] = {}
    if can_see(request.user, event, "standings"):
        readers["standings"] = lambda: standings().rows
    if current is not None and can_see(request.user, event, "pairings"):
        readers["pairings"] = pairings
        readers["seats"] = seats
    screen = projector.screen(
        projector.Views(readers), request.GET.get("view", ""), _page(request.GET.get("page"))
    )
    next_url = (
        reverse("public:projector", args=[event.slug])
        + f"?view={screen.next_view}&page={screen.next_page}"
    )
    return render(
        request,
        "tournaments/projector/projector.html",
        {
            "event": event,
            "screen": screen,
            "next_url": next_url,
            "label": projector.round_label(
                in_play.number if in_play else None, closed.number if closed else None
            ),
            "pairings_round": current,
            "clock": desk.round_clock(in_play) if in_play is not None else None,
            "standings": standings() if screen.view == "standings" else None,
            "first_rank": (screen.page - 1) * projector.PER_PAGE.get(screen.view, 1),
            "podium": _podium(request, event),
        },
    )
