"""Template helpers for scores: ``{% load points %}``.

Points are raw everywhere in data (snapshots, results, the export, the CSV); a page shows the
game's *displayed* points. The conversion is :mod:`tournaments.game`'s (``format_displayed``,
``displayed_divisor``, ``unit_label``), never restated here. Every page that shows a game score
renders it with the ``points`` filter (or ``score_pair`` for a result or a claim) and says how it
counts with ``{% points_note event %}``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from tournaments import game
from tournaments.presenters import scores
from tournaments.selectors.forfeits import MARK_WORDS

register = template.Library()


@register.filter(name="points")
def points_filter(raw: Any, event_or_rules: Any) -> str:
    """``{{ score|points:event }}``: a raw score as the event's players count it
    (:func:`tournaments.game.format_displayed`)."""
    return game.format_displayed(raw, event_or_rules)


@register.filter(name="score_pair")
def score_pair_filter(result: Any, event_or_rules: Any) -> str:
    """``{{ result|score_pair:event }}``: a result's or a claim's two scores, side 0 first, in
    displayed points (``"61 – 40"``), or ``""``."""
    return scores.score_pair(result, event_or_rules)


@register.filter
def named_scores(result: Any, board: Any) -> str:
    """``{{ claim|named_scores:board }}``: at a table of many every seat's score after its
    player's name (``"Ann Lee 30, Lucy Grant 200"``); the score pair for two sides."""
    return scores.named_scores(result, board.side_names, board.match.round.event)


@register.simple_tag
def points_note(event_or_rules: Any) -> str:
    """``{% points_note event %}``: a small note where a score column is shown, for the rule sets
    whose displayed point is several pips (``points (5 pips = 1)``); nothing otherwise."""
    if game.displayed_divisor(event_or_rules) == 1:
        return ""
    return format_html(
        '<p class="muted points-note">{}</p>',
        gettext("Scores in %(unit)s.") % {"unit": game.unit_label(event_or_rules)},
    )


@register.filter
def result_of(results: dict[int, Any] | None, match_id: int) -> Any:
    """``results|result_of:match_id``: the round page's confirmed result of one match, or None."""
    if not results:
        return None
    return results.get(match_id)


@register.filter
def forfeit_word(mark: str) -> str:
    """``{{ mark|forfeit_word }}``: a result's forfeit mark ("forfeit", "no-show", "double
    forfeit": :func:`tournaments.selectors.forfeits.forfeit_mark`) in the reader's language."""
    word = MARK_WORDS.get(mark)
    return mark if word is None else str(word)


@register.filter(name="compass")
def compass_filter(seat: Any, event: Any) -> str:
    """``{{ seat.number|compass:event }}``: a seat as a compass point (North, East, South, West;
    North and South head to head), never "seat 0" (:func:`tournaments.game.compass_point`)."""
    return game.compass_point(int(seat), game.seats_per_table(event.entry_kind))


@register.filter(name="compass_at")
def compass_at_filter(seat: Any, seats: Any) -> str:
    """``{{ seat.number|compass_at:3 }}``: a seat of a table of ``seats`` players as a compass
    point (a table of many: North, East, South and West; :func:`tournaments.game.compass_point`)."""
    return game.compass_point(int(seat), int(seats))
