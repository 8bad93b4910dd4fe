"""The director's control desk: what is happening now in an event (the round in play or the
next step, its clock, and how many results are missing, pending or in conflict)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.utils import timezone

from tournaments.models import AuditEntry, Event, Round
from tournaments.selectors.bracket import bracket_view
from tournaments.selectors.forfeits import count_forfeits
from tournaments.selectors.results import count_states, round_board
from tournaments.selectors.standings import main_rounds_progress


@dataclass(frozen=True)
class Desk:
    """The event's "now": ``round`` (the latest round, or None), ``step`` (what the director
    does next: ``publish``, ``start``, ``results`` or ``close`` a round; once it is closed, what
    :func:`next_step` says), the clock and the round's result counts."""

    round: Round | None
    step: str
    started_at: datetime.datetime | None = None
    minutes: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    now: datetime.datetime | None = None
    forfeits: int = 0  # results of the round recorded as forfeits (marked on the desk)

    @property
    def ends_at(self) -> datetime.datetime | None:
        if self.started_at is None or not self.minutes:
            return None
        return self.started_at + datetime.timedelta(minutes=self.minutes)

    @property
    def minutes_left(self) -> int | None:
        """Whole minutes until the time limit (negative: past it); None without a clock."""
        if self.ends_at is None or self.now is None:
            return None
        seconds = (self.ends_at - self.now).total_seconds()
        return int(seconds // 60) if seconds >= 0 else -int(-seconds // 60)

    @property
    def minutes_over(self) -> int:
        """Whole minutes past the time limit (0 while within it)."""
        left = self.minutes_left
        return -left if left is not None and left < 0 else 0


def round_started_at(rnd: Round) -> datetime.datetime | None:
    """When the round's clock started (its ``round.start`` audit entry), or None. One query."""
    return (
        AuditEntry.objects.filter(
            event_id=rnd.event_id, action="round.start", object_id=str(rnd.pk)
        )
        .order_by("at")
        .values_list("at", flat=True)
        .first()
    )


def desk(event: Event) -> Desk:
    """The event's desk. A fixed number of queries (the latest round, its board, its start)."""
    rnd = Round.objects.filter(event=event).order_by("-number").first()
    if rnd is None:
        return Desk(round=rnd, step="generate")
    if rnd.status == Round.Status.CLOSED:
        return Desk(round=rnd, step=next_step(event))
    if rnd.status == Round.Status.DRAFT:
        return Desk(round=rnd, step="publish")
    boards = round_board(rnd)
    counts = count_states(boards)
    forfeits = count_forfeits(b.result for b in boards)
    minutes = rnd.time_limit_minutes or event.round_minutes
    if rnd.status == Round.Status.PUBLISHED:
        step = "close" if _all_in(counts) else "start"
        return Desk(round=rnd, step=step, minutes=minutes, counts=counts, forfeits=forfeits)
    started = round_started_at(rnd)
    step = "close" if _all_in(counts) else "results"
    return Desk(
        round=rnd,
        step=step,
        started_at=started,
        minutes=minutes,
        counts=counts,
        now=timezone.now(),
        forfeits=forfeits,
    )


def next_step(event: Event) -> str:
    """What comes after the closed rounds: ``generate`` the next main round while the Swiss
    rounds are not all played, then (a play-off event) ``seed`` the play-off from the standings
    page (where a tie across the cut gets its tiebreak round first), ``advance`` it ("Next
    play-off round") until its bracket is decided, and ``finish`` the event; ``finished`` once
    it is. The pages send the director to the one place that does the step."""
    if event.status == Event.Status.FINISHED:
        return "finished"
    if not main_rounds_progress(event).complete:
        return "generate"
    if event.playoff == Event.Playoff.NONE:
        return "finish"
    view = bracket_view(event)
    if view is None:
        return "seed"
    if view.progress is not None and view.progress.finished:
        return "finish"
    return "advance"


def _all_in(counts: dict[str, int]) -> bool:
    open_ = counts.get("missing", 0) + counts.get("pending", 0) + counts.get("conflict", 0)
    return open_ == 0 and counts.get("confirmed", 0) > 0
