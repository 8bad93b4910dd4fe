"""The claim status of a table of many (three or four individual players, ``Match.table_entries``
3 or 4) as its phones show it: the sheet a player sent (every player's score and place), who has
confirmed it, how many confirmations are still needed (every other player, or most of them:
``Event.table_confirmation``), and for the viewing seat its next step; a conflict; the result.

Reads only. Scores are the claims' and results' exact half-points, written in displayed points by
``game.format_displayed`` (All Fives at three splits a blocked hand in halves: "62.5"); places are
``results_math.table_placings`` (equal scores share a place), as the result keeps them.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, ngettext

from tournaments import game
from tournaments.models import Claim, Match
from tournaments.presenters.scores import raw_from_halves
from tournaments.results_math import confirmations_needed, table_placings
from tournaments.selectors.results import MatchBoard


def place_word(place: int) -> str:
    """A place at a table as people say it: "1st" to "4th"."""
    words = {
        1: gettext("1st"),
        2: gettext("2nd"),
        3: gettext("3rd"),
        4: gettext("4th"),
    }
    return words.get(place, str(place))


def standing(
    names: list[str], halves: list[int], event: Any, places: list[int] | None = None
) -> list[dict[str, Any]]:
    """Every seat's row, best place first (seat order among equals): ``{seat, letter, name,
    score, place, place_word}``. ``places``: the result's own (else worked out from the scores)."""
    places = list(places) if places else table_placings(halves)
    rows = [
        {
            "seat": seat,
            "letter": game.side_letter(seat),
            "name": names[seat] if seat < len(names) else "",
            "score": game.format_displayed(raw_from_halves(h), event),
            "place": places[seat],
            "place_word": place_word(places[seat]),
        }
        for seat, h in enumerate(halves)
    ]
    return sorted(rows, key=lambda r: (r["place"], r["seat"]))


def _scores(claim: Claim) -> list[int] | None:
    found = claim.scores_halves
    return [int(h) for h in found] if isinstance(found, list) and found else None


def _sent(board: MatchBoard) -> Claim | None:
    """The sheet on the table: the earliest submitted claim that confirms no other (else the
    earliest submitted one)."""
    sent = [c for c in board.claims if c is not None and c.status == Claim.Status.SUBMITTED]
    if not sent:
        return None
    first = [c for c in sent if c.confirms_id is None] or sent
    return min(first, key=lambda c: (c.created_at, c.pk))


def status_context(match: Match, board: MatchBoard, *, side: int | None = None) -> dict[str, Any]:
    """The status fragment's context at a table of many (``side``: the viewing link's seat)."""
    event = match.round.event
    names = board.side_names
    seats = match.table_entries
    rule = event.table_confirmation
    needed = confirmations_needed(seats, rule)
    mine = board.claims[side] if side is not None and side < len(board.claims) else None
    context: dict[str, Any] = {
        "many": True,
        "state": board.state,
        "seats": seats,
        "names": names,
        "my_side": None if side is None else game.side_letter(side),
        "my_name": names[side] if side is not None and side < len(names) else "",
        "versions": {
            game.side_letter(s): claim.version for s, claim in enumerate(board.claims) if claim
        },
        "rule_all": rule != event.TableConfirmation.MAJORITY,
        "needed": needed,
        "drafts": [
            names[c.side]
            for c in board.claims
            if c is not None and c.status == Claim.Status.DRAFT and c.side < len(names)
        ],
    }
    result = board.result
    if result is not None:
        halves = list(result.scores_halves or [])
        rows = standing(names, halves, event, result.placings) if halves else []
        context.update(
            {
                "result": result,
                "rows": rows,
                "shown": ",".join(_shown_in_seat_order(rows)),
                "my_place": next(
                    (r["place_word"] for r in rows if side is not None and r["seat"] == side), ""
                ),
            }
        )
        return context
    if board.state == "conflict":
        context["sheets"] = [
            {"name": names[c.side], "rows": standing(names, scores, event)}
            for c in board.claims
            if c is not None and c.status == Claim.Status.SUBMITTED and (scores := _scores(c))
        ]
        return context
    sent = _sent(board)
    if sent is None:
        return context
    holders = [
        c
        for c in board.claims
        if c is not None and c.status == Claim.Status.SUBMITTED and c.digest == sent.digest
    ]
    confirmed_by = [names[c.side] for c in holders if c.side != sent.side]
    left = max(0, needed - len(confirmed_by))
    scores = _scores(sent)
    rows = standing(names, scores, event) if scores else []
    i_hold = mine is not None and any(c.pk == mine.pk for c in holders)
    context.update(
        {
            "sent": sent,
            "sent_letter": game.side_letter(sent.side),
            "sent_by": names[sent.side],
            "rows": rows,
            "shown": ",".join(_shown_in_seat_order(rows)),
            "hands": len(sent.sheet.get("hands", [])) if isinstance(sent.sheet, dict) else 0,
            "confirmed_by": confirmed_by,
            "left": left,
            "left_text": ngettext(
                "%(n)s more confirmation needed", "%(n)s more confirmations needed", left
            )
            % {"n": left},
            "i_sent": side is not None and sent.side == side,
            "i_hold": i_hold,
            "confirm_url": reverse("api:claim-confirm", kwargs={"match_id": match.pk}),
        }
    )
    return context


def _shown_in_seat_order(rows: list[dict[str, Any]]) -> list[str]:
    """The scores in seat order, as the scorebar reads them (``data-shown``)."""
    return [r["score"] for r in sorted(rows, key=lambda r: r["seat"])]
