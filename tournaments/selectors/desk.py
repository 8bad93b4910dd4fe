"""The director's control desk: what is happening now in an event (the round in play or the
next step, its clock, and how many results are missing, pending or in conflict)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.utils import timezone

from tournaments.clock_math import ClockState, clock_state
from tournaments.models import Event, Round
from tournaments.selectors.bracket import bracket_view
from tournaments.selectors.forfeits import count_forfeits
from tournaments.selectors.results import MatchBoard, count_states, round_board
from tournaments.selectors.standings import main_rounds_progress


@dataclass(frozen=True)
class Desk:
    """The event's "now": ``round`` (the latest round, or None), ``step`` (what the director
    does next: ``generate``, ``publish``, ``start``, ``results`` or ``close``), the round's
    clock (``tournaments.clock_math``) and its result counts; ``late``: the tables still playing
    after time (no confirmed result once the clock is up)."""

    round: Round | None
    step: str
    minutes: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    clock: ClockState | None = None
    late: int = 0
    forfeits: int = 0  # results of the round recorded as forfeits (marked on the desk)

    @property
    def started_at(self) -> datetime.datetime | None:
        return self.round.clock_started_at if self.round is not None else None

    @property
    def ends_at(self) -> datetime.datetime | None:
        return self.clock.ends_at if self.clock is not None else None

    @property
    def minutes_left(self) -> int | None:
        """Whole minutes left, rounded up (None without a clock)."""
        return self.clock.minutes_left if self.clock is not None else None

    @property
    def minutes_over(self) -> int:
        """Whole minutes past time (0 while within it)."""
        return self.clock.minutes_over if self.clock is not None else 0


def round_clock(rnd: Round, now: datetime.datetime | None = None) -> ClockState:
    """The round's clock at ``now`` (default: the time now). No query."""
    return clock_state(rnd, now=now or timezone.now())


def playing_after_time(boards: list[MatchBoard], clock: ClockState) -> set[int]:
    """The matches (ids) still playing after time: a table with no confirmed result once the
    round's clock is up (none while the clock runs). No query."""
    if not clock.expired:
        return set()
    return {
        b.match.pk for b in boards if not b.match.is_bye and b.state not in ("confirmed", "bye")
    }


def desk(event: Event) -> Desk:
    """The event's desk. A fixed number of queries (the latest round and its board; between
    rounds, what comes next: the Swiss rounds, the play-off's seeding or next round, finishing)."""
    rnd = Round.objects.filter(event=event).order_by("-number").first()
    if event.status == Event.Status.FINISHED:
        return Desk(round=rnd, step="finished")
    if rnd is None or rnd.status == Round.Status.CLOSED:
        return Desk(round=rnd, step=next_step(event) if rnd is not None else "generate")
    if rnd.status == Round.Status.DRAFT:
        return Desk(round=rnd, step="publish")
    boards = round_board(rnd)
    counts = count_states(boards)
    forfeits = count_forfeits(b.result for b in boards)
    minutes = rnd.time_limit_minutes or event.round_minutes
    if rnd.status == Round.Status.PUBLISHED:
        step = "close" if _all_in(counts) else "start"
        return Desk(round=rnd, step=step, minutes=minutes, counts=counts, forfeits=forfeits)
    clock = round_clock(rnd)
    step = "close" if _all_in(counts) else "results"
    return Desk(
        round=rnd,
        step=step,
        minutes=minutes,
        counts=counts,
        clock=clock,
        late=len(playing_after_time(boards, clock)),
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
