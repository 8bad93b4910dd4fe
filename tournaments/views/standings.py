"""Live standings pages: the public standings (live, with ETags), its CSV, team and match pages,
and the director's standings page (tiebreak rounds, seeding).

Every public page reads the latest snapshot; none computes standings.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import game, search_keys, time_zones
from tournaments.errors import SpinnerError
from tournaments.models import Entry, Event
from tournaments.permissions import can_oversee, can_see, director_required
from tournaments.presenters import paging
from tournaments.presenters import standings as presenter
from tournaments.presenters import table as table_presenter
from tournaments.selectors import director_standings as director_standings_reads
from tournaments.selectors import (
    matches,
    players,
    result_privacy,
)
from tournaments.selectors import standings as standings_reads
from tournaments.services import playoffs, tiebreak_rounds
from tournaments.services import standings as standings_service
from tournaments.views.errors import show_error

POLL_SECONDS = 5
ROWS_CACHE_SECONDS = 600


def _event(request: HttpRequest, slug: str, page: str) -> Event:
    try:
        event = standings_reads.event_with_state(slug)
    except Event.DoesNotExist:
        raise Http404("No such event.") from None
    if not can_see(request.user, event, page):
        raise Http404("No such event.")
    time_zones.activate_for(event)
    return event


def _etag_matches(request: HttpRequest, etag: str) -> bool:
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    tags = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in tags or etag in tags


def _language() -> str:
    """The reader's language (LocaleMiddleware's choice: the language cookie, else the browser's
    Accept-Language): part of every tag and cache key of a page in words."""
    return get_language() or "en"


def _not_modified(etag: str, *, language: bool = True) -> HttpResponse:
    response = HttpResponseNotModified()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    if language:
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _finish(response: HttpResponse, etag: str, *, vary_cookie: bool) -> HttpResponse:
    response["ETag"] = etag
    # Browsers may keep the page but must ask again each time (a 304 when nothing changed).
    response["Cache-Control"] = "no-cache"
    if vary_cookie:
        # Who is logged in, and the language (its cookie, else Accept-Language), change the page.
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _page_etag(request: HttpRequest, meta: standings_reads.SnapshotMeta, variant: str) -> str:
    # The full page shows who is logged in: its tag says for whom (the rows fragment does not),
    # and in which language.
    who = request.user.pk if request.user.is_authenticated else 0
    return f"{meta.etag[:-1]}-{variant}-{who}-{_language()}{meta.etag[-1]}"


def _rows_key(meta: standings_reads.SnapshotMeta, projector: bool, first: int) -> str:
    # Content-addressed by the snapshot's digest: a cached table is never stale. ``v3``: the
    # value is the slice's table and the number of rows (``first``: the slice, 0 for all rows).
    # The table is in words (column labels, badges): one copy per language.
    variant = "p" if projector else "n"
    return f"live:rows:v3:{meta.event.slug}:{meta.digest}:{variant}:{first}:{_language()}"


class _Slice:
    """The standings with only one slice's rows (presenters/paging.py)."""

    def __init__(
        self, standings: standings_reads.LiveStandings, part: paging.Slice | None, query: str = ""
    ):
        self._standings = standings
        rows = standings.rows
        if query:  # "find my team": every row whose name holds it, accents and case ignored
            key = search_keys.name_key(query)
            rows = [row for row in rows if key in search_keys.name_key(row["name"])]
        self.rows = rows[part.start : part.last] if part is not None else rows

    def __getattr__(self, name: str) -> Any:
        return getattr(self._standings, name)


