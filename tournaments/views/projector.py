"""The projector (``/events/<slug>/projector/``): the standings, the round's pairings and
"where do I sit", turning through the whole field screen by screen with a meta refresh, in a dark
high-contrast theme for a hall's wall at 1920x1080; the round in play's clock large in the bar
(its one script, ``clock.js``, counts the seconds down between two refreshes)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournaments import time_zones
from tournaments.models import Event, Round
from tournaments.permissions import can_see
from tournaments.presenters import projector
from tournaments.selectors import desk, result_privacy
from tournaments.selectors import rounds as round_reads
from tournaments.selectors import standings as standings_reads


def _page(value: str | None) -> int:
    try:
        return int(value or 1)
    except ValueError:
        return 1


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
    available: dict[str, list[Any]] = {}
    standings = None
    if can_see(request.user, event, "standings"):
        standings = standings_reads.latest_standings(event)
        if not event.public_results:
            standings = result_privacy.without_outcomes(standings)
        available["standings"] = standings.rows
    view = None
    if current is not None and can_see(request.user, event, "pairings"):
        view = round_reads.round_view(current)
        available["pairings"] = [*view.matches, *view.byes]
        available["seats"] = projector.seat_list(
            [
                (m.table, [(e.name, list(e.players)) for e in m.entries])
                for m in (*view.matches, *view.byes)
            ]
        )
    screen = projector.screen(
        available, request.GET.get("view", ""), _page(request.GET.get("page"))
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
            "standings": standings,
            "first_rank": (screen.page - 1) * projector.PER_PAGE.get(screen.view, 1),
        },
    )
