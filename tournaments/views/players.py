"""Public player pages: ``/players/`` (search by name, ignoring accents and case) and
``/players/<id>/`` (every event, partner, match and placing the player's events make public).
A merged player's page moves permanently to the player it was merged into."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournaments.models import Player
from tournaments.presenters import players as presenter
from tournaments.selectors import players as selectors

PER_PAGE = 25


@require_GET
def player_search(request: HttpRequest) -> HttpResponse:
    """``/players/?q=``: players by name (prefix of the name or of a later word)."""
    query = request.GET.get("q", "").strip()[: selectors.MAX_QUERY]
    page = None
    if query:
        found = selectors.search_players(query, request.user)
        page = Paginator(found, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "tournaments/players/search.html", {"query": query, "page": page})


@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """``/players/<id>/``: the player's record across events; 404 when nothing is public."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    if player.merged_into_id is not None:
        survivor = selectors.survivor_of(player)
        return HttpResponsePermanentRedirect(reverse("public:player", args=[survivor.pk]))
    record = selectors.player_record(player, request.user)
    if not record.events:
        raise Http404("No such player.")
    context = presenter.player_page(record)
    return render(request, "tournaments/players/player.html", context)