def _live_context(
    event: Event,
    projector: bool,
    meta: standings_reads.SnapshotMeta | None = None,
    wanted: str | None = None,
    query: str = "",
) -> dict[str, Any]:
    """The live part's context: the status and the rendered table (the slice from ``wanted``,
    ``?from=``, when the standings are longer than a page: ``part``).

    The table is rendered once per snapshot and slice and kept in the (fail-open) cache, so a
    request reads the snapshot's bytes only on a cache miss: two queries on a hit (the event,
    the latest generation), three on a miss.
    """
    if meta is None:
        meta = standings_reads.snapshot_meta(event)
    size = paging.ROWS_PER_PAGE
    first = _first(wanted)
    keep = bool(meta.generation) and not query  # a search is rendered each time
    found = cache.get(_rows_key(meta, projector, first)) if keep else None
    if isinstance(found, tuple):
        html, total = found
        found = total
        part = paging.slice_of(total, wanted, size)
    else:
        data = standings_reads.latest_standings(event)
        meta = data.meta
        if not event.public_results:  # the table is shared by every visitor: no outcomes
            data = result_privacy.without_outcomes(data)
        total = len(data.document.get("standings", {}).get("rows", []))
        part = None if query else paging.slice_of(total, wanted, size)
        shown = _Slice(data, part, query)
        found = len(shown.rows)
        html = render_to_string(
            "tournaments/standings/_standings_table.html",
            {"event": event, "standings": shown, "projector": projector},
        )
        if keep:
            cache.set(_rows_key(meta, projector, first), (html, total), ROWS_CACHE_SECONDS)
    return {
        "event": event,
        "meta": meta,
        "rows_html": str(html),
        "part": part,
        "query": query,
        "found": found,
        "live_query": urlencode(
            [
                *([("projector", "1")] if projector else []),
                *([("from", str(part.first))] if part is not None else []),
                *([("q", query)] if query else []),
            ]
        ),
        "projector": projector,
        "poll_seconds": POLL_SECONDS,
    }


def _first(wanted: str | None) -> int:
    """The slice's first row as the rows cache names it (0: the first slice, or all rows)."""
    try:
        first = int(wanted or 1)
    except ValueError:
        return 0
    size = paging.ROWS_PER_PAGE
    return 0 if first <= size else (first - 1) // size * size + 1


def _variant(request: HttpRequest, projector: bool) -> str:
    """What of the page the request chose, for its tag: projector or not, the slice, a search."""
    query = _query_of(request)
    found = hashlib.sha256(query.encode()).hexdigest()[:8] if query else ""
    return ("p" if projector else "n") + str(_first(request.GET.get("from"))) + found


def _query_of(request: HttpRequest) -> str:
    return request.GET.get("q", "").strip()[:80]


def _query(projector: bool, first: int) -> str:
    return ("projector=1&" if projector else "") + f"from={first}"


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """``/events/<slug>/standings/``: the latest snapshot, refreshed every few seconds in place."""
    event = _event(request, slug, "standings")
    projector = request.GET.get("projector") == "1"
    variant = _variant(request, projector)
    meta = standings_reads.snapshot_meta(event)
    etag = _page_etag(request, meta, variant)
    if _etag_matches(request, etag):
        return _not_modified(etag)
    context = _live_context(event, projector, meta, request.GET.get("from"), _query_of(request))
    part = context["part"]
    if part is not None and request.GET.get("from", str(part.first)) != str(part.first):
        return redirect(f"{request.path}?{_query(projector, part.first)}")
    etag = _page_etag(request, context["meta"], variant)
    context["can_direct"] = can_oversee(request.user, event)
    response = render(request, "tournaments/standings/standings.html", context)
    return _finish(response, etag, vary_cookie=True)


