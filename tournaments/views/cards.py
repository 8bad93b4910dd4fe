"""The director's printed papers: the table cards (each table's QR link, four to an A4 page), the
pairings sheet, the scoresheets and result slips of a round (the paper fallback of a table whose
phones die), and the event's prize list. What they show is built by
``tournaments.presenters.cards``, ``.scoresheets`` and ``.prize_list``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from tournaments import game
from tournaments.models import Event, Match, Round
from tournaments.permissions import can_direct, director_required, directors_only
from tournaments.presenters import cards, prize_list, scoresheets
from tournaments.services.table_links import table_link_path


def _url_for(request: HttpRequest, round_: Round) -> cards.UrlFor:
    """A side's link made absolute for the request's host (the host the director's laptop
    reached: the phones on the venue's network reach the same one)."""

    def url_for(match: Match, side: int) -> str:
        assert match.table is not None
        return request.build_absolute_uri(
            table_link_path(round_=round_, table=match.table, side=side)
        )

    return url_for


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event"), event=event, number=number)


@never_cache  # the cards carry the tables' links: no cache keeps them
@directors_only  # the cards carry each table's link: staff who only oversee do not get them
def table_cards(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """Print-ready table cards of round ``number``: one per table, four to a printed page."""
    round_ = _round(event, number)
    found = cards.table_cards(round_, url_for=_url_for(request, round_))
    return render(
        request,
        "tournaments/cards/table_cards.html",
        {
            "event": event,
            "round": round_,
            "pages": cards.pages(found),
            "card_count": len(found),
            "score_unit": game.unit_label(event),
        },
    )


@never_cache  # a director's sheet lists the tables' links
@director_required
def pairings_sheet(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """The printable pairings sheet of round ``number``; a director (not staff who only oversee)
    also gets both sides' links of each table (``?links=0`` leaves them off, for a sheet to pin
    on the wall)."""
    round_ = _round(event, number)
    with_links = can_direct(request.user, event) and request.GET.get("links") != "0"
    url_for = _url_for(request, round_) if with_links else None
    return render(
        request,
        "tournaments/cards/pairings_sheet.html",
        {
            "event": event,
            "round": round_,
            "rows": cards.pairings_rows(round_, url_for=url_for),
            "with_links": with_links,
        },
    )


@never_cache  # the sheets carry the tables' links (their QR codes)
@directors_only
def scoresheets_view(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """Print-ready scoresheets and result slips of round ``number``: one A4 page per table
    (``?table=N``: only table N's, for the one table whose phones died)."""
    round_ = _round(event, number)
    wanted = request.GET.get("table", "")
    table = int(wanted) if wanted.isdigit() else None
    sheets = scoresheets.scoresheets(round_, url_for=_url_for(request, round_), table=table)
    return render(
        request,
        "tournaments/cards/scoresheets.html",
        {"event": event, "round": round_, "sheets": sheets, "table": table},
    )


@never_cache  # the placings change with a correction
@director_required
def prize_list_view(request: HttpRequest, *, event: Event) -> HttpResponse:
    """The printable prize list: the final placings with each entry's players and blank columns
    for the prize and a signature."""
    return render(
        request,
        "tournaments/cards/prize_list.html",
        {"event": event, "prizes": prize_list.prize_list(event)},
    )
