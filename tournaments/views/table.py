"""The table's page (``/t/<token>/``, the phone at the table): the entry page behind a table
link, its small JSON helper for move entry, the claim status fragment and the service worker.

Thin views: the table link is checked by ``tournaments.services.table_links``; claims are read
through ``tournaments.selectors.results``; what the page shows is built by
``tournaments.presenters.table``; the sheet is verified, submitted and confirmed by the results
API (the page's script calls it); the drawing of the table comes from the engine.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tournaments import time_zones
from tournaments.errors import NotFound, SpinnerError
from tournaments.models import Match
from tournaments.presenters import table as presenter
from tournaments.rate_limit import per_table_link, refuse_wrong_link, throttled, with_retry_after
from tournaments.selectors.bracket import game_line
from tournaments.selectors.results import match_board
from tournaments.services.table_links import TableAccess, TableLinkInvalid, resolve_table_token


class NoMatchHere(NotFound):
    code = "no_match_at_table"


def _resolve(request: HttpRequest, token: str, *, closed_ok: bool = False) -> TableAccess:
    """The table link's grant; a wrong link is counted against the request's address, and
    beyond ``table_link_failures`` answers 429 (``rate_limit.refuse_wrong_link``). A right link
    is never counted nor slowed."""
    try:
        return resolve_table_token(token, closed_ok=closed_ok)
    except TableLinkInvalid as exc:
        refusal = refuse_wrong_link(request, exc)
        if refusal is exc:
            raise
        raise refusal from exc


def _access(
    request: HttpRequest, token: str, *, closed_ok: bool = False
) -> tuple[TableAccess, Match]:
    """The table link's grant and its match; a bad, revoked or expired link raises its
    ``SpinnerError`` (rendered by the callers), as does a table with no match this round.
    ``closed_ok``: a closed round's link is let through to read its result."""
    access = _resolve(request, token, closed_ok=closed_ok)
    match = access.match  # read with the token: its round and event, table and entries
    if match is None:
        raise NoMatchHere(
            f"No match at table {access.table.number} in round {access.round.number}: "
            "check the pairings, or ask the director.",
        )
    time_zones.activate_for(match.round.event)
    return access, match


def private(response: HttpResponse) -> HttpResponse:
    """The token is in the URL: never send it on as a referrer, never keep it in a shared
    cache. (The page's service worker keeps its own copy for offline reloads.)"""
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    return response


def _refused(request: HttpRequest, exc: SpinnerError) -> HttpResponse:
    response = render(request, "tournaments/table/refused.html", {"error": exc}, status=exc.status)
    return private(with_retry_after(response, exc))  # type: ignore[arg-type]


@require_GET
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """The table's entry page: the match, the seats, the board and the scoresheet entry. Once
    the round is closed: the table's final result, read only."""
    try:
        access, match = _access(request, token, closed_ok=True)
    except SpinnerError as exc:
        return _refused(request, exc)
    language_url = reverse("table:language", kwargs={"token": token})
    if access.closed:
        context = {**_closed(access, match), "language_url": language_url}
        return private(render(request, "tournaments/table/closed.html", context))
    context = presenter.page_context(match, token, csrf=get_token(request), side=access.side)
    context.update({"round": access.round, "table": access.table, "language_url": language_url})
    return private(render(request, "tournaments/table/table.html", context))


