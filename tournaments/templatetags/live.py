"""Template helpers for the live standings area, and the one place game points are turned into
what players count.

Points are raw pips everywhere in data (snapshots, results, the export, the CSV). In ``five-up``
and ``five-up-7`` players count *displayed* points, raw / 5 (305 raw = 61); ``all-fives`` shows raw
points (``/work/shared/spec/rules.md``). Every page that shows a game score renders it with the
``points`` filter below and says how it counts with ``{% points_note event %}``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template
from django.utils.html import format_html

from tournaments.models import Event
from tournaments.standings.serialise import format_number

register = template.Library()

PIPS_PER_POINT: dict[str, int] = {Event.Rules.FIVE_UP: 5, Event.Rules.FIVE_UP_7: 5}
"""Raw pips per displayed point, by rule set (absent: 1, raw points are displayed)."""


def _rules_of(event_or_rules: Any) -> str:
    rules = getattr(event_or_rules, "rules", event_or_rules)
    return str(rules) if rules is not None else ""


def pips_per_point(event_or_rules: Any) -> int:
    """How many raw pips make one displayed point for an event (or a rule set name): 5 in
    ``five-up`` and ``five-up-7``, 1 otherwise."""
    return PIPS_PER_POINT.get(_rules_of(event_or_rules), 1)


def displayed_points(raw: Any, event_or_rules: Any) -> str:
    """The displayed-points text of a raw score, exactly: ``305`` -> ``"61"``, ``302`` ->
    ``"60.4"``, ``152.5`` -> ``"30.5"`` in ``five-up``; unchanged (but normalised) in ``all-fives``.

    ``raw`` is a number or its exact text (``"2.5"``, ``"1/3"``, as the snapshot and the selectors
    give it); a list or tuple gives its values joined by ``", "``. ``None`` and ``""`` give ``""``;
    anything that is not a number is returned as text, untouched (never raises: a page shows it).
    """
    if raw is None or raw == "":
        return ""
    if isinstance(raw, list | tuple):
        return ", ".join(displayed_points(value, event_or_rules) for value in raw)
    if isinstance(raw, bool):
        return str(raw)
    try:
        value = Fraction(str(raw).strip())
    except (ValueError, ZeroDivisionError):
        return str(raw)
    return format_number(value / pips_per_point(event_or_rules))


@register.filter(name="points")
def points_filter(raw: Any, event_or_rules: Any) -> str:
    """``{{ score|points:event }}``: a raw score as the event's players count it
    (:func:`displayed_points`)."""
    return displayed_points(raw, event_or_rules)


@register.simple_tag
def points_note(event_or_rules: Any) -> str:
    """``{% points_note event %}``: a small note where a score column is shown, for the rule sets
    that display raw / 5 (``points (5 pips = 1)``); nothing for ``all-fives``."""
    per = pips_per_point(event_or_rules)
    if per == 1:
        return ""
    return format_html('<p class="muted points-note">Scores in points ({} pips = 1).</p>', per)


@register.filter
def result_of(results: dict[int, Any] | None, match_id: int) -> Any:
    """``results|result_of:match_id``: the round page's confirmed result of one match, or None."""
    if not results:
        return None
    return results.get(match_id)
