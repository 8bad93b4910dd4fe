"""The director's printed cards: the table cards (each table's QR link) and the pairings sheet
of a round. What they show is built by ``tournaments.presenters.cards``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from tournaments import game
from tournaments.models import Event, Match, Round
from tournaments.permissions import director_required, directors_only
from tournaments.presenters import cards
from tournaments.services.table_links import table_link_path


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event"), event=event, number=number)


@never_cache  # the cards carry the tables' links: no cache keeps them
@directors_only  # the cards carry each table's link: staff who only oversee do not get them
def table_cards(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """Print-ready table cards of round ``number``: one per table."""
    round_ = _round(event, number)

    def url_for(match: Match) -> str:
        assert match.table is not None
        return request.build_absolute_uri(table_link_path(round_=round_, table=match.table))

    return render(
        request,
        "tournaments/cards/table_cards.html",
        {
            "event": event,
            "round": round_,
            "cards": cards.table_cards(round_, url_for=url_for),
            "score_unit": game.unit_label(event),
        },
    )


@director_required
def pairings_sheet(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """The printable pairings sheet of round ``number``."""
    round_ = _round(event, number)
    return render(
        request,
        "tournaments/cards/pairings_sheet.html",
        {"event": event, "round": round_, "rows": cards.pairings_rows(round_)},
    )
