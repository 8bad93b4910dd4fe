"""Reads of single matches for the public pages: an entry's match history, a match's detail with
its hands and the drawing of a hand, and a round's confirmed results.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.db.models import FilteredRelation, Q

from scoring.geometry import picture, position_after
from tournaments.models import (
    Entry,
    Event,
    Match,
    MatchResult,
    Round,
    RoundSeat,
)
from tournaments.selectors.forfeits import marks_of
from tournaments.selectors.seats import table_seats
from tournaments.standings.records import normalise
from tournaments.standings.serialise import format_number


def event_entry(event: Event, entry_id: int) -> Entry:
    return Entry.objects.get(event_id=event.pk, pk=entry_id)


def _score_text(halves: int | None) -> str:
    if halves is None:
        return ""
    return format_number(normalise(Fraction(halves, 2)))


def team_history(event: Event, entry_id: int) -> list[dict[str, Any]]:
    """Every match of an entry in the event, in round order, with its confirmed result from the
    entry's side (one query; two when a result is a forfeit, marked ``forfeit``; one more when
    the entry sat at tables of many). Draft rounds are left out (not public yet).

    A table of many (three or four players) has ``many`` set, the entry's ``seat``, its
    ``tablemates`` (every other seat: ``seat``, ``size``, ``entry_id``, ``name``, ``score``)
    and its ``place`` (``shared`` when another seat has it) as the result has them; its
    ``opponent`` is empty and its ``outcome`` "won" for a sole first place, "draw" for a shared
    one, else "lost" (how the standings count them)."""
    listed = _history_rows(event, entry_id)
    marks = marks_of(event.pk, [(row[-2], row[-1]) for row in listed if row[-1]])
    many = table_seats([row[0] for row in listed if row[15] > 2 and not row[6]])
    return [_history_item(row, entry_id, marks, many) for row in listed]


HISTORY_FIELDS = (
    "pk",
    "round__number",
    "round__kind",
    "game_no",
    "best_of",
    "table__number",
    "is_bye",
    "entry_a_id",
    "entry_a__name",
    "entry_b_id",
    "entry_b__name",
    "current__score_a_halves",
    "current__score_b_halves",
    "current__winner_side",
    "current__verified",
    "table_entries",
    "current__scores_halves",
    "current__placings",
    "current__pk",
    "current__forfeit",
)
"""What :func:`team_history` reads of each match (its current result through ``current``)."""


def _history_rows(event: Event, entry_id: int) -> list[tuple[Any, ...]]:
    """The entry's matches in the event's public rounds, in round order, as
    :data:`HISTORY_FIELDS`. One query."""
    seated = RoundSeat.objects.filter(entry_id=entry_id).values("match_id")
    return list(
        Match.objects.filter(round__event_id=event.pk)
        .exclude(round__status=Round.Status.DRAFT)
        .filter(Q(entry_a_id=entry_id) | Q(entry_b_id=entry_id) | Q(pk__in=seated))
        .annotate(current=FilteredRelation("results", condition=Q(results__is_current=True)))
        .order_by("round__number", "game_no", "pk")
        .values_list(*HISTORY_FIELDS)
    )


def _history_item(
    row: tuple[Any, ...], entry_id: int, marks: dict[Any, str], many: dict[int, Any]
) -> dict[str, Any]:
    """One match of :func:`team_history` from the entry's side (``marks``: the forfeits by
    result; ``many``: the seats of the tables of many)."""
    pk, number, kind, game_no, best_of, table, is_bye, a, a_name, b, b_name = row[:11]
    sa, sb, winner, verified, _size, scores, places = row[11:18]
    side = 0 if a == entry_id else 1
    item: dict[str, Any] = {
        "match_id": pk,
        "round": number,
        "kind": kind,
        "game": game_no,  # a best-of play-off match: each game is a row
        "best_of": best_of,
        "table": table,
        "bye": is_bye,
        "opponent_id": b if side == 0 else a,
        "opponent": b_name if side == 0 else a_name,
        "confirmed": sa is not None,
        "verified": bool(verified),
        "own": _score_text(sa if side == 0 else sb),
        "other": _score_text(sb if side == 0 else sa),
        "outcome": "",
        "forfeit": marks.get(row[-2], ""),  # "forfeit", "no-show", "double forfeit" or ""
        "many": pk in many,
    }
    if pk in many:
        item.update(_table_of_many(entry_id, many[pk], scores, places))
    if is_bye:
        item["outcome"] = "bye"
    elif pk in many and sa is not None:
        place, shared = item["place"], item["shared"]
        item["outcome"] = "" if place is None else _place_outcome(place, shared)
    elif sa is not None:
        item["outcome"] = "draw" if winner is None else ("won" if winner == side else "lost")
    return item


def _place_outcome(place: int, shared: bool) -> str:
    """A place at a table of many as the standings count it: a sole first place is a win, a
    shared first place a draw, any other place a loss."""
    if place != 1:
        return "lost"
    return "draw" if shared else "won"


def _table_of_many(
    entry_id: int, seats: list[tuple[int, int, str]], scores: Any, places: Any
) -> dict[str, Any]:
    """The entry's part of a table of many: its seat, tablemates (with their scores), its own
    score and place (``seat_results``: as the result has them)."""
    results = {r["seat"]: r for r in seat_results(scores, places)}
    size = len(seats)
    own_seat = next((seat for seat, e, _ in seats if e == entry_id), None)
    own = results.get(own_seat, {}) if own_seat is not None else {}
    return {
        "seat": own_seat,
        "size": size,
        "opponent": "",
        "opponent_id": None,
        "own": own.get("score", ""),
        "other": "",
        "place": own.get("place"),
        "shared": bool(own.get("shared")),
        "tablemates": [
            {
                "seat": seat,
                "size": size,
                "entry_id": other,
                "name": name,
                "score": results.get(seat, {}).get("score", ""),
                "place": results.get(seat, {}).get("place"),
            }
            for seat, other, name in seats
            if other != entry_id
        ],
    }


def match_detail(event: Event, match_id: int) -> dict[str, Any] | None:
    """A match of the event with its round, table, entries and current confirmed result (two
    queries; three for a forfeit, marked ``forfeit``; one more for a table of many, whose
    ``seats`` are every seat's player, score and place), and its hands summarised from the
    result's scoresheet."""
    match = (
        Match.objects.filter(round__event_id=event.pk, pk=match_id)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", "table", "entry_a", "entry_b")
        .first()
    )
    if match is None:
        return None
    result = MatchResult.objects.filter(match_id=match.pk, is_current=True).first()
    marks = marks_of(event.pk, [(result.pk, result.forfeit)] if result is not None else [])
    sheet = result.sheet if result is not None and isinstance(result.sheet, dict) else None
    seats = many_seats(match, result) if match.table_entries > 2 and not match.is_bye else []
    return {
        "match": match,
        "result": result,
        "score_a": _score_text(result.score_a_halves) if result else "",
        "score_b": _score_text(result.score_b_halves) if result else "",
        "winner": (
            None
            if result is None or result.winner_side is None or seats
            else (match.entry_a if result.winner_side == 0 else match.entry_b)
        ),
        # a table of many: every seat with its score and place (``many_seats``)
        "seats": seats,
        "hands": hands_of(sheet) if sheet is not None else [],
        "sheet": sheet,
        "forfeit": marks.get(result.pk, "") if result is not None else "",
    }


def many_seats(match: Match, result: MatchResult | None) -> list[dict[str, Any]]:
    """A table of many's seats in seat order: ``seat``, ``size``, ``entry_id``, ``name`` and,
    with a result, ``score`` (raw, exact text), ``place`` and ``shared`` as the result has them
    (``seat_results``). One query (the seats)."""
    results = {
        r["seat"]: r
        for r in (seat_results(result.scores_halves, result.placings) if result else [])
    }
    seated = table_seats([match.pk]).get(match.pk, [])
    return [
        {
            "seat": seat,
            "size": len(seated),
            "entry_id": entry_id,
            "name": name,
            "score": results.get(seat, {}).get("score", ""),
            "place": results.get(seat, {}).get("place"),
            "shared": bool(results.get(seat, {}).get("shared")),
        }
        for seat, entry_id, name in seated
    ]


def hands_of(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """Each hand of a ``fives-scoresheet/1`` sheet, for display: its number, leader, how it
    ended, the scores made (move or tally form), the settlement, and, for a hand in move form, the
    table drawn from the engine's geometry (``scoring.position_after``) when the engine has it."""
    hands = []
    for index, hand in enumerate(sheet.get("hands") or []):
        if not isinstance(hand, dict):
            continue
        moves = hand.get("moves")
        tally = hand.get("tally")
        scores: list[dict[str, Any]] = []
        if isinstance(moves, list):
            for move in moves:
                if isinstance(move, dict) and move.get("play") and move.get("score"):
                    scores.append(
                        {
                            "who": f"seat {move.get('seat')}",
                            "seat": move.get("seat"),
                            "score": move["score"],
                        }
                    )
        elif isinstance(tally, list):
            for item in tally:
                if isinstance(item, dict):
                    who = f"seat {item['seat']}" if "seat" in item else f"side {item.get('entity')}"
                    scores.append(
                        {
                            "who": who,
                            "seat": item.get("seat"),
                            "entity": item.get("entity"),
                            "score": item.get("score"),
                        }
                    )
        hands.append(
            {
                "number": index + 1,
                "index": index,
                "leader": hand.get("leader"),
                "end": hand.get("end") or "in play",
                "finisher": hand.get("finisher"),
                "form": "moves" if isinstance(moves, list) else "tally",
                "plays": sum(1 for m in moves or [] if isinstance(m, dict) and m.get("play")),
                "scores": scores,
                "settlement": hand.get("settlement"),
                "drawing": hand_drawing(sheet, index) if isinstance(moves, list) else None,
            }
        )
    return hands


def hand_drawing(sheet: dict[str, Any], index: int) -> dict[str, Any] | None:
    """The table at the end of hand ``index`` (move form), laid out by the engine's geometry
    (``scoring.geometry.position_after`` and ``picture``), as coordinates for an inline SVG:
    grid units (a tile is 4 x 2), each tile's rectangle, its two halves' values and where to write
    them, the open ports (counted ends filled) and the end total. None when the engine cannot
    replay the hand (an invalid sheet)."""

    try:
        layout = position_after(sheet, index, None)
    except ValueError:
        return None
    pic = picture(layout)
    tiles = []
    for t in pic.tiles:
        divider: tuple[float, float, float, float]
        if t.horizontal:
            divider = (t.x + t.w / 2, t.y, t.x + t.w / 2, t.y + t.h)
            spots = ((t.x + t.w / 4, t.y + t.h / 2), (t.x + 3 * t.w / 4, t.y + t.h / 2))
        else:
            divider = (t.x, t.y + t.h / 2, t.x + t.w, t.y + t.h / 2)
            spots = ((t.x + t.w / 2, t.y + t.h / 4), (t.x + t.w / 2, t.y + 3 * t.h / 4))
        tiles.append(
            {
                "tile": t.tile,
                "x": t.x,
                "y": t.y,
                "w": t.w,
                "h": t.h,
                "divider": divider,
                "values": [
                    {"x": spots[0][0], "y": spots[0][1], "value": t.first},
                    {"x": spots[1][0], "y": spots[1][1], "value": t.second},
                ],
                "spinner": t.spinner,
                "order": t.order + 1,
            }
        )
    b = pic.bounds
    return {
        "viewbox": f"{b.x - 1} {b.y - 1} {b.w + 2} {b.h + 2}",
        # At least 8 px a grid unit (a tile's number stays readable): a long line scrolls.
        "min_width": (b.w + 2) * 8,
        "tiles": tiles,
        "ports": [{"x": p.x, "y": p.y, "counted": p.counted} for p in pic.ports],
        "total": pic.total,
        "count": len(tiles),
    }


def round_results(round_id: int, match_ids: list[int] | None = None) -> dict[int, dict[str, Any]]:
    """The confirmed result of each match of a round, by match id (one query), for the public
    round page: scores in seat order as exact text, the winning side, verified or not, and the
    forfeit mark ("forfeit", "no-show", "double forfeit"; a second query only for forfeits).
    At a table of many also ``seats``: every seat's score and place as the result has them
    (:func:`seat_results`). ``match_ids``: only those matches' (a slice of a long round)."""
    found = MatchResult.objects.filter(match__round_id=round_id, is_current=True)
    if match_ids is not None:
        found = found.filter(match_id__in=match_ids)
    rows = list(
        found.values_list(
            "match_id",
            "score_a_halves",
            "score_b_halves",
            "winner_side",
            "verified",
            "pk",
            "forfeit",
            "match__round__event_id",
            "scores_halves",
            "placings",
        )
    )
    forfeited = [(row[5], row[6]) for row in rows if row[6]]
    marks = marks_of(rows[0][7], forfeited) if forfeited else {}
    return {
        match_id: {
            "score_a": _score_text(a),
            "score_b": _score_text(b),
            "winner_side": winner,
            "verified": verified,
            "forfeit": marks.get(pk, ""),
            "seats": seat_results(scores, places),
        }
        for match_id, a, b, winner, verified, pk, _, _, scores, places in rows
    }


def seat_results(scores_halves: Any, placings: Any) -> list[dict[str, Any]]:
    """A table of many's result seat by seat, as the result service wrote it: each seat's
    ``score`` (raw, exact text) and ``place`` (1 = first) with ``shared`` when another seat has
    the same place. Places are read, never recomputed. Empty for a result without
    ``scores_halves`` (a table of two)."""
    if not isinstance(scores_halves, list) or len(scores_halves) < 3:
        return []
    places = placings if isinstance(placings, list) and len(placings) == len(scores_halves) else []
    return [
        {
            "seat": seat,
            "score": _score_text(halves if isinstance(halves, int) else None),
            "place": places[seat] if places else None,
            "shared": bool(places) and places.count(places[seat]) > 1,
        }
        for seat, halves in enumerate(scores_halves)
    ]
