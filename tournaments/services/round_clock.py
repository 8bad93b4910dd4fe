"""The round clock: started with the round, then paused, resumed, extended or ended by the
director. Every move is audited (``round.clock_start``, ``round.clock_pause``,
``round.clock_resume``, ``round.clock_extend``, ``round.clock_end``); the clock's state at any
moment is :func:`tournaments.clock_math.clock_state`.

The round's limit is ``Round.time_limit_minutes`` (set from ``Event.round_minutes`` when the round
is made; the event's, if the round has none). When time is up the tables record "time called" on
their sheets and the engine applies the event's time policy.

Errors (``code``):
    round_not_in_play       the round is not in play (a draft, published, or closed)
    clock_no_limit          the round has no time limit to count down
    clock_already_started   the clock was started before
    clock_not_started       the clock has not started
    clock_paused            pausing a clock that is paused
    clock_not_paused        resuming a clock that is running
    clock_expired           time is up (run out or ended): it cannot be paused, resumed,
                            extended or ended again
    clock_minutes_invalid   minutes to add: a whole number from 1 to 120
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import clock_math, follow_versions
from tournaments.errors import Conflict, ValidationFailed
from tournaments.models import Round
from tournaments.services import audit
from tournaments.services.audit import Actor
from tournaments.services.round_edits import lock_round

MIN_EXTEND_MINUTES = 1
MAX_EXTEND_MINUTES = 120
"""What the director may add in one go (a longer break is a pause)."""

_FIELDS = ["clock_started_at", "clock_ends_at", "clock_paused_left", "clock_ended_at"]


def round_limit_minutes(rnd: Round) -> int | None:
    """The round's time limit in minutes (the round's own, else the event's), or None."""
    return rnd.time_limit_minutes or rnd.event.round_minutes or None


def _snapshot(rnd: Round, state: clock_math.ClockState) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "state": state.state,
        "seconds_left": state.seconds_left,
        "ends_at": state.ends_at.isoformat() if state.ends_at else None,
    }


def _write(
    rnd: Round,
    *,
    actor: Actor,
    action: str,
    before: clock_math.ClockState,
    now: datetime.datetime,
    extra: dict[str, Any] | None = None,
) -> Round:
    rnd.save(update_fields=_FIELDS)
    after = clock_math.clock_state(rnd, now=now)
    audit.record(
        event=rnd.event,
        actor=actor,
        action=action,
        obj=rnd,
        before=_snapshot(rnd, before),
        after={**_snapshot(rnd, after), **(extra or {})},
    )
    follow_versions.bump_event(rnd.event)  # "my table" pages show the clock
    return rnd


def _require_in_play(rnd: Round) -> None:
    if rnd.status != Round.Status.IN_PLAY:
        raise Conflict(
            gettext("Round %(number)s is %(lower)s: its clock runs only while it is in play.")
            % {"number": rnd.number, "lower": rnd.get_status_display().lower()},
            code="round_not_in_play",
            details={"round": rnd.number, "status": rnd.status},
        )


def _locked(rnd: Round, now: datetime.datetime) -> tuple[Round, clock_math.ClockState]:
    """The round locked, checked to be in play with a clock that has started and is not up."""
    locked = lock_round(rnd)
    _require_in_play(locked)
    state = clock_math.clock_state(locked, now=now)
    if state.state == clock_math.NOT_STARTED:
        raise Conflict(
            gettext("Round %(number)s's clock has not started.") % {"number": locked.number},
            code="clock_not_started",
            details={"round": locked.number},
        )
    if state.expired:
        raise Conflict(
            gettext(
                "Round %(number)s's time is up (time was called): its clock cannot change any more."
            )
            % {"number": locked.number},
            code="clock_expired",
            details={"round": locked.number},
        )
    return locked, state


def start_clock_locked(rnd: Round, *, actor: Actor, now: datetime.datetime) -> Round:
    """Start the clock of a round already locked and in play (``round_status.start_round``
    calls it in its transaction); a round with no time limit gets no clock."""
    if rnd.clock_started_at is not None:
        raise Conflict(
            gettext("Round %(number)s's clock has already started.") % {"number": rnd.number},
            code="clock_already_started",
            details={"round": rnd.number},
        )
    minutes = round_limit_minutes(rnd)
    if minutes is None:
        raise ValidationFailed(
            gettext("Round %(number)s has no time limit: set the event's round minutes first.")
            % {"number": rnd.number},
            code="clock_no_limit",
            details={"round": rnd.number},
        )
    before = clock_math.clock_state(rnd, now=now)
    rnd.clock_started_at = now
    rnd.clock_ends_at = now + datetime.timedelta(minutes=minutes)
    rnd.clock_paused_left = None
    rnd.clock_ended_at = None
    return _write(
        rnd,
        actor=actor,
        action="round.clock_start",
        before=before,
        now=now,
        extra={"minutes": minutes},
    )


