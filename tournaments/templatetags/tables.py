"""Template helpers for tables of many (three or four players): ``{% load tables %}``.

``{{ place|place_label:shared }}`` writes a place as the result has it ("1st", "=2nd" when shared:
:func:`tournaments.presenters.placings.place_label`); ``{{ seat|seat_point:size }}`` a seat of a
table of ``size`` as a compass point (:func:`tournaments.game.compass_point`), never "seat 2".
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template
from django.utils.html import format_html

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


def _near(exact: str, digits: int) -> str:
    """An exact text as people read it: itself when it terminates ("2.5"), else rounded to
    ``digits`` decimals in a span whose title keeps the exact value ("1175/3" -> 391.7)."""
    if "/" not in exact:
        return exact
    try:
        value = Fraction(exact)
    except (ValueError, ZeroDivisionError):
        return exact
    return format_html(
        '<span class="approx" title="{}">{}</span>', exact, f"{float(value):.{digits}f}"
    )


@register.filter(name="points_near")
def points_near_filter(raw: Any, event_or_rules: Any) -> str:
    """``{{ row.points_against|points_near:event }}``: a score in displayed points
    (:func:`tournaments.game.format_displayed`), a repeating fraction (the tablemates' mean at a
    table of three) to one decimal, the exact value in its title."""
    return _near(game.format_displayed(raw, event_or_rules), 1)


@register.filter(name="near")
def near_filter(value: Any) -> str:
    """``{{ cell.value|near }}``: an exact number that is not a score (match points in
    proportion to score, a Buchholz of them) to two decimals when it does not terminate."""
    return _near("" if value is None else str(value), 2)
