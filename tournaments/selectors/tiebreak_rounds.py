"""Reads for tiebreak rounds: whether one may be proposed now, and the tied groups it settles."""

from __future__ import annotations

from django.utils.translation import gettext

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
            gettext("Round %(number)s is not closed: close it first.")
            % {"number": open_round.number},
            code="previous_round_open",
            details={"round": open_round.number},
        )
    if Round.objects.filter(event=event, kind=Round.Kind.PLAYOFF).exists():
        raise Conflict(gettext("The play-off has started."), code="playoff_started")
    groups = standings.unbroken_ties
    if not groups:
        raise ValidationFailed(
            gettext("No tie remains across a place that matters."), code="no_unbroken_ties"
        )
    return groups