@transaction.atomic
def start_clock(*, round: Round, actor: Actor, now: datetime.datetime | None = None) -> Round:
    """Start a round's clock (a round in play whose clock has not started): time is up
    ``time limit`` minutes from now."""
    rnd = lock_round(round)
    _require_in_play(rnd)
    return start_clock_locked(rnd, actor=actor, now=now or timezone.now())


@transaction.atomic
def pause_clock(*, round: Round, actor: Actor, now: datetime.datetime | None = None) -> Round:
    """Stop the clock, keeping the seconds left (``clock_paused`` if it is paused already)."""
    now = now or timezone.now()
    rnd, state = _locked(round, now)
    if state.state == clock_math.PAUSED:
        raise Conflict(
            gettext("Round %(number)s's clock is already paused.") % {"number": rnd.number},
            code="clock_paused",
            details={"round": rnd.number, "seconds_left": state.seconds_left},
        )
    rnd.clock_paused_left = state.seconds_left
    return _write(rnd, actor=actor, action="round.clock_pause", before=state, now=now)


@transaction.atomic
def resume_clock(*, round: Round, actor: Actor, now: datetime.datetime | None = None) -> Round:
    """Run a paused clock again: time is up the seconds it had left from now."""
    now = now or timezone.now()
    rnd, state = _locked(round, now)
    if state.state != clock_math.PAUSED or rnd.clock_paused_left is None:
        raise Conflict(
            gettext("Round %(number)s's clock is running: only a paused clock resumes.")
            % {"number": rnd.number},
            code="clock_not_paused",
            details={"round": rnd.number},
        )
    rnd.clock_ends_at = now + datetime.timedelta(seconds=rnd.clock_paused_left)
    rnd.clock_paused_left = None
    return _write(rnd, actor=actor, action="round.clock_resume", before=state, now=now)


def _minutes(value: Any) -> int:
    try:
        minutes = int(str(value).strip())
    except (TypeError, ValueError):
        minutes = 0
    if str(value).strip() != str(minutes) or not (
        MIN_EXTEND_MINUTES <= minutes <= MAX_EXTEND_MINUTES
    ):
        raise ValidationFailed(
            gettext(
                "Add a whole number of minutes from %(MIN_EXTEND_MINUTES)s to "
                "%(MAX_EXTEND_MINUTES)s, not %(value)r."
            )
            % {
                "MIN_EXTEND_MINUTES": MIN_EXTEND_MINUTES,
                "MAX_EXTEND_MINUTES": MAX_EXTEND_MINUTES,
                "value": str(value)[:20],
            },
            code="clock_minutes_invalid",
            details={"min": MIN_EXTEND_MINUTES, "max": MAX_EXTEND_MINUTES},
        )
    return minutes


@transaction.atomic
def extend_clock(
    *, round: Round, minutes: Any, actor: Actor, now: datetime.datetime | None = None
) -> Round:
    """Add ``minutes`` (a whole number, 1 to 120) to a running or paused clock."""
    added = _minutes(minutes)
    now = now or timezone.now()
    rnd, state = _locked(round, now)
    if rnd.clock_paused_left is not None:
        rnd.clock_paused_left += added * 60
    else:
        assert rnd.clock_ends_at is not None
        rnd.clock_ends_at += datetime.timedelta(minutes=added)
    return _write(
        rnd,
        actor=actor,
        action="round.clock_extend",
        before=state,
        now=now,
        extra={"minutes": added},
    )


@transaction.atomic
def end_clock(*, round: Round, actor: Actor, now: datetime.datetime | None = None) -> Round:
    """Call time now: the clock is up, whatever it had left (the tables record time called)."""
    now = now or timezone.now()
    rnd, state = _locked(round, now)
    rnd.clock_ended_at = now
    rnd.clock_paused_left = None
    return _write(rnd, actor=actor, action="round.clock_end", before=state, now=now)