@csrf_exempt  # the table link's token in the path proves what a CSRF token would (see below)
@require_POST
def language(request: HttpRequest, token: str) -> HttpResponse:
    """The table page's language switch: remembers the chosen language in the language cookie
    (as Django's ``set_language`` does) and goes back to the table's page.

    A table page sends no referrer (its URL holds the token), so a browser posts its forms with
    ``Origin: null``, which Django's CSRF check refuses; only a holder of the table link can
    post here, so the token stands in for the CSRF token. A bad link is refused as the page is.
    """
    try:
        _access(request, token, closed_ok=True)
    except SpinnerError as exc:
        return _refused(request, exc)
    response = redirect("table:page", token=token)
    code = request.POST.get("language", "")
    if code in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
        )
    return private(response)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The table pages' service worker (scope ``/t/``): keeps what a table page fetched so that
    it reloads offline. "My table" registers the same script with its own scope under
    ``/events/`` for the notices it subscribes to: ``Service-Worker-Allowed`` names the widest
    scope allowed, and it must cover both (``/t/`` is not under ``/events/``), hence ``/``. Never
    cached by the browser's HTTP cache, so an update arrives at once."""
    response = render(
        request, "tournaments/table/sw.js", content_type="application/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def claim_status(request: HttpRequest, token: str) -> HttpResponse:
    """The claim status fragment (htmx polls it): nothing yet, a pending claim with its summary
    (and, on the other side's link, its Confirm button), a conflict, or the confirmed result."""
    try:
        access, match = _access(request, token, closed_ok=True)
    except SpinnerError as exc:
        said = format_html('<p class="error">{}</p>', exc.message)
        refused = HttpResponse(said, status=exc.status)
        return private(with_retry_after(refused, exc))  # type: ignore[arg-type]
    if access.closed:  # the round closed (a play-off round closes itself): the result stays
        return private(render(request, "tournaments/table/status.html", _closed(access, match)))
    shown = _shown_game(request, match)
    if shown is not None:  # a best-of match moved on to its next game: reload the page to it
        context = presenter.moved_on_context(shown, match)
        response = render(request, "tournaments/table/next_game.html", context)
        response["HX-Refresh"] = "true"
        return private(response)
    board = match_board(match.pk)
    assert board is not None
    device = request.headers.get("X-Spinner-Device", "")
    context = presenter.status_context(match, board, side=access.side, device=device)
    return private(render(request, "tournaments/table/status.html", context))


def _closed(access: TableAccess, match: Match) -> dict[str, object]:
    """A closed round's table: its result as the status fragment shows it, no action offered."""
    board = match_board(match.pk)
    assert board is not None
    context = presenter.status_context(match, board, side=access.side)
    context.update(
        {"closed": True, "round": access.round, "table": access.table, "event": access.round.event}
    )
    context["game_line"] = game_line(match)
    context["match"] = match
    return context


def _shown_game(request: HttpRequest, current: Match) -> Match | None:
    """The earlier game of ``current``'s series that the polling page still shows (``?game=``),
    or None when it shows the current one (or says nothing)."""
    shown = request.GET.get("game", "")
    if not shown.isascii() or not shown.isdigit() or int(shown) == current.pk:
        return None
    if current.table_id is None:
        return None
    return Match.objects.filter(
        pk=int(shown), round_id=current.round_id, table_id=current.table_id
    ).first()


@require_GET
def round_clock(request: HttpRequest, token: str) -> HttpResponse:
    """The round's clock as JSON (the page polls it): ``{"state", "seconds_left", "ends_at",
    "seconds_over", "as_of"}`` (``presenters.table.clock_payload``); errors use the
    ``{code, message, details}`` body."""
    try:
        access = _resolve(request, token)
    except SpinnerError as exc:
        refused = JsonResponse(exc.as_dict(), status=exc.status)
        return private(with_retry_after(refused, exc))  # type: ignore[arg-type]
    return private(JsonResponse(presenter.clock_payload(access.round)))


@require_POST
@throttled("table_position", per_table_link)
def position(request: HttpRequest, token: str) -> HttpResponse:
    """Move entry's helper: POST ``{"sheet": ..., "hand": i, "tile": "a-b" | null}``.

    Replays hand ``i``'s moves with the engine and answers the table's geometry for drawing and,
    for ``tile``, each legal placement with the score the engine counts for it. Errors use the
    ``{code, message, details}`` body.
    """
    try:
        _, match = _access(request, token)
        try:
            body = json.loads(request.body or b"{}")
        except ValueError as exc:
            raise presenter.PositionError("The request is not JSON.") from exc
        answer = presenter.position(body, rules=match.round.event.rules)
    except SpinnerError as exc:
        refused = JsonResponse(exc.as_dict(), status=exc.status)
        return with_retry_after(refused, exc)  # type: ignore[return-value]
    return JsonResponse(answer)
