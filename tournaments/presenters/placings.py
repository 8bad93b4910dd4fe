"""A place at a table of many (three or four players) as people read it: "1st", "2nd", "3rd",
"4th", and "=2nd" where the result gives two seats the same place (the standings' tie mark).
The places are the result's own (``MatchResult.placings``): read, never recomputed here."""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext, pgettext_lazy

ORDINALS = {
    1: pgettext_lazy("place at a table", "1st"),
    2: pgettext_lazy("place at a table", "2nd"),
    3: pgettext_lazy("place at a table", "3rd"),
    4: pgettext_lazy("place at a table", "4th"),
}
"""The places a table of up to four players has, in words."""


def place_label(place: Any, shared: bool = False) -> str:
    """``"1st"``, ``"=2nd"`` (shared)...; ``""`` for no place (no result yet).

    >>> place_label(2), place_label(2, True), place_label(None)
    ('2nd', '=2nd', '')
    """
    if place is None or place == "" or isinstance(place, bool):
        return ""
    try:
        number = int(place)
    except (TypeError, ValueError):
        return str(place)
    word = str(ORDINALS[number]) if number in ORDINALS else f"{number}."
    if shared:
        return pgettext("a place shared with another player", "=%(place)s") % {"place": word}
    return word
