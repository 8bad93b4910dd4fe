"""The help pages, one per audience, in the reader's language: the player at the table
(``/help/table/``) and the director (``/help/director/``). Short and about what Spinner does;
linked from the pages where the question comes up (the phone page, the check-in page, the
director's event page, the round review page)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.selectors.registration import tiebreaks_in_a_sentence
from tournaments.standings import DEFAULT_TIEBREAKS


@require_GET
def table_help(request: HttpRequest) -> HttpResponse:
    """``/help/table/``: for players: checking in, finding the table, the phone's scoresheet,
    submitting and confirming, the clock."""
    return render(request, "tournaments/help/table.html")


@require_GET
def director_help(request: HttpRequest) -> HttpResponse:
    """``/help/director/``: for directors: an event day from check-in to the final placings;
    the formats' default tiebreaks as the standings define them (``DEFAULT_TIEBREAKS``)."""
    defaults = {f: tiebreaks_in_a_sentence(names) for f, names in DEFAULT_TIEBREAKS.items()}
    return render(
        request,
        "tournaments/help/director.html",
        {"swiss_tiebreaks": defaults["swiss"], "round_robin_tiebreaks": defaults["round_robin"]},
    )
