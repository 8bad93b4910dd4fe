"""Reads for finishing an event: whether it may finish now, and its final placings.

The order is the pure :mod:`tournaments.pairing.final_places` rule's; this module only reads
its inputs: where the play-off stands (:func:`~tournaments.selectors.bracket.bracket_view`) and
the Swiss standing, computed afresh from the confirmed results (the same records and the same
computation as a standings snapshot, so a correction made a moment ago counts even before the
worker has written its snapshot).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from tournaments.errors import Conflict, SpinnerError
from tournaments.models import Entry, Event
from tournaments.pairing.final_places import (
    FinalPlace,
    SwissPlace,
    bracket_places,
    final_places,
)
from tournaments.selectors.bracket import bracket_view
from tournaments.selectors.standings import main_rounds_progress
from tournaments.selectors.standings_input import load_standings_input
from tournaments.selectors.standings_records import build_document


class PlayoffNotDecided(Conflict):
    code = "playoff_not_decided"


@dataclass(frozen=True)
class FinishCheck:
    """Whether the event may finish now: ``error`` says why not (``None``: it may), and
    ``places`` are the placings it would freeze (empty while it may not)."""

    error: SpinnerError | None
    places: tuple[FinalPlace, ...] = field(default_factory=tuple)

    @property
    def ready(self) -> bool:
        return self.error is None


def swiss_places(event: Event) -> list[SwissPlace]:
    """The Swiss standing, best first, from the confirmed results as they are now (four
    queries; no snapshot is read or written)."""
    data = load_standings_input(event_id=event.pk)
    _document, standings = build_document(data)
    return [
        SwissPlace(int(row.entry_id), int(row.rank), int(row.entry_id) in data.withdrawn)
        for row in standings.rows
    ]


def _main_rounds_error(event: Event) -> SpinnerError | None:
    progress = main_rounds_progress(event)
    if progress.complete:
        return None
    return Conflict(
        gettext("The main rounds are not over (%(closed)s of %(expected)s closed).")
        % {"closed": progress.closed, "expected": progress.expected},
        code="main_rounds_open",
        details={"closed": progress.closed, "expected": progress.expected},
    )


def finish_check(event: Event) -> FinishCheck:
    """May ``event`` finish now, and with which placings?

    Refusals: ``event_finished`` (it already is), ``main_rounds_open`` (the Swiss rounds are not
    all closed, or fewer than the event's number), ``playoff_needs_seeding`` (a play-off event
    whose bracket is not seeded), ``playoff_not_decided`` (the final has no confirmed winner yet,
    or a corrected result leaves a later bracket match between entries no longer in it).
    """
    if event.status == Event.Status.FINISHED:
        return FinishCheck(
            Conflict(gettext("This event is already finished."), code="event_finished")
        )
    error = _main_rounds_error(event)
    if error is not None:
        return FinishCheck(error)
    try:
        return FinishCheck(None, current_places(event))
    except SpinnerError as exc:
        return FinishCheck(exc)


def current_places(event: Event) -> tuple[FinalPlace, ...]:
    """The final placings as the results stand now (raises what :func:`finish_check` names for
    the play-off; the main rounds are not checked: a finished event's correction re-reads them)."""
    if event.playoff == Event.Playoff.NONE:
        return final_places((), swiss_places(event), playoff=False)
    try:
        view = bracket_view(event)
    except ValueError as exc:  # a decision names an entry no longer in its match
        raise PlayoffNotDecided(
            "A corrected result changed who played a later bracket match: correct that match too.",
            details={"problem": str(exc)},
        ) from exc
    if view is None:
        raise Conflict(
            gettext("The play-off is not seeded yet: seed it from the final standings."),
            code="playoff_needs_seeding",
        )
    assert view.progress is not None
    if view.progress.champion is None:
        raise PlayoffNotDecided(
            "The play-off's final has no confirmed winner yet.",
            details={"ready": list(view.progress.ready)},
        )
    bracket = bracket_places(view.bracket, view.progress)
    return final_places(bracket, swiss_places(event), playoff=True)


def unplayed_matches(event: Event) -> list[str]:
    """The play-off's matches neither decided nor skipped (a third-place or consolation match
    still to play): finishing now counts them as not played."""
    try:
        view = bracket_view(event)
    except ValueError:
        return []
    if view is None or view.progress is None:
        return []
    return [m.match_id for m in view.progress.matches if m.status not in ("decided", "skipped")]


def placings_json(event: Event, places: tuple[FinalPlace, ...]) -> list[dict[str, Any]]:
    """``Event.placings``: ``[{"place", "entry_id", "name", "eliminated_in", "shared"}]``, best
    first (one query for the names)."""
    names = dict(Entry.objects.filter(event=event).values_list("pk", "name"))
    return [
        {
            "place": p.place,
            "entry_id": p.entry_id,
            "name": names.get(p.entry_id, ""),
            "eliminated_in": p.eliminated_in,
            "shared": p.shared,
        }
        for p in places
    ]
