"""Reads for tiebreak rounds: whether one may be proposed now, and the tied groups it settles."""

from __future__ import annotations

from tournaments.errors import Conflict, ValidationFailed
from tournaments.models import (
    Event,
    Round,
)
from tournaments.selectors.standings import final_standings


def check_can_propose_tiebreak(event: Event) -> list[list[int]]:
    """Raise unless a tiebreak round may be proposed now; return the tied groups to settle."""
    standings = final_standings(event)
    open_round = event.rounds.exclude(status=Round.Status.CLOSED).order_by("number").first()
    if open_round is not None:
        raise Conflict(
            f"Round {open_round.number} is not closed: close it first.",
            code="previous_round_open",
            details={"round": open_round.number},
        )
    if Round.objects.filter(event=event, kind=Round.Kind.PLAYOFF).exists():
        raise Conflict("The play-off has started.", code="playoff_started")
    groups = standings.unbroken_ties
    if not groups:
        raise ValidationFailed(
            "No tie remains across a place that matters.", code="no_unbroken_ties"
        )
    return groups
