"""The director's standings page: the latest standings, the ties across the places that matter,
whether a tiebreak round may be proposed or the play-off seeded (and why not), and the recent jobs.
"""

from __future__ import annotations

from typing import Any

from tournaments import job_kinds
from tournaments.errors import SpinnerError
from tournaments.models import BackgroundJob, Event, Round, StandingsRecompute
from tournaments.selectors.playoffs import check_can_seed
from tournaments.selectors.standings import latest_standings, main_rounds_progress
from tournaments.selectors.standings_input import places_that_matter
from tournaments.selectors.tiebreak_rounds import check_can_propose_tiebreak


def director_standings(event: Event) -> dict[str, Any]:
    """Everything the director's standings page shows (a fixed handful of queries)."""
    event = Event.objects.select_related("standings_state", "standings_recompute").get(pk=event.pk)
    standings = latest_standings(event)
    names = {row["entry_id"]: row for row in standings.rows}
    ties = [
        {
            "rank": names[group[0]]["rank"] if group and group[0] in names else None,
            "entries": [{"id": e, "name": names[e]["name"] if e in names else e} for e in group],
        }
        for group in standings.unbroken_ties
    ]
    progress = main_rounds_progress(event)
    propose_blocked = seed_blocked = ""
    try:
        check_can_propose_tiebreak(event)
    except SpinnerError as exc:
        propose_blocked = exc.message
    try:
        check_can_seed(event)
    except SpinnerError as exc:
        seed_blocked = exc.message
    try:
        recompute: StandingsRecompute | None = event.standings_recompute
    except StandingsRecompute.DoesNotExist:
        recompute = None
    return {
        "event": event,
        "standings": standings,
        "meta": standings.meta,
        "recompute": recompute,
        "ties": ties,
        "places": standings.document.get("places_that_matter", places_that_matter(event)),
        "main_closed": progress.closed,
        "main_expected": progress.expected,
        "main_complete": progress.complete,
        "can_propose": not propose_blocked,
        "propose_blocked": propose_blocked,
        "can_seed": not seed_blocked,
        "seed_blocked": seed_blocked,
        # the play-off's first round once seeded (None before): the page links to it
        "playoff_first": Round.objects.filter(event=event, kind=Round.Kind.PLAYOFF)
        .order_by("number")
        .first(),
        "tiebreak_rounds": list(
            Round.objects.filter(event=event, kind=Round.Kind.TIEBREAK)
            .order_by("-number")
            .prefetch_related("matches__entry_a", "matches__entry_b", "matches__table")
        ),
        "jobs": list(
            BackgroundJob.objects.filter(
                event=event, kind__in=(job_kinds.PROPOSE_TIEBREAK_ROUND, job_kinds.SEED_PLAYOFF)
            ).order_by("-created_at")[:5]
        ),
    }
