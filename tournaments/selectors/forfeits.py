"""Reads for forfeits: how a page names a forfeited result, and which results were no-shows.

A forfeit is a result the director recorded (``services.forfeits``): ``MatchResult.forfeit``
says who forfeited ("a", "b" or "both": a double forfeit). A **no-show** is a forfeit by a side
that did not turn up, which also withdrew that entry from later rounds; the result row does not
carry it (no column for it), the audit log does: the ``entry.no_show`` entry names the result
(``after["result"]``). The audit log is append-only, so the mark cannot drift from the record.

Marks, as every page, the CSV and the export word them: ``"forfeit"``, ``"no-show"`` and
``"double forfeit"`` (:func:`forfeit_mark`).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext, gettext_lazy

from tournaments import game
from tournaments.models import AuditEntry, Event, Match, MatchResult
from tournaments.selectors.standings_input import points_config

NO_SHOW_ACTION = "entry.no_show"
"""The audit action of a no-show (written by ``services.forfeits.record_no_show``)."""

FORFEIT_ACTION = "result.forfeit"
"""The audit action of every forfeit result version (a forfeit, a double forfeit, a no-show)."""


def forfeit_score(event: Event, match: Match | None = None) -> int:
    """The raw score a side wins by when the other forfeits: the event's ``forfeit_score``, else
    the target of the match (a play-off game's own target) or of the event (the engine's default
    when the event sets none)."""
    if event.forfeit_score is not None:
        return int(event.forfeit_score)
    if match is not None and match.target is not None:
        return int(match.target)
    return int(game.match_options(event).target)


def forfeit_rules(event: Event) -> str:
    """The event's forfeit settings in a sentence (the rules summary)."""
    score = game.format_displayed(forfeit_score(event), event)
    points = points_config(event)  # the standings' own reading of "empty: as played"
    win, loss = points.forfeit_win_points, points.forfeit_loss_points
    both = points.double_forfeit_points
    if points.forfeit_spread:
        text = gettext(
            "Forfeits: the side that turns up wins %(score)s–0 and earns %(win)s match point(s), "
            "the side that forfeits %(loss)s, each side of a double forfeit %(both)s; forfeit "
            "scores count in points for and spread."
        )
    else:
        text = gettext(
            "Forfeits: the side that turns up wins %(score)s–0 and earns %(win)s match point(s), "
            "the side that forfeits %(loss)s, each side of a double forfeit %(both)s; forfeit "
            "scores do not count in points for and spread."
        )
    return text % {"score": score, "win": win, "loss": loss, "both": both}


def forfeit_mark(forfeit: str, *, no_show: bool = False) -> str:
    """How a result is marked: ``""`` for a played match, ``"forfeit"``, ``"no-show"`` or
    ``"double forfeit"``.

    >>> forfeit_mark(""), forfeit_mark("a"), forfeit_mark("b", no_show=True), forfeit_mark("both")
    ('', 'forfeit', 'no-show', 'double forfeit')
    """
    if forfeit == MatchResult.Forfeit.BOTH:
        return "double forfeit"
    if forfeit in (MatchResult.Forfeit.A, MatchResult.Forfeit.B):
        return "no-show" if no_show else "forfeit"
    return ""


MARK_WORDS = {
    "forfeit": gettext_lazy("forfeit"),
    "no-show": gettext_lazy("no-show"),
    "double forfeit": gettext_lazy("double forfeit"),
}
"""A mark (:func:`forfeit_mark`, a value pages and the API compare) as a person reads it."""

RECORDED_AS = {
    "forfeit": gettext_lazy("Recorded as a forfeit."),
    "no-show": gettext_lazy("Recorded as a no-show."),
    "double forfeit": gettext_lazy("Recorded as a double forfeit."),
    "": gettext_lazy("Recorded."),
}
"""What the director reads after recording a forfeit of each mark."""


def forfeit_side(forfeit: str) -> int | None:
    """The side (0 or 1) that forfeited alone, else ``None`` (played, or a double forfeit)."""
    return {"a": 0, "b": 1}.get(forfeit)


def no_show_results(event_id: int, result_ids: Iterable[int] | None = None) -> frozenset[int]:
    """The ids of the event's result versions recorded as no-shows (one query; an event has few).

    ``result_ids`` narrows the answer to those ids (the results a page shows)."""
    found = set()
    rows = AuditEntry.objects.filter(event_id=event_id, action=NO_SHOW_ACTION).values_list(
        "after", flat=True
    )
    for after in rows:
        if isinstance(after, dict) and isinstance(after.get("result"), int):
            found.add(after["result"])
    if result_ids is not None:
        found &= set(result_ids)
    return frozenset(found)


def result_mark(result: MatchResult | None, no_shows: frozenset[int] = frozenset()) -> str:
    """A result version's mark (:func:`forfeit_mark`), ``no_shows`` from :func:`no_show_results`."""
    if result is None or not result.forfeit:
        return ""
    return forfeit_mark(result.forfeit, no_show=result.pk in no_shows)


def marks_of(event_id: int, results: Iterable[tuple[int, str]]) -> dict[int, str]:
    """The marks of results given as ``(result id, forfeit)``, by result id, forfeits only (one
    query when one of them is a one-sided forfeit, none otherwise)."""
    forfeited = [(pk, forfeit) for pk, forfeit in results if forfeit]
    if not forfeited:
        return {}
    sided = [pk for pk, forfeit in forfeited if forfeit != MatchResult.Forfeit.BOTH]
    no_shows = no_show_results(event_id, sided) if sided else frozenset()
    return {pk: forfeit_mark(forfeit, no_show=pk in no_shows) for pk, forfeit in forfeited}


def board_marks(current: Iterable[MatchResult | None], event_id: int) -> dict[int, str]:
    """The marks of a board's forfeited results (its matches' current results, ``None`` where a
    match has none), by match id: one query, none without a forfeit."""
    results = [r for r in current if r is not None and r.forfeit]
    marks = marks_of(event_id, [(r.pk, r.forfeit) for r in results])
    return {r.match_id: marks[r.pk] for r in results}


def count_forfeits(current: Iterable[MatchResult | None]) -> int:
    """How many of a board's current results are forfeits (of any kind)."""
    return sum(1 for r in current if r is not None and r.forfeit)
