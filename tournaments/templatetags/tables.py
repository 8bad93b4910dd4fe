"""Template helpers for tables of many (three or four players): ``{% load tables %}``.

``{{ place|place_label:shared }}`` writes a place as the result has it ("1st", "=2nd" when shared:
:func:`tournaments.presenters.placings.place_label`); ``{{ seat|seat_point:size }}`` a seat of a
table of ``size`` as a compass point (:func:`tournaments.game.compass_point`), never "seat 2".
"""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import game
from tournaments.presenters.placings import place_label

register = template.Library()


@register.filter(name="place_label")
def place_label_filter(place: Any, shared: Any = False) -> str:
    """``{{ r.place|place_label:r.shared }}``: "1st", "=2nd" (shared), or "" without a place."""
    return place_label(place, bool(shared))


@register.filter(name="seat_point")
def seat_point_filter(seat: Any, size: Any) -> str:
    """``{{ s.seat|seat_point:s.size }}``: North, East, South or West at a table of ``size``."""
    try:
        return game.compass_point(int(seat), int(size))
    except (TypeError, ValueError):
        return ""


@register.filter(name="seat_result")
def seat_result_filter(result: Any, seat: Any) -> Any:
    """``{% with r=result|seat_result:s.seat %}``: one seat's score and place from a round
    result's ``seats`` (:func:`tournaments.selectors.matches.seat_results`), or None."""
    if not isinstance(result, dict):
        return None
    for row in result.get("seats") or ():
        if row.get("seat") == seat:
            return row
    return None


@register.filter(name="join_names")
def join_names_filter(tablemates: Any) -> str:
    """``{{ item.tablemates|join_names }}``: the tablemates' names, joined by commas."""
    return ", ".join(str(t.get("name", "")) for t in tablemates or () if isinstance(t, dict))
