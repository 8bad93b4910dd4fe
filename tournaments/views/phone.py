"""The phone at the table (issue 7): the entry page behind a table link, its small JSON helper
for move entry, the claim status fragment, and the director's printable table cards and pairings
sheet.

Thin views: the table link is checked by ``tournaments.services.table_links``; claims are read
through ``tournaments.selectors.results``; the sheet is verified, submitted and confirmed by the
results API (the page's script calls it); the drawing of the table comes from the engine.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from tournaments.errors import NotFound, SpinnerError
from tournaments.game import expected_game
from tournaments.models import Event, Match, Round
from tournaments.permissions import director_required, directors_only
from tournaments.results_math import from_halves
from tournaments.selectors.results import match_board
from tournaments.services import cards as cards_service
from tournaments.services import phone as phone_service
from tournaments.services.table_links import TableAccess, resolve_table_token, table_link_path

RULES_LABEL = dict(Event.Rules.choices)


class NoMatchHere(NotFound):
    code = "no_match_at_table"


def _access(token: str) -> tuple[TableAccess, Match]:
    """The table link's grant and its match; a bad, revoked or expired link raises its
    ``SpinnerError`` (rendered by the callers), as does a table with no match this round."""
    access = resolve_table_token(token)
    if access.match_id is None:
        raise NoMatchHere(
            f"No match at table {access.table.number} in round {access.round.number}: "
            "check the pairings, or ask the director.",
        )
    match = Match.objects.select_related("entry_a", "entry_b", "table", "round__event").get(
        pk=access.match_id
    )
    return access, match


def _seat_records(match: Match) -> tuple[cards_service.Seat, ...]:
    event = match.round.event
    ids = {match.entry_a_id} | ({match.entry_b_id} if match.entry_b_id else set())
    players = cards_service.players_by_entry(event, ids)
    return cards_service.seats_for(
        match, players, head_to_head=event.entry_kind == Event.EntryKind.SINGLE
    )


def _api(name: str, match: Match) -> str:
    """The results API's route for the match (the page calls it with the table's token)."""
    return reverse(name, kwargs={"match_id": match.pk})


def page_config(request: HttpRequest, token: str, match: Match) -> dict[str, Any]:
    """What the page's script needs: the sheet's header (the event's game, as the results
    service expects it), how to show points, the seats and sides, and the endpoints."""
    event = match.round.event
    game = expected_game(event)
    players = int(game["players"])
    header = {"format": "fives-scoresheet/1", **game}
    divisor = 1 if event.rules == Event.Rules.ALL_FIVES else 5
    seats = _seat_records(match)
    drawn = cards_service.first_leader(match, seats)
    assert match.entry_b is not None
    entities = [
        {"side": "A", "index": 0, "label": f"{match.entry_a.name} (A)"},
        {"side": "B", "index": 1, "label": f"{match.entry_b.name} (B)"},
    ]
    return {
        "token": token,
        "players": players,
        "header": header,
        "target": int(game["target"]),
        "divisor": divisor,
        "seats": [{"number": s.number, "side": s.side, "player": s.player} for s in seats],
        "entities": entities,
        # Seat -> entity: partners share side A (seats 0, 2) or side B (1, 3); head to head,
        # seat 0 is side A and seat 1 side B.
        "entity_of": [s % 2 for s in range(players)],
        "tally_values": [5 * k for k in range(1, 8)],
        "allow_final_only": event.allow_final_score_only,
        # The first hand's leader as the round's draw chose it by lot (None: choose at the table).
        "first_leader": drawn.number if drawn is not None else None,
        "csrf": get_token(request),
        "urls": {
            "verify": _api("api-sheet-verify", match),
            "submit": _api("api-match-claims", match),
            "position": reverse("phone-position", kwargs={"token": token}),
            "status": reverse("phone-status", kwargs={"token": token}),
            "sw": reverse("phone-sw"),
        },
    }


def private(response: HttpResponse) -> HttpResponse:
    """The token is in the URL: never send it on as a referrer, never keep it in a shared
    cache. (The page's service worker keeps its own copy for offline reloads.)"""
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    return response


def _refused(request: HttpRequest, exc: SpinnerError) -> HttpResponse:
    return private(
        render(request, "tournaments/phone/refused.html", {"error": exc}, status=exc.status)
    )


@require_GET
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """The table's entry page: the match, the seats, the board and the scoresheet entry."""
    try:
        access, match = _access(token)
    except SpinnerError as exc:
        return _refused(request, exc)
    event = match.round.event
    config = page_config(request, token, match)
    divisor = config["divisor"]
    context = {
        "token": token,
        "event": event,
        "round": access.round,
        "table": access.table,
        "match": match,
        "seats": config["seats"],
        "rules_label": RULES_LABEL.get(event.rules, event.rules),
        "target_display": config["target"] // divisor if divisor == 5 else config["target"],
        "unit_label": "(points: 5 pips = 1)" if divisor == 5 else "(points)",
        "config": config,
        "urls": config["urls"],
    }
    return private(render(request, "tournaments/phone/table.html", context))


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The table pages' service worker (scope ``/t/``): keeps what a table page fetched so that
    it reloads offline. Never cached by the browser's HTTP cache, so an update arrives at once."""
    response = render(
        request, "tournaments/phone/sw.js", content_type="application/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def claim_status(request: HttpRequest, token: str) -> HttpResponse:
    """The claim status fragment (htmx polls it): nothing yet, a pending claim with its summary
    and the other side's Confirm button, a conflict, or the confirmed result."""
    try:
        _, match = _access(token)
    except SpinnerError as exc:
        return private(
            HttpResponse(format_html('<p class="error">{}</p>', exc.message), status=exc.status)
        )
    board = match_board(match.pk)
    assert board is not None
    divisor = 1 if match.round.event.rules == Event.Rules.ALL_FIVES else 5
    sides = [match.entry_a.name, match.entry_b.name if match.entry_b else ""]

    def shown(halves: int | None) -> str:
        raw = from_halves(halves)
        if raw is None:
            return "—"
        value = raw / divisor
        return str(int(value)) if float(value).is_integer() else f"{value:g}"

    claims = []
    for side, claim in enumerate(board.claims):
        if claim is None:
            continue
        claims.append(
            {
                "side": "AB"[side],
                "side_index": side,
                "name": sides[side],
                "claim": claim,
                "scores": [shown(claim.score_a_halves), shown(claim.score_b_halves)],
                "hands": len(claim.sheet.get("hands", [])) if isinstance(claim.sheet, dict) else 0,
                "hand_lines": phone_service.hand_lines(claim.sheet),
                "winner": sides[claim.winner_side] if claim.winner_side is not None else None,
                "confirm_url": _api("api-claim-confirm", match),
            }
        )
    result = board.result
    context = {
        "state": board.state,
        "claims": claims,
        "sides": sides,
        "result": result,
        "result_scores": [shown(result.score_a_halves), shown(result.score_b_halves)]
        if result
        else None,
        "result_winner": sides[result.winner_side]
        if result and result.winner_side is not None
        else None,
        "versions": {"AB"[side]: claim.version for side, claim in enumerate(board.claims) if claim},
    }
    return private(render(request, "tournaments/phone/status.html", context))


@require_POST
def position(request: HttpRequest, token: str) -> JsonResponse:
    """Move entry's helper: POST ``{"sheet": ..., "hand": i, "tile": "a-b" | null}``.

    Replays hand ``i``'s moves with the engine and answers the table's geometry for drawing and,
    for ``tile``, each legal placement with the score the engine counts for it. Errors use the
    ``{code, message, details}`` body.
    """
    try:
        _, match = _access(token)
        try:
            body = json.loads(request.body or b"{}")
        except ValueError as exc:
            raise phone_service.PositionError("The request is not JSON.") from exc
        answer = phone_service.position(body, rules=match.round.event.rules)
    except SpinnerError as exc:
        return JsonResponse(exc.as_dict(), status=exc.status)
    return JsonResponse(answer)


# --- The director: cards and the pairings sheet ------------------------------------------------


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event"), event=event, number=number)


@directors_only  # the cards carry each table's link: staff who only oversee do not get them
def table_cards(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """Print-ready table cards of round ``number``: one per table."""
    round_ = _round(event, number)

    def url_for(match: Match) -> str:
        assert match.table is not None
        return request.build_absolute_uri(table_link_path(round_=round_, table=match.table))

    cards = cards_service.table_cards(round_, url_for=url_for)
    return render(
        request,
        "tournaments/cards/table_cards.html",
        {"event": event, "round": round_, "cards": cards},
    )


@director_required
def pairings_sheet(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """The printable pairings sheet of round ``number``."""
    round_ = _round(event, number)
    rows = cards_service.pairings_rows(round_)
    return render(
        request,
        "tournaments/cards/pairings_sheet.html",
        {"event": event, "round": round_, "rows": rows},
    )
