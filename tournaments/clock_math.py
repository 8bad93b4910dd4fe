"""The round clock's state, worked out from a round's clock fields and the time now. Pure.

A round's clock (``Round.clock_*``, written only by ``services/round_clock.py``) is:

- ``not_started`` while ``clock_started_at`` is null (no clock, or the round not started);
- ``paused`` while ``clock_paused_left`` (whole seconds left) is set;
- ``expired`` (time is called) once ``clock_ended_at`` is set (the director ended it) or the
  time now reaches ``clock_ends_at``;
- ``running`` otherwise, with ``clock_ends_at - now`` left.

Every reader (the desk, the board, the phone, the projector, the API) asks :func:`clock_state`,
so that "is time up?" is said once.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from typing import Any, Protocol

NOT_STARTED = "not_started"
RUNNING = "running"
PAUSED = "paused"
EXPIRED = "expired"
STATES = (NOT_STARTED, RUNNING, PAUSED, EXPIRED)


class ClockFields(Protocol):
    """What the state is read from: a ``Round`` (or anything with its four clock fields)."""

    clock_started_at: datetime.datetime | None
    clock_ends_at: datetime.datetime | None
    clock_paused_left: int | None
    clock_ended_at: datetime.datetime | None


@dataclass(frozen=True)
class ClockState:
    """A clock at one moment.

    ``seconds_left``: whole seconds until time (rounded up, so a clock shows 0 only when time is
    up); None while not started, 0 once expired. ``ends_at``: when time is up if nothing
    changes (None while not started or paused; the moment it expired once expired).
    ``seconds_over``: whole seconds since time was up (0 unless expired).
    """

    state: str
    seconds_left: int | None
    ends_at: datetime.datetime | None
    seconds_over: int = 0

    @property
    def expired(self) -> bool:
        """Time is called: the round's time has run out or the director ended it."""
        return self.state == EXPIRED

    @property
    def minutes_left(self) -> int | None:
        """Whole minutes left, rounded up (None while not started)."""
        return None if self.seconds_left is None else -(-self.seconds_left // 60)

    @property
    def minutes_over(self) -> int:
        """Whole minutes past time (0 unless expired)."""
        return self.seconds_over // 60

    @property
    def ends_at_ms(self) -> int | None:
        """:attr:`ends_at` in milliseconds since the Unix epoch (None without it): a page kept as
        a document (the projector) names the moment, and its script counts down to it on the
        browser's clock, so the page is the same from one second to the next."""
        return None if self.ends_at is None else int(self.ends_at.timestamp() * 1000)

    @property
    def left_text(self) -> str:
        """The seconds left as the pages show them: ``m:ss``, ``h:mm:ss`` from an hour ("" while
        not started). The pages' script (``static/spinner/clock.js``) counts on from it."""
        if self.seconds_left is None:
            return ""
        hours, rest = divmod(self.seconds_left, 3600)
        minutes, seconds = divmod(rest, 60)
        if hours:
            return f"{hours}:{minutes:02d}:{seconds:02d}"
        return f"{minutes}:{seconds:02d}"

    def as_dict(self) -> dict[str, Any]:
        """The wire form the phone, the projector's script and the API read."""
        return {
            "state": self.state,
            "seconds_left": self.seconds_left,
            "ends_at": self.ends_at.isoformat() if self.ends_at is not None else None,
            "seconds_over": self.seconds_over,
        }


def _whole_seconds_up(delta: datetime.timedelta) -> int:
    return max(0, math.ceil(delta.total_seconds()))


def clock_state(clock: ClockFields, *, now: datetime.datetime) -> ClockState:
    """The state of ``clock`` at ``now``.

    >>> from types import SimpleNamespace as R
    >>> t = datetime.datetime(2026, 1, 1, 10, 0, tzinfo=datetime.UTC)
    >>> off = R(clock_started_at=None, clock_ends_at=None, clock_paused_left=None,
    ...         clock_ended_at=None)
    >>> clock_state(off, now=t).state
    'not_started'
    >>> on = R(clock_started_at=t, clock_ends_at=t + datetime.timedelta(minutes=45),
    ...        clock_paused_left=None, clock_ended_at=None)
    >>> clock_state(on, now=t + datetime.timedelta(minutes=44, seconds=30)).seconds_left
    30
    >>> clock_state(on, now=t + datetime.timedelta(minutes=46)).seconds_over
    60
    """
    if clock.clock_started_at is None:
        return ClockState(NOT_STARTED, None, None)
    if clock.clock_ended_at is not None:
        over = _whole_seconds_up(now - clock.clock_ended_at)
        return ClockState(EXPIRED, 0, clock.clock_ended_at, over)
    if clock.clock_paused_left is not None:
        return ClockState(PAUSED, clock.clock_paused_left, None)
    ends = clock.clock_ends_at
    if ends is None or now >= ends:
        ends = ends or clock.clock_started_at
        return ClockState(EXPIRED, 0, ends, _whole_seconds_up(now - ends))
    return ClockState(RUNNING, _whole_seconds_up(ends - now), ends)