@require_GET
def standings_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The live part of the standings page (htmx polls it): 304 while nothing changed."""
    event = _event(request, slug, "standings")
    projector = request.GET.get("projector") == "1"

    def tag(meta: standings_reads.SnapshotMeta) -> str:
        variant = _variant(request, projector)
        return f"{meta.etag[:-1]}-live-{variant}-{_language()}{meta.etag[-1]}"

    meta = standings_reads.snapshot_meta(event)
    if _etag_matches(request, tag(meta)):
        return _not_modified(tag(meta))
    context = _live_context(event, projector, meta, request.GET.get("from"), _query_of(request))
    response = render(request, "tournaments/standings/_standings_live.html", context)
    # The fragment is the same for everyone who reads it in one language.
    return _finish(response, tag(context["meta"]), vary_cookie=True)


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """``/events/<slug>/standings.csv``: every row with every tiebreak value, exactly."""
    event = _event(request, slug, "standings")

    def tag(meta: standings_reads.SnapshotMeta) -> str:
        return f"{meta.etag[:-1]}-csv{meta.etag[-1]}"

    if request.headers.get("If-None-Match"):
        etag = tag(standings_reads.snapshot_meta(event))
        if _etag_matches(request, etag):
            return _not_modified(etag, language=False)  # the CSV is data: no words
    data = result_privacy.for_viewer(standings_reads.latest_standings(event), request.user, event)
    meta = data.meta
    etag = tag(meta)
    response = HttpResponse(
        presenter.standings_csv(data, event), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{event.slug}-standings-{meta.generation}.csv"'
    )
    return _finish(response, etag, vary_cookie=False)


@require_GET
def team(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """``/events/<slug>/teams/<entry_id>/``: the entry's place, match history and progression."""
    event = _event(request, slug, "standings")
    try:
        entry = matches.event_entry(event, entry_id)
    except Entry.DoesNotExist:
        raise Http404("No such team in this event.") from None
    data = result_privacy.for_viewer(standings_reads.latest_standings(event), request.user, event)
    context = presenter.team_page(
        event,
        entry,
        data,
        history=matches.team_history(event, entry.pk),
        show_results=can_see(request.user, event, "results"),
        show_chart=not result_privacy.hides_outcomes(request.user, event),
    )
    context["players"] = players.team_players(entry.pk, request.user)
    return render(request, "tournaments/standings/team.html", context)


@require_GET
def match(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """``/events/<slug>/matches/<match_id>/``: the match, its confirmed result and its hands."""
    event = _event(request, slug, "results")
    detail = matches.match_detail(event, match_id)
    if detail is None:
        raise Http404("No such match in this event.")
    m = detail["match"]
    if detail["seats"]:  # a table of three or four players: one entity per seat
        names = presenter.many_seat_names(detail["seats"])
        detail["hands"] = presenter.named_hands(
            detail["hands"], names, [s["name"] for s in detail["seats"]]
        )
        return render(request, "tournaments/standings/match.html", {"event": event, **detail})
    seats = table_presenter.seat_records(m)
    detail["hands"] = presenter.named_hands(
        detail["hands"],
        presenter.seat_names(seats, game.seats_per_table(event.entry_kind)),
        [m.entry_a.name, m.entry_b.name if m.entry_b else ""],
    )
    return render(request, "tournaments/standings/match.html", {"event": event, **detail})


def _recompute_now(request: HttpRequest, event: Event) -> None:
    """ "Recompute now": from the confirmed results and the event's settings as they are, at
    once (forced: a settings change counts, not only a new result)."""
    outcome = standings_service.recompute_standings(event_id=event.pk, force=True)
    if outcome.status == "busy":
        standings_service.request_recompute(event_id=event.pk)
        messages.info(request, gettext("A recompute is running: the standings follow shortly."))
    elif outcome.status == "new":
        messages.success(
            request,
            gettext("Standings recomputed: update %(generation)s.")
            % {"generation": outcome.generation},
        )
    else:
        messages.info(request, gettext("Standings recomputed: nothing changed."))


@require_http_methods(["GET", "POST"])
@director_required
def director_standings(request: HttpRequest, event: Event) -> HttpResponse:
    """``/director/events/<slug>/standings/``: unbroken ties at the places that matter, the
    tiebreak round proposed for them (approve it), and seeding the play-off."""
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "propose":
                tiebreak_rounds.start_tiebreak_proposal(event=event, actor=request.user)
                messages.info(
                    request, gettext("Proposing a tiebreak round: it appears here when ready.")
                )
            elif action == "approve":
                round_ = tiebreak_rounds.approve_tiebreak_round(
                    event=event, round_id=int(request.POST.get("round_id", "0")), actor=request.user
                )
                messages.success(
                    request,
                    gettext("Tiebreak round %(n)s published.") % {"n": round_.number},
                )
            elif action == "seed":
                playoffs.start_playoff_seeding(event=event, actor=request.user)
                messages.info(
                    request, gettext("Seeding the play-off bracket from the final standings.")
                )
            elif action == "recompute":
                _recompute_now(request, event)
            else:
                messages.error(request, gettext("Unknown action."))
        except SpinnerError as exc:
            show_error(request, exc)
        return redirect("director:standings", slug=event.slug)
    context = director_standings_reads.director_standings(event)
    return render(request, "tournaments/standings/director_standings.html", context)
